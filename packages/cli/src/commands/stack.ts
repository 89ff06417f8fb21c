import { readFileSync, rmSync } from 'node:fs';
import { reveal, SECRET_SIG } from '../display/format';
import { UserError } from '../errors';
import { checkSnapshot, listStacks, openStackState, type Crypter, type ImportedDeployment } from '../engine';
import type { GlobalOptions } from './options';
import { StackConfigFile } from '../project/stack-config';
import { crypterFromState, MISSING_PASSPHRASE, PassphraseError, passphraseFromEnv } from '../secrets/passphrase';
import { stackCrypter } from '../secrets/stack-crypter';
import { canPrompt, commandContext, requireExistingStack } from './context';
import { ask, readStdin } from './prompt';

function state(options: GlobalOptions) {
  const context = commandContext(options);
  requireExistingStack(context);
  const { project, stack } = context;
  const file = StackConfigFile.open(project, stack);
  const crypter = stackCrypter(file);
  return {
    project,
    stack,
    state: openStackState({ programDir: project.dir, stack, crypter, stackConfigFile: file.path }),
  };
}

/** `stack output [name] [--json]`: secrets print as [secret] unless --show-secrets, as in Pulumi. */
export function stackOutput(options: GlobalOptions & { showSecrets?: boolean }, name?: string): void {
  const { stack, state: stackState } = state(options);
  const outputs = stackState.outputs();
  const shown = reveal(outputs, Boolean(options.showSecrets)) as Record<string, unknown>;
  if (name !== undefined) {
    if (!(name in outputs)) throw new UserError(`current stack '${stack}' does not have output property '${name}'`);
    const value = shown[name];
    process.stdout.write((options.json ? JSON.stringify(value, null, 2) : stringifyOutput(value)) + '\n');
    return;
  }
  if (options.json) {
    process.stdout.write(JSON.stringify(shown, null, 2) + '\n');
    return;
  }
  // As `pulumi stack output` prints them: an OUTPUT/VALUE table sorted by name, strings as they
  // are, other values as one-line JSON.
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

function stringifyOutput(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? 'null');
}

/** `stack export`: the checkpoint as `pulumi stack export` prints it (4-space JSON). */
export function stackExport(options: GlobalOptions): void {
  process.stdout.write(JSON.stringify(state(options).state.exportDeployment(), null, 4) + '\n');
}

export function stackList(options: GlobalOptions): void {
  const { project } = commandContext(options);
  const stacks = listStacks(project.dir);
  if (options.json) {
    process.stdout.write(
      JSON.stringify(
        stacks.map((s) => ({ ...s, current: s.name === options.stack })),
        null,
        2,
      ) + '\n',
    );
    return;
  }
  const rows = stacks.map((s) => [
    s.name + (s.name === options.stack ? '*' : ''),
    s.lastUpdate ?? 'never',
    String(s.resourceCount),
  ]);
  const header = ['NAME', 'LAST UPDATE', 'RESOURCE COUNT'];
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
 * so a backup can be restored. Unlike Pulumi, the stack need not exist yet (ocikit has no
 * `stack init`: this is how a state moves to a fresh checkout).
 */
export async function stackImport(options: GlobalOptions & { file?: string; force?: boolean }): Promise<void> {
  const { project, stack } = commandContext(options);
  if (options.file === undefined && process.stdin.isTTY)
    throw new UserError('stack import reads the deployment from stdin: pipe it in, or pass --file <path>');
  let text: string;
  try {
    text = options.file !== undefined ? readFileSync(options.file, 'utf8') : await readStdin();
  } catch (error) {
    throw new UserError(`could not open file: ${(error as Error).message}`);
  }
  const deployment = parseDeployment(text);
  const problems = checkSnapshot(deployment.resources ?? [], stack);
  const errors = [...problems.otherStack, ...problems.integrity.map((p) => `state file contains errors: ${p}`)];
  if (errors.length > 0) {
    if (!options.force)
      throw new UserError(`${errors[0]}; importing this file could be dangerous, rerun with --force to proceed anyway`);
    for (const message of errors) process.stderr.write(`warning: ${message}\n`);
  }

  const file = StackConfigFile.open(project, stack);
  const from = sourceCrypter(deployment, file);
  const state = openStackState({
    programDir: project.dir,
    stack,
    crypter: stackCrypter(file),
    stackConfigFile: file.path,
  });
  state.lock();
  try {
    state.importDeployment(deployment, from);
  } finally {
    state.unlock();
  }
  process.stdout.write('Import complete.\n');
}

type Deployment = ImportedDeployment & { secrets_providers?: { type?: string; state?: { salt?: unknown } } };

/** apitype.UntypedDeployment `{ version: 3, deployment }`, or a CheckpointV3 file `{ version: 3, checkpoint: { latest } }`. */
function parseDeployment(text: string): Deployment {
  let raw: { version?: unknown; deployment?: unknown; checkpoint?: { latest?: unknown } };
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
  if (raw.version !== 3)
    throw new UserError(
      `the deployment is version ${String(raw.version)}; ocikit reads version 3, what Pulumi exports today`,
    );
  const d = deployment as Deployment;
  if (d.resources !== undefined && !Array.isArray(d.resources))
    throw new UserError('could not read the deployment: its resources are not a list');
  return d;
}

/**
 * The crypter that reads the deployment's ciphertexts: this stack's own when it names the same
 * salt, else one made from the salt it names (same passphrase). A stack with no salt yet adopts
 * the deployment's, so the passphrase that wrote it keeps working.
 */
function sourceCrypter(deployment: Deployment, file: StackConfigFile): Crypter | undefined {
  if (!holdsCiphertext(deployment)) return undefined;
  const provider = deployment.secrets_providers;
  const salt = provider?.type === 'passphrase' ? provider.state?.salt : undefined;
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
  const context = commandContext(options);
  requireExistingStack(context);
  const { project, stack } = context;
  const yes = options.yes || /^(1|true)$/i.test(process.env.PULUMI_SKIP_CONFIRMATIONS ?? '');
  if (!yes && !canPrompt(options)) throw new UserError('non-interactive mode requires --yes flag');
  if (!yes) {
    process.stderr.write(`This will permanently remove the '${stack}' stack!\n`);
    const typed = await ask(`Please confirm that this is what you'd like to do by typing \`${stack}\`: `);
    if (typed !== stack) throw new UserError('confirmation declined');
  }
  const file = StackConfigFile.open(project, stack);
  const state = openStackState({ programDir: project.dir, stack, stackConfigFile: file.path });
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
  process.stdout.write(`Stack '${stack}' has been removed!\n`);
}
