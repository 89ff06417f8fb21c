import { reveal } from '../display/format';
import { UserError } from '../errors';
import { listStacks, openStackState } from '../engine';
import type { GlobalOptions } from './options';
import { StackConfigFile } from '../project/stack-config';
import { stackCrypter } from '../secrets/stack-crypter';
import { commandContext, requireExistingStack } from './context';

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
