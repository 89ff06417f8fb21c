import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { GlobalOptions } from './options';
import { readProject, stackConfigPath, type Project } from '../project/project';
import { StackConfigFile } from '../project/stack-config';
import { stackCrypter } from '../secrets/stack-crypter';
import { openStackState } from '../engine/state';
import { UserError } from '../errors';

export interface CommandContext {
  project: Project;
  stack: string;
}

export const STACK_NAME = /^[A-Za-z0-9_.-]+$/;

export function commandContext(options: GlobalOptions): CommandContext {
  const project = readProject(resolve(options.cwd ?? process.cwd()));
  // A fully qualified name, as Pulumi's local backend takes it: organization/<project>/<stack>.
  const qualified = /^organization\/([^/]+)\/([^/]+)$/.exec(options.stack);
  if (qualified && qualified[1] !== project.name)
    throw new UserError(
      `stack '${options.stack}' belongs to project '${qualified[1]}', not to this program's '${project.name}'`,
    );
  const stack = qualified ? qualified[2] : options.stack;
  if (!STACK_NAME.test(stack))
    throw new UserError(`invalid stack name '${options.stack}': use letters, digits, '-', '_' and '.'`);
  return { project, stack };
}

/** Stdin is a terminal and the user did not ask us never to prompt. */
export function canPrompt(options: GlobalOptions): boolean {
  return Boolean(process.stdin.isTTY) && !options.nonInteractive && !options.json;
}

/**
 * A stack exists once it has state (`.ocikit/stacks/<stack>.json`) or a `Pulumi.<stack>.yaml`
 * (ocikit has no `stack init`: `up` and `config set` create a stack). Commands that only read or
 * remove a stack refuse an unknown one as Pulumi does: `error: no stack named 'x' found`.
 */
export function requireExistingStack({ project, stack }: CommandContext): void {
  const stateFile = join(project.dir, '.ocikit', 'stacks', `${stack}.json`);
  if (!existsSync(stateFile) && !existsSync(stackConfigPath(project, stack)))
    throw new UserError(`no stack named '${stack}' found`);
}

/** A boolean environment variable as Pulumi reads one (env.BoolValue: `1` or `true`, any case). */
export function envFlag(name: string): boolean {
  return /^(1|true)$/i.test(process.env[name] ?? '');
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
