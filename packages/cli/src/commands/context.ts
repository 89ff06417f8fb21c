import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { GlobalOptions } from './options';
import { readProject, stackConfigPath, type Project } from '../project/project';
import { StackConfigFile } from '../project/stack-config';
import { blindingCrypter, stackCrypter } from '../secrets/stack-crypter';
import { openStackState } from '../engine/state';
import { ExitCode, UserError } from '../errors';
import { goQuoteRune } from '../go-quote';
import { envFlag } from '../env';

export interface CommandContext {
  project: Project;
  stack: string;
}

export const STACK_NAME = /^[A-Za-z0-9_.-]+$/;

/**
 * The stack a command works on: `--stack`, else the one `stack select` (or `stack init`) chose,
 * else `dev` (where Pulumi would ask, or fail without a terminal).
 */
export function commandContext(options: GlobalOptions): CommandContext {
  const project = commandProject(options);
  return { project, stack: stackName(project, options.stack ?? selectedStack(project) ?? DEFAULT_STACK) };
}

const DEFAULT_STACK = 'dev';

/** The project of `--cwd` (or of the working folder). */
export function commandProject(options: GlobalOptions): Project {
  return readProject(resolve(options.cwd ?? process.cwd()));
}

/**
 * A stack's name as given, read as Pulumi's DIY backend reads a stack reference
 * (pkg/backend/diy/store.go projectReferenceStore.ParseReference): `<stack>`,
 * `<org>/<stack>` or `<org>/<project>/<stack>`, where the organization must be `organization`
 * and the project's name one of letters, digits, `-`, `_` and `.` (tokens.IsName, which older
 * releases also refuse to start with a digit or `-`); the name itself as tokens.ParseStackName checks it (sdk/go/common/tokens/names.go), in their words.
 */
export function stackName(project: Project, given: string): string {
  if (given === '') throw new UserError('stack name must not be empty');
  const parts = given.split('/');
  const [org, projectName, name] =
    parts.length === 1
      ? ['', '', parts[0]]
      : parts.length === 2
        ? [parts[0], '', parts[1]]
        : parts.length === 3
          ? parts
          : ['', '', ''];
  if (org !== '' && org !== 'organization') throw new UserError("organization name must be 'organization'");
  if (projectName !== '' && projectName !== project.name)
    throw new UserError(
      `stack '${given}' belongs to project '${projectName}', not to this program's '${project.name}'`,
    );
  // tokens.ValidateProjectName, of the project the reference names (here always the program's).
  if (Buffer.byteLength(project.name, 'utf8') > 100) throw new UserError('project names are limited to 100 characters');
  if (!STACK_NAME.test(project.name))
    throw new UserError('project names may only contain alphanumerics, hyphens, underscores, and periods');
  checkStackName(name);
  return name;
}

/** tokens.ParseStackName's rule: 1 to 100 bytes of letters, digits, `-`, `_` and `.`. */
function checkStackName(name: string): void {
  if (name === '') throw new UserError('a stack name may not be empty');
  const bytes = Buffer.from(name, 'utf8');
  if (bytes.length > 100) throw new UserError('a stack name cannot exceed 100 characters');
  const at = bytes.findIndex((b) => !STACK_NAME.test(String.fromCharCode(b)));
  if (at !== -1)
    throw new UserError(
      `a stack name may only contain alphanumeric, hyphens, underscores, or periods: invalid character ${goQuoteRune(String.fromCharCode(bytes[at]))} at position ${at}`,
    );
}

/**
 * `.ocikit/workspace.json`: the selected stack, where Pulumi keeps it in its workspace settings
 * (~/.pulumi/workspaces/<project>-<hash>-workspace.json, `{"stack": …}`); here beside the state.
 */
const workspaceFile = (project: Project) => join(project.dir, '.ocikit', 'workspace.json');

export function selectedStack(project: Project): string | undefined {
  try {
    const { stack } = JSON.parse(readFileSync(workspaceFile(project), 'utf8')) as { stack?: unknown };
    return typeof stack === 'string' && stack ? stack : undefined;
  } catch {
    return undefined;
  }
}

/** Selects a stack (`stack select`, `stack init`), or clears the selection (`stack unselect`, `stack rm`). */
export function selectStack(project: Project, stack: string | undefined): void {
  const file = workspaceFile(project);
  if (stack === undefined) return void rmSync(file, { force: true });
  mkdirSync(join(project.dir, '.ocikit'), { recursive: true });
  writeFileSync(file, `${JSON.stringify({ stack }, null, 4)}\n`);
}

/** Stdin is a terminal and the user did not ask us never to prompt. */
export function canPrompt(options: GlobalOptions): boolean {
  return Boolean(process.stdin.isTTY) && !options.nonInteractive && !options.json;
}

/**
 * A stack exists once it has state (`.ocikit/stacks/<stack>.json`) or a `Pulumi.<stack>.yaml`
 * (`stack init`, and also `up` and `config set`, create a stack). Commands that only read or
 * remove a stack refuse an unknown one as Pulumi does: `error: no stack named 'x' found`.
 */
export function requireExistingStack(context: CommandContext): void {
  if (!stackExists(context)) throw new UserError(`no stack named '${context.stack}' found`, ExitCode.stackNotFound);
}

export function stackExists({ project, stack }: CommandContext): boolean {
  return (
    existsSync(join(project.dir, '.ocikit', 'stacks', `${stack}.json`)) || existsSync(stackConfigPath(project, stack))
  );
}

/** `--yes`, or PULUMI_SKIP_CONFIRMATIONS=true standing for it, as in Pulumi (env.SkipConfirmations). */
export function skipConfirmations(options: { yes?: boolean }): boolean {
  return Boolean(options.yes) || envFlag('PULUMI_SKIP_CONFIRMATIONS');
}

/**
 * The stack's state file with its Pulumi.<stack>.yaml (salt and passphrase crypter), for the
 * commands that read or edit the state without running the engine. `mustExist`: refuse an
 * unknown stack, as Pulumi does.
 */
export function openStack(options: GlobalOptions, { mustExist = true } = {}) {
  const context = commandContext(options);
  if (mustExist) requireExistingStack(context);
  const { project, stack } = context;
  const file = StackConfigFile.open(project, stack);
  const state = openStackState({
    programDir: project.dir,
    stack,
    crypter: stackCrypter(file),
    stackConfigFile: file.path,
  });
  return { project, stack, file, state };
}

/**
 * The state of a stack that exists, its secrets read as `[secret]` without a passphrase
 * (blindingCrypter), for a command that shows them masked. Its Pulumi.<stack>.yaml is not read: as
 * Pulumi's `stack output` reads only the backend's checkpoint (RequireStack with LoadOnly, then
 * SnapshotStackOutputs), a stack file that does not parse does not stop it.
 */
export function openStackBlind(options: GlobalOptions) {
  const context = commandContext(options);
  requireExistingStack(context);
  const { project, stack } = context;
  return openStackState({
    programDir: project.dir,
    stack,
    crypter: blindingCrypter,
    stackConfigFile: stackConfigPath(project, stack),
  });
}
