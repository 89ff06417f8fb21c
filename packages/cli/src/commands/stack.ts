import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { reveal, SECRET_SIG, timeAgo } from '../display/format';
import { goLocalTime } from '../display/go-time';
import { goPathError, UserError } from '../errors';
import { APITYPE_MAPS, goJson, goOrder } from '../go-json';
import {
  checkSnapshot,
  listStacks,
  passphraseSalt,
  renameHistory,
  type Crypter,
  type ImportedDeployment,
  type ResourceState,
  type Snapshot,
} from '../engine';
import { isObject, outputValueSig, resourceSig, secretSig, sigKey } from '../engine/values';
import type { GlobalOptions } from './options';
import { StackConfigFile } from '../project/stack-config';
import { ensureSalt } from '../secrets/stack-crypter';
import { urnName } from '../engine/urn';
import { GO_ZERO_TIME, OCIKIT_FEATURES } from '../engine/state';
import { matchesTagFilter, saveStackTags, stackTagsOrNone } from '../engine/stack-tags';
import { crypterFromState, MISSING_PASSPHRASE, PassphraseError, passphraseFromEnv } from '../secrets/passphrase';
import {
  canPrompt,
  commandContext,
  commandProject,
  openStack,
  openStackBlind,
  requireExistingStack,
  selectedStack,
  selectStack,
  skipConfirmations,
  STACK_NAME,
  stackExists,
  stackName,
  type CommandContext,
} from './context';
import { isJsonFile, stackConfigFolder, stackConfigPath, type Project } from '../project/project';
import { ask, readStdin } from './prompt';
import { upToDeploymentV3 } from './migrate-deployment';

/** `stack output --json`: ui.FprintJSON, Go's encoder indented by two spaces, map keys sorted. */
const GO_OUTPUTS = { indent: '  ', sorted: true };

/**
 * `stack output [name] [--json|--shell]`: secrets print as [secret] unless --show-secrets, as in
 * Pulumi; `--shell` prints `name=value` lines a POSIX shell can `eval`.
 */
export function stackOutput(options: GlobalOptions & { showSecrets?: boolean; shell?: boolean }, name?: string): void {
  if (options.json && options.shell) throw new UserError('only one of --json and --shell may be set');
  // Without --show-secrets, secrets are read blind, with no passphrase asked for (as Pulumi's
  // stack output reads them with its BlindingProvider, pulumi/pulumi#23820).
  const stackState = options.showSecrets ? openStack(options).state : openStackBlind(options);
  const outputs = stackState.outputs();
  const shown = reveal(outputs, Boolean(options.showSecrets), true) as Record<string, unknown>;
  if (name !== undefined && !(name in outputs))
    throw new UserError(`current stack does not have output property '${name}'`);
  if (options.shell) {
    for (const n of name !== undefined ? [name] : Object.keys(shown).sort())
      process.stdout.write(`${n}=${shellQuote(stringifyOutput(shown[n]))}\n`);
    return;
  }
  if (name !== undefined) {
    const value = shown[name];
    process.stdout.write((options.json ? goJson(value, GO_OUTPUTS) : stringifyOutput(value)) + '\n');
    return;
  }
  if (options.json) {
    process.stdout.write(goJson(shown, GO_OUTPUTS) + '\n');
    return;
  }
  printOutputs(shown);
}

/**
 * A word for a POSIX shell as Pulumi's `--shell` writes it (go-shellquote's Join): special
 * characters backslash-escaped, or the whole word single-quoted when it has whitespace.
 */
function shellQuote(word: string): string {
  if (word === '') return "''";
  if (/[ \t\n]/.test(word))
    return word
      .split("'")
      .map((part) => (part ? `'${part}'` : ''))
      .join("\\'");
  return [...word].map((c, i) => (SHELL_SPECIAL.includes(c) || (i === 0 && '~#'.includes(c)) ? `\\${c}` : c)).join('');
}
const SHELL_SPECIAL = '\\\'"`${[|&;<>()*?!';

/**
 * As `pulumi stack output` prints them: an OUTPUT/VALUE table sorted by name, strings as they
 * are, other values as one-line JSON.
 */
function printOutputs(shown: Record<string, unknown>): void {
  const names = Object.keys(shown).sort();
  process.stdout.write(`Current stack outputs (${names.length}):\n`);
  if (names.length === 0) {
    process.stdout.write('    No output values currently in this stack\n');
    return;
  }
  const rows = [['OUTPUT', 'VALUE'], ...names.map((n) => [n, stringifyOutput(shown[n])])];
  const width = Math.max(...rows.map(([n]) => n.length));
  for (const [n, v] of rows) process.stdout.write(`    ${n.padEnd(width)}  ${v}\n`);
}

/**
 * `stack [--show-urns] [--show-ids] [--show-secrets]`, as `pulumi stack`: when the stack was last
 * updated, its resources as a tree under the stack (with their URNs and ids on request: what
 * `state delete` and `--replace` take), then its outputs. `--show-name`: the stack's name alone,
 * as scripts read it from `pulumi stack --show-name`.
 */
export function stackShow(
  options: GlobalOptions & { showUrns?: boolean; showIds?: boolean; showSecrets?: boolean; showName?: boolean },
): void {
  const { stack, state: stackState } = openStack(options);
  if (options.showName) {
    process.stdout.write(`${stack}\n`);
    return;
  }
  const { resources, manifest } = stackState.load({ manifest: 'read' });
  const root = resources.find((r) => r.type === 'pulumi:pulumi:Stack' && !r.parent);
  const out: string[] = [`Current stack is ${stack}:`];
  // A DIY backend's name is the machine's (diyBackend.Name: os.Hostname(), else "diy").
  out.push(`    Managed by ${backendName()}`);
  if (manifest) {
    // As Pulumi's runStack: `Last updated: 5 minutes ago (2026-11-25 08:58:11.039 +0530 IST)`, the
    // manifest's time in the local zone as Go's `%v` prints it, when it is set and past.
    const time = Date.parse(manifest.time ?? '');
    if (time > GO_ZERO_TIME && time < Date.now())
      out.push(`    Last updated: ${timeAgo(new Date(time))} (${goLocalTime(manifest.time!)})`);
    if (manifest.version) out.push(`    Pulumi version used: ${manifest.version}`);
    for (const p of manifest.plugins ?? [])
      out.push(`    Plugin ${p.name ?? ''} [${p.type ?? ''}] version: ${p.version || '?'}`);
  } else out.push('    No updates yet; run `ocikit up`');
  out.push(`Current stack resources (${resources.length}):`);
  if (resources.length === 0) out.push('    No resources currently in this stack');
  else {
    const rows: Array<{ cells: [string, string]; info: string[] }> = [];
    const row = (r: (typeof resources)[number], prefix: string, infoPrefix: string) => {
      const info: string[] = [];
      if (options.showUrns) info.push(`    ${infoPrefix}URN: ${r.urn}`);
      if (options.showIds && r.id) info.push(`    ${infoPrefix}ID: ${r.id}`);
      rows.push({ cells: [prefix + r.type, urnName(r.urn)], info });
    };
    // A tree under the stack resource (orphans under it too), as Pulumi's renderTree.
    const children = new Map<string, typeof resources>();
    for (const r of resources) {
      if (r === root) continue;
      const parent = r.parent && resources.some((p) => p.urn === r.parent) ? r.parent : (root?.urn ?? '');
      children.set(parent, [...(children.get(parent) ?? []), r]);
    }
    const walk = (r: (typeof resources)[number], padding: string, branch: string) => {
      const kids = children.get(r.urn) ?? [];
      const childPadding = padding + (branch === '├─ ' ? '│  ' : branch === '└─ ' ? '   ' : '');
      row(r, padding + branch, childPadding + (kids.length ? '│  ' : '   '));
      kids.forEach((k, i) => walk(k, childPadding, i === kids.length - 1 ? '└─ ' : '├─ '));
    };
    if (root) walk(root, '', '');
    else for (const r of resources) row(r, '', '    ');
    const width = Math.max('TYPE'.length, ...rows.map((r) => r.cells[0].length));
    out.push(`    ${'TYPE'.padEnd(width)}  NAME`);
    for (const r of rows) out.push(`    ${r.cells[0].padEnd(width)}  ${r.cells[1]}`, ...r.info);
  }
  process.stdout.write(`${out.join('\n')}\n\n`);
  if (resources.length > 0) {
    // The stack resource's outputs, from what was read above (outputs() would read the file again).
    printOutputs(reveal(root?.outputs ?? {}, Boolean(options.showSecrets), true) as Record<string, unknown>);
    process.stdout.write('\n');
  }
  process.stdout.write('Use `ocikit stack select` to change stack; `ocikit stack ls` lists known ones\n');
}

/** stringifyOutput: a string as it is, another value as one line of Go's JSON (ui.MakeJSONString). */
/** The DIY backend's Name(): the host's name, or `diy` when it has none. */
function backendName(): string {
  return hostname() || 'diy';
}

function stringifyOutput(value: unknown): string {
  return typeof value === 'string' ? value : goJson(value, { sorted: true });
}

/**
 * `stack export [--file f] [--show-secrets]`: the checkpoint as `pulumi stack export` prints it
 * (4-space JSON, a map's keys sorted: the DIY backend marshals the checkpoint it read, whose
 * inputs and outputs are Go maps), to stdout or (as Pulumi) silently to the file.
 */
export function stackExport(
  options: GlobalOptions & { showSecrets?: boolean; file?: string; previousVersion?: string },
): void {
  const { state } = openStack(options);
  // stack_export.go asks the backend for an earlier version only when it is a
  // SpecificDeploymentExporter, which the DIY backend is not (its history keeps no versions).
  if (options.previousVersion !== undefined)
    throw new UserError(
      `the current backend (${backendName()}) does not provide the ability to export previous deployments`,
    );
  const deployment = state.exportDeployment({ showSecrets: options.showSecrets });
  const text = goJson(deployment, { indent: '    ', maps: APITYPE_MAPS }) + '\n';
  if (!options.file) return void process.stdout.write(text);
  try {
    // 0600 also when the file exists (the mode option applies to a new file only): it may hold secrets.
    if (existsSync(options.file)) chmodSync(options.file, 0o600);
    writeFileSync(options.file, text, { mode: 0o600 });
  } catch (e) {
    // As Pulumi's stack_export.go: `could not open file: %w` of os.Create's error, in Go's words.
    throw new UserError(`could not open file: ${goPathError(e, options.file, 'open')}`);
  }
}

/**
 * The project's stacks: those with state, and those that so far have only a `Pulumi.<stack>.yaml`
 * (`stack init` or `config set` made them), as the commands that need a stack find them
 * (requireExistingStack).
 */
function projectStacks(project: Project): ReturnType<typeof listStacks> {
  const stacks = listStacks(project.dir);
  const dir = stackConfigFolder(project);
  const ext = project.fileExt ?? '.yaml';
  const configOnly = existsSync(dir)
    ? readdirSync(dir)
        .map((f) => (f.startsWith('Pulumi.') && f.endsWith(ext) ? f.slice('Pulumi.'.length, -ext.length) : undefined))
        .filter((name): name is string => !!name && STACK_NAME.test(name) && !stacks.some((s) => s.name === name))
    : [];
  // A config-only stack is what a DIY backend's `stack init` leaves: a checkpoint without a
  // deployment, so no last update and no resource count.
  return [...stacks, ...configOnly.map((name) => ({ name }))].sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
  );
}

export function stackList(options: GlobalOptions & { project?: string; tag?: string }): void {
  const { project, stack } = commandContext(options);
  const { tag } = options;
  // stack_ls.go takes no empty filter (strPtrIfSet, `if args.tagFilter != ""`).
  const stacks = (
    options.project === undefined || options.project === project.name ? projectStacks(project) : []
  ).filter((s) => !tag || matchesTagFilter(project.dir, s.name, tag));
  if (options.json) {
    process.stdout.write(
      JSON.stringify(
        // Pulumi's fields in its order (stackSummaryJSON); a DIY backend reports no updateInProgress.
        stacks.map((s) => ({
          name: s.name,
          current: s.name === stack,
          lastUpdate: s.lastUpdate,
          resourceCount: s.resourceCount,
        })),
        null,
        2,
      ) + '\n',
    );
    return;
  }
  const rows = stacks.map((s) => [
    s.name + (s.name === stack ? '*' : ''),
    // As Pulumi's table: how long ago (go-humanize), `n/a` for what a stack without a deployment lacks.
    s.lastUpdate ? timeAgo(new Date(s.lastUpdate)) : 'n/a',
    s.resourceCount === undefined ? 'n/a' : String(s.resourceCount),
  ]);
  printTable(['NAME', 'LAST UPDATE', 'RESOURCE COUNT'], rows);
}

/** A table as Pulumi's cmdutil.PrintTable prints it: each column as wide as its widest cell, two spaces between. */
function printTable(header: string[], rows: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  for (const row of [header, ...rows])
    process.stdout.write(
      row
        .map((cell, i) => cell.padEnd(widths[i]))
        .join('  ')
        .trimEnd() + '\n',
    );
}

/**
 * `stack import [--file f] [--force]`: a deployment (what `stack export` or `pulumi stack export`
 * prints) becomes the stack's state, as `pulumi stack import` does: the repair path after a
 * hand edit. Refused unless every resource belongs to this stack and the snapshot is whole
 * (`--force` makes both warnings). Also reads a checkpoint file (`.ocikit/stacks/<stack>.json.bak`),
 * so a backup can be restored. Unlike Pulumi, the stack need not exist yet (as `up` and `config
 * set`, it creates it: this is how a state moves to a fresh checkout).
 */
export async function stackImport(options: GlobalOptions & { file?: string; force?: boolean }): Promise<void> {
  const { stack, file, state } = openStack(options, { mustExist: false });
  if (options.file === undefined && process.stdin.isTTY)
    throw new UserError('stack import reads the deployment from stdin: pipe it in, or pass --file <path>');
  let text: string;
  try {
    text = options.file !== undefined ? readFileSync(options.file, 'utf8') : await readStdin();
  } catch (error) {
    // Go's words, as Pulumi's `could not open file: %w` of os.Open's error.
    throw new UserError(`could not open file: ${goPathError(error, options.file ?? '-')}`);
  }
  const deployment = parseDeployment(text, stack);
  const problems = checkSnapshot(deployment.resources ?? [], stack);
  const errors = [...problems.otherStack, ...problems.integrity.map((p) => `state file contains errors: ${p}`)];
  if (errors.length > 0) {
    if (!options.force)
      throw new UserError(`${errors[0]}; importing this file could be dangerous, rerun with --force to proceed anyway`);
    for (const message of errors) process.stderr.write(`warning: ${message}\n`);
  }

  const from = sourceCrypter(deployment, file);
  // As Pulumi's SaveSnapshot: an imported deployment's pending operations are dropped, each with
  // a warning (a hand-edited deployment is the repair, so no run resolves them afterwards).
  for (const op of deployment.pending_operations ?? [])
    process.stderr.write(`warning: removing pending operation '${op.type}' on '${op.resource?.urn}' from snapshot\n`);
  state.lock();
  try {
    state.importDeployment(deployment, from);
  } finally {
    state.unlock();
  }
  process.stdout.write('Import complete.\n');
}

const RFC3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/;

type Deployment = ImportedDeployment & { secrets_providers?: { type?: string; state?: { salt?: unknown } } };

/** The features Pulumi reads a version 4 deployment with (supportedFeatures, pkg/resource/stack/deployment.go). */
const PULUMI_FEATURES = ['refreshBeforeUpdate', 'views', 'hooks', 'taint'];

/**
 * apitype.UntypedDeployment `{ version: 3, deployment }`, or a CheckpointV3 file `{ version: 3,
 * checkpoint: { latest } }`; a version 1 or 2 one is migrated to version 3, as Pulumi's import does,
 * and a version 4 one (with its `features`) read as version 3, as Pulumi's is.
 */
function parseDeployment(text: string, stack: string): Deployment {
  let raw: { version?: unknown; features?: unknown; deployment?: unknown; checkpoint?: { latest?: unknown } };
  try {
    raw = JSON.parse(text) as typeof raw;
  } catch (error) {
    throw new UserError(`could not read the deployment: ${(error as Error).message}`);
  }
  const deployment = raw?.deployment ?? raw?.checkpoint?.latest ?? (raw?.checkpoint ? {} : undefined);
  if (typeof raw !== 'object' || raw === null || typeof deployment !== 'object' || deployment === null)
    throw new UserError(
      'could not read the deployment: expected what `stack export` prints ({"version": 3, "deployment": …})',
    );
  // As Pulumi's UnmarshalUntypedDeployment and FormatDeploymentDeserializationError
  // (pkg/resource/stack/deployment.go): versions 1 to 4 are known, a missing version is 0.
  const version = raw.version ?? 0;
  if (typeof version !== 'number' || !Number.isInteger(version))
    throw new UserError(`could not read the deployment: its version ${JSON.stringify(version)} is not a whole number`);
  if (version > 4)
    throw new UserError(
      `the stack '${stack}' is newer than what this version of the Pulumi CLI understands. Please update your version of the Pulumi CLI`,
    );
  if (version < 1) throw new UserError(`the stack '${stack}' is too old to be used by this version of the Pulumi CLI`);
  if (version === 4) checkFeatures(raw.features, stack);
  const d = (
    version >= 3 ? deployment : upToDeploymentV3(deployment as Record<string, unknown>, version as 1 | 2)
  ) as Deployment;
  if (d.resources !== undefined && !Array.isArray(d.resources))
    throw new UserError('could not read the deployment: its resources are not a list');
  // Pulumi reads the manifest's time into a Go time.Time (RFC 3339): anything else fails its import.
  const time = (d as { manifest?: { time?: unknown } }).manifest?.time;
  if (!isGoTime(time))
    throw new UserError(
      `could not read the deployment: its manifest's time ${JSON.stringify(time)} is not an RFC 3339 time`,
    );
  for (const r of [...(d.resources ?? []), ...(d.pending_operations ?? []).map((op) => op?.resource)])
    checkResource(r as Partial<ResourceState> | undefined);
  return d;
}

/**
 * A version 4 deployment's `features`: one Pulumi does not know fails in its words (UnmarshalUntypedDeployment's
 * validateSupportedFeatures, FormatDeploymentDeserializationError); one it knows that ocikit does not
 * implement (refreshBeforeUpdate, views) is refused, as its resources could not be managed as Pulumi would.
 */
function checkFeatures(features: unknown, stack: string): void {
  if (
    features !== undefined &&
    features !== null &&
    !(Array.isArray(features) && features.every((f) => typeof f === 'string'))
  )
    throw new UserError('could not read the deployment: its features are not a list of names');
  const named = (features ?? []) as string[];
  const unknown = named.filter((f) => !PULUMI_FEATURES.includes(f));
  if (unknown.length)
    throw new UserError(
      `the stack '${stack}' uses features that are not supported by this version of the Pulumi CLI: ${unknown.join(', ')}. Please update your version of the Pulumi CLI`,
    );
  const unsupported = named.filter((f) => !OCIKIT_FEATURES.includes(f));
  if (unsupported.length)
    throw new UserError(
      `the deployment uses Pulumi's ${unsupported.join(' and ')} feature, which ocikit does not support (it reads version 4 deployments with ${OCIKIT_FEATURES.join(' and ')})`,
    );
}

/** A time Go's encoder reads into a time.Time (RFC 3339), or none: a JSON null or no field. */
function isGoTime(time: unknown): boolean {
  return (
    time === undefined ||
    time === null ||
    (typeof time === 'string' && RFC3339.test(time) && !Number.isNaN(Date.parse(time)))
  );
}

/**
 * What Pulumi's DeserializeResource refuses (pkg/resource/stack/deployment.go), in its words, as
 * `pulumi stack import` prints them (`could not deserialize deployment: …`), with no --force: a
 * resource without a urn or a type, or with an id but `custom` false; and what its JSON decoder
 * refuses, a `created` or `modified` that is not a time (ResourceV3's *time.Time).
 */
function checkResource(r: Partial<ResourceState> | undefined): void {
  const refused = (why: string) => new UserError(`could not deserialize deployment: ${why}`);
  if (typeof r?.urn !== 'string' || r.urn === '') throw refused("resource missing required 'urn' field");
  if (typeof r.type !== 'string' || r.type === '') throw refused(`resource '${r.urn}' missing required 'type' field`);
  if (!r.custom && r.id !== undefined && r.id !== '')
    throw refused(`resource '${r.urn}' has 'custom' false but non-empty ID`);
  for (const field of ['created', 'modified'] as const)
    if (!isGoTime(r[field]))
      throw new UserError(
        `could not read the deployment: resource '${r.urn}''s ${field} time ${JSON.stringify(r[field])} is not an RFC 3339 time`,
      );
}

/**
 * The crypter that reads the deployment's ciphertexts: this stack's own when it names the same
 * salt, else one made from the salt it names (same passphrase). A stack with no salt yet adopts
 * the deployment's, so the passphrase that wrote it keeps working.
 */
function sourceCrypter(deployment: Deployment, file: StackConfigFile): Crypter | undefined {
  if (!holdsCiphertext(deployment)) return undefined;
  const provider = deployment.secrets_providers;
  const salt = passphraseSalt(deployment);
  if (typeof salt !== 'string')
    throw new UserError(
      `the deployment's secrets are encrypted by ${provider?.type ? `the '${provider.type}' secrets provider` : 'an unnamed secrets provider'}, which ocikit cannot read: export them with \`pulumi stack export --show-secrets\``,
    );
  const passphrase = passphraseFromEnv();
  if (passphrase === undefined) throw new PassphraseError(MISSING_PASSPHRASE);
  let crypter: Crypter;
  try {
    crypter = crypterFromState(passphrase, salt);
  } catch (error) {
    throw new PassphraseError(`cannot read the deployment's secrets: ${(error as Error).message}`);
  }
  if (!file.encryptionSalt) {
    file.encryptionSalt = salt;
    file.save();
  }
  return crypter;
}

function holdsCiphertext(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(holdsCiphertext);
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  if (record[SECRET_SIG] !== undefined && typeof record.ciphertext === 'string') return true;
  return Object.values(record).some(holdsCiphertext);
}

/**
 * `stack rm [name] [--force] [--yes] [--preserve-config] [--remove-backups]`, as `pulumi stack rm`:
 * refused while the stack has resources (unless --force, which leaves them in the cloud), asks the
 * user to type the stack's name unless --yes, keeps the last state as the backup, and deletes
 * Pulumi.<stack>.yaml unless --preserve-config.
 */
export async function stackRemove(
  options: GlobalOptions & { force?: boolean; yes?: boolean; preserveConfig?: boolean; removeBackups?: boolean },
): Promise<void> {
  const { project, stack, file, state } = openStack(options);
  const yes = skipConfirmations(options);
  if (!yes && !canPrompt(options)) throw new UserError('non-interactive mode requires --yes flag');
  if (!yes) {
    process.stderr.write(`This will permanently remove the '${stack}' stack!\n`);
    const typed = await ask(`Please confirm that this is what you'd like to do by typing \`${stack}\`: `);
    if (typed !== stack) throw new UserError('confirmation declined');
  }
  state.lock();
  try {
    const count = state.resourceCount();
    if (count > 0 && !options.force)
      throw new UserError(
        `'${stack}' still has resources; removal rejected: run \`ocikit destroy\` to delete them first, or \`ocikit stack rm --force\` to leave them in the cloud`,
      );
    state.remove({ removeBackups: Boolean(options.removeBackups) });
  } finally {
    state.unlock();
  }
  if (!options.preserveConfig) rmSync(file.path, { force: true });
  // As Pulumi's stack_rm.go (SetCurrentStack(ws, "") whichever stack was removed): nothing is selected after.
  selectStack(project, undefined);
  process.stdout.write(`Stack '${stack}' has been removed!\n`);
}

interface StackCreateOptions extends GlobalOptions {
  secretsProvider?: string;
  copyConfigFrom?: string;
  select?: boolean;
  teams?: string[];
}

/** The stack named by the argument or by --stack (not both, as Pulumi's init and select say). */
function namedStack(options: GlobalOptions, name: string | undefined, missing: string): CommandContext {
  if (name !== undefined && options.stack !== undefined)
    throw new UserError('only one of --stack or argument stack name may be specified, not both');
  const given = name ?? options.stack;
  if (given === undefined) throw new UserError(missing);
  const project = commandProject(options);
  return { project, stack: stackName(project, given) };
}

/**
 * `stack init [name] [--copy-config-from s] [--no-select]`, as Pulumi's with a DIY backend: the
 * stack is created (here its `Pulumi.<stack>.yaml`, with the other stack's config when copied)
 * and selected. Its passphrase salt is made now when the passphrase is given (ensureSalt), else on
 * its first secret.
 */
export function stackInit(options: StackCreateOptions, name?: string): void {
  createStack(namedStack(options, name, 'missing stack name'), options);
}

function createStack(context: CommandContext, options: StackCreateOptions): void {
  const { project, stack } = context;
  if (options.secretsProvider && !['default', 'passphrase'].includes(options.secretsProvider))
    throw new UserError(
      `secrets provider '${options.secretsProvider}' is not supported by ocikit: it encrypts secrets with a passphrase only`,
    );
  if (options.teams?.length)
    throw new UserError(`stack ${stack} uses the ocikit backend: ocikit does not support --teams`);
  if (stackExists(context)) throw new UserError(`stack '${stack}' already exists`);
  const path = stackConfigPath(project, stack);
  if (options.copyConfigFrom !== undefined) {
    const from = { project, stack: stackName(project, options.copyConfigFrom) };
    if (!stackExists(from)) throw new UserError(`no stack named '${from.stack}' found`);
    // Its secrets stay readable: the copy keeps their salt (same passphrase), as Pulumi's copy
    // decrypts and encrypts them again with the same passphrase.
    if (existsSync(stackConfigPath(project, from.stack))) copyFileSync(stackConfigPath(project, from.stack), path);
  }
  // Empty but for the salt (below), as Pulumi's:
  // in a Pulumi.json project an empty object, as Pulumi's JSON marshaller writes it (an empty file is no JSON).
  if (!existsSync(path)) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, isJsonFile(path) ? '{}\n' : '');
  }
  ensureSalt(StackConfigFile.open(project, stack));
  process.stdout.write(`Created stack '${stack}'\n`);
  if (options.select !== false) selectStack(project, stack);
}

/** `stack select [name] [-c|--create]`, as Pulumi's: later commands without --stack use it. */
export function stackSelect(options: StackCreateOptions & { create?: boolean }, name?: string): void {
  const context = namedStack(options, name, 'no stack name given, use --stack to specify a stack name');
  if (!stackExists(context)) {
    // Pulumi's stack_select.go returns a plain fmt.Errorf here, not a StackNotFoundError, so
    // ExitCodeFor (exit_codes.go) maps it to 1, where a command that needs the stack exits 6.
    if (!options.create) throw new UserError(`no stack named '${context.stack}' found`);
    createStack(context, { ...options, select: true });
    return;
  }
  selectStack(context.project, context.stack);
}

/**
 * `stack tag get <name>`, as Pulumi's stack_tag.go: the tag's value, or that the stack has no such
 * tag (so too when its tags file cannot be read: stackTagsOrNone).
 */
export function stackTagGet(options: GlobalOptions, name: string): void {
  const { project, stack } = commandContext(options);
  requireExistingStack({ project, stack });
  const tags = stackTagsOrNone(project.dir, stack);
  if (!Object.hasOwn(tags, name)) throw new UserError(`stack tag '${name}' not found for stack '${stack}'`);
  process.stdout.write(`${tags[name]}\n`);
}

/**
 * `stack tag ls [-j]`, as Pulumi's printStackTags: a NAME/VALUE table sorted by name, or the map as
 * ui.PrintJSON writes it; none when the tags file cannot be read (stackTagsOrNone).
 */
export function stackTagList(options: GlobalOptions): void {
  const { project, stack } = commandContext(options);
  requireExistingStack({ project, stack });
  const tags = stackTagsOrNone(project.dir, stack);
  if (options.json) {
    process.stdout.write(goJson(tags, GO_OUTPUTS) + '\n');
    return;
  }
  printTable(
    ['NAME', 'VALUE'],
    goOrder(Object.keys(tags)).map((name) => [name, tags[name]]),
  );
}

/**
 * `stack tag set <name> <value>` and `stack tag rm <name>`, as Pulumi's: the stack's tags with
 * that one set or removed replace its tags file (diyBackend.UpdateStackTags, saveStackTags), even
 * when nothing changed. `value` undefined: remove. The tags are the stack's Tags(), none for a
 * file it cannot read, and UpdateStackTags writes without reading the file: such a file is
 * replaced by the one tag set, or deleted by an rm.
 */
export function stackTagUpdate(options: GlobalOptions, name: string, value?: string): void {
  const { project, stack } = commandContext(options);
  requireExistingStack({ project, stack });
  const tags = stackTagsOrNone(project.dir, stack);
  if (value === undefined) delete tags[name];
  else tags[name] = value;
  saveStackTags(project.dir, stack, tags);
}

/** `stack unselect`, as Pulumi's: the next commands without --stack use `dev` again. */
export function stackUnselect(options: GlobalOptions): void {
  const project = commandProject(options);
  if (selectedStack(project) === undefined) return;
  selectStack(project, undefined);
  process.stdout.write('Stack was unselected\n');
}

/**
 * `stack rename <new-name>`, as Pulumi's with a DIY backend (stack_rename.go, diy renameStack,
 * edit.RenameStack): every URN of the state takes the new stack name (the stack resource's name,
 * `<project>-<stack>`, too), the state moves to the new name (the old one kept as its backup),
 * `Pulumi.<stack>.yaml` is renamed, and the renamed stack is selected.
 */
export function stackRename(options: GlobalOptions, newName: string): void {
  const { project, stack, file, state } = openStack(options);
  const target = { project, stack: stackName(project, newName) };
  if (stackExists(target)) throw new UserError(`a stack named ${target.stack} already exists`);
  const newConfig = stackConfigPath(project, target.stack);
  state.lock();
  try {
    // The manifest stays as it is: Pulumi's DIY renameStack writes the checkpoint it read, its URNs renamed.
    const snapshot = state.exists()
      ? renameStackInState(state.load({ manifest: 'raw' }), project.name, stack, target.stack)
      : undefined;
    // The config first: the new state's secrets are written with its salt.
    if (existsSync(file.path)) renameSync(file.path, newConfig);
    if (snapshot) {
      const renamed = openStack({ ...options, stack: target.stack }, { mustExist: false }).state;
      renamed.lock();
      try {
        renamed.replace(snapshot);
      } catch (error) {
        if (existsSync(newConfig)) renameSync(newConfig, file.path);
        throw error;
      } finally {
        renamed.unlock();
      }
      // As the DIY backend's renameStack: the old state becomes its backup, its history moves,
      // its tags do not (they stay in the old name's tags file, as renameStack leaves them).
      renameHistory(project.dir, stack, target.stack);
      state.remove({ removeBackups: false, keepTags: true });
    }
  } finally {
    state.unlock();
  }
  selectStack(project, target.stack);
  process.stdout.write(`Renamed ${stack} to ${target.stack}\n`);
}

/**
 * What Pulumi's edit.RenameStack (pkg/resource/edit/operations.go) renames, and only that: the
 * URNs of this project's `from` stack (stackRenamer.renameURN; the stack resource's name becoming
 * `<project>-<to>`) in each resource's and pending operation's URN, parent, dependencies, property
 * dependencies, deletedWith, replaceWith, aliases and provider reference, and in inputs, outputs
 * and replacementTrigger a resource reference's URN and an output value's dependencies
 * (renameSerializedPropertyValue). A plain string that reads as a URN stays, and so does what a
 * secret holds: the DIY backend renames the checkpoint, whose secrets are ciphertext.
 */
function renameStackInState(snapshot: Snapshot, projectName: string, from: string, to: string): Snapshot {
  const prefix = `urn:pulumi:${from}::${projectName}::`;
  const urn = (u: string): string => {
    if (!u.startsWith(prefix)) return u;
    const [type, ...name] = u.slice(prefix.length).split('::');
    if (name.length === 0) return u;
    const newName = type === 'pulumi:pulumi:Stack' ? `${projectName}-${to}` : name.join('::');
    return `urn:pulumi:${to}::${projectName}::${type}::${newName}`;
  };
  const urns = (list: string[] | undefined) => list?.map(urn);
  const value = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(value);
    if (!isObject(v)) return v;
    const sig = v[sigKey];
    if (sig === resourceSig && typeof v.urn === 'string') return { ...v, urn: urn(v.urn) };
    if (sig === secretSig) return v;
    if (sig === outputValueSig)
      return {
        ...v,
        ...('value' in v ? { value: value(v.value) } : {}),
        ...(Array.isArray(v.dependencies)
          ? { dependencies: v.dependencies.map((d) => (typeof d === 'string' ? urn(d) : d)) }
          : {}),
      };
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, value(x)]));
  };
  // A provider reference is `<urn>::<id>` (providers.ParseReference), kept as it is when its URN is.
  const provider = (ref: string | undefined) => {
    if (!ref) return ref;
    const at = ref.lastIndexOf('::');
    return at < 0 ? ref : urn(ref.slice(0, at)) + ref.slice(at);
  };
  const resource = (r: ResourceState): ResourceState => {
    const out: ResourceState = {
      ...r,
      urn: urn(r.urn),
      inputs: value(r.inputs) as ResourceState['inputs'],
      outputs: value(r.outputs) as ResourceState['outputs'],
    };
    if (r.parent) out.parent = urn(r.parent);
    if (r.deletedWith) out.deletedWith = urn(r.deletedWith);
    if (r.provider) out.provider = provider(r.provider);
    if (r.dependencies) out.dependencies = urns(r.dependencies);
    if (r.replaceWith) out.replaceWith = urns(r.replaceWith);
    if (r.aliases) out.aliases = urns(r.aliases);
    if (r.propertyDependencies)
      out.propertyDependencies = Object.fromEntries(
        Object.entries(r.propertyDependencies).map(([k, deps]) => [k, deps?.map(urn) ?? null]),
      );
    if (r.replacementTrigger !== undefined) out.replacementTrigger = value(r.replacementTrigger);
    return out;
  };
  return {
    ...snapshot,
    resources: snapshot.resources.map(resource),
    pendingOperations: snapshot.pendingOperations.map((op) => ({ ...op, resource: resource(op.resource) })),
  };
}
