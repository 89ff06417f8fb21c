// A missing or extra positional argument, in the newest Pulumi's words: each command declares its
// arguments with constrictor.AttachArguments (pkg/cmd/pulumi/constrictor/constrictor.go), whose
// createCobraArgsPredicate checks the count. Pulumi prints the help first (cmdutil.ArgsFunc);
// ocikit keeps its one line `error: …`, exit 1, as for every mistake in the command line.
import type { Command } from 'commander';

/** constrictor.Arguments: how many arguments, how many of them required, the last repeated. */
export interface ArgumentSpec {
  count: number;
  required: number;
  variadic: boolean;
}

/**
 * createCobraArgsPredicate's error for `received` arguments, or undefined when it accepts them.
 * Its counts are the declared arguments', even in "requires at least" (as Pulumi's code has it).
 */
export function argumentCountMessage(spec: ArgumentSpec, received: number): string | undefined {
  if (spec.required === spec.count && spec.count !== received)
    return `accepts ${spec.count} arg(s), received ${received}`;
  if (received < spec.required) return `requires at least ${spec.count} arg(s), only received ${received}`;
  if (!spec.variadic && received > spec.count) return `accepts at most ${spec.count} arg(s), received ${received}`;
  return undefined;
}

/** A commander command's declared arguments as constrictor's specification. */
function specOf(cmd: Command): ArgumentSpec {
  const args = cmd.registeredArguments;
  return {
    count: args.length,
    required: args.filter((arg) => arg.required).length,
    variadic: args.length > 0 && args[args.length - 1].variadic,
  };
}

/**
 * Gives every command of the tree Pulumi's words where commander would say "missing required
 * argument 'x'" or "too many arguments"; commander still decides when the count is wrong.
 */
export function constrictorArgumentErrors(cmd: Command): void {
  const fail = (received: number, code: string): never => {
    const message = argumentCountMessage(specOf(cmd), received) ?? `accepts ${specOf(cmd).count} arg(s)`;
    cmd.error(`error: ${message}`, { code });
  };
  const patched = cmd as unknown as { missingArgument(): void; _excessArguments(args: string[]): void };
  patched.missingArgument = () => fail(cmd.args.length, 'commander.missingArgument');
  const excess = patched._excessArguments.bind(cmd);
  patched._excessArguments = (args: string[]) => {
    // An `allowExcessArguments` command keeps commander's own check (which lets them through).
    if ((cmd as unknown as { _allowExcessArguments: boolean })._allowExcessArguments) return excess(args);
    fail(args.length, 'commander.excessArguments');
  };
  for (const sub of cmd.commands) constrictorArgumentErrors(sub);
}
