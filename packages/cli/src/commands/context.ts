import { resolve } from 'node:path';
import type { GlobalOptions } from '../global-options';
import { readProject, type Project } from '../project/project';
import { UserError } from '../errors';

export interface CommandContext {
  project: Project;
  stack: string;
}

const STACK_NAME = /^[A-Za-z0-9_.-]+$/;

export function commandContext(options: GlobalOptions): CommandContext {
  if (!STACK_NAME.test(options.stack))
    throw new UserError(`invalid stack name '${options.stack}': use letters, digits, '-', '_' and '.'`);
  return { project: readProject(resolve(options.cwd ?? process.cwd())), stack: options.stack };
}

/** Stdin is a terminal and the user did not ask us never to prompt. */
export function canPrompt(options: GlobalOptions): boolean {
  return Boolean(process.stdin.isTTY) && !options.nonInteractive && !options.json;
}
