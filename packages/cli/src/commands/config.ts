import { UserError } from '../errors';
import type { GlobalOptions } from '../global-options';
import { StackConfigFile } from '../project/stack-config';
import { stackCrypter } from '../secrets/stack-crypter';
import { canPrompt, commandContext } from './context';
import { ask, readStdin } from './prompt';

function open(options: GlobalOptions) {
  const { project, stack } = commandContext(options);
  return { stack, file: StackConfigFile.open(project, stack) };
}

/** `config`: every key, secrets as [secret], as `pulumi config` lists them. */
export function configList(options: GlobalOptions): void {
  const { file } = open(options);
  const entries = [...file.entries()].sort(([a], [b]) => a.localeCompare(b));
  if (options.json) {
    const json = Object.fromEntries(
      entries.map(([k, e]) => [k, { value: e.secure ? '[secret]' : e.value, secret: e.secure }]),
    );
    process.stdout.write(JSON.stringify(json, null, 2) + '\n');
    return;
  }
  const rows = entries.map(([k, e]) => [k, e.secure ? '[secret]' : e.value]);
  const width = Math.max(3, ...rows.map(([k]) => k.length));
  process.stdout.write(`${'KEY'.padEnd(width)}  VALUE\n`);
  for (const [k, v] of rows) process.stdout.write(`${k.padEnd(width)}  ${v}\n`);
}

export async function configSet(
  options: GlobalOptions & { secret?: boolean },
  key: string,
  value: string | undefined,
): Promise<void> {
  const { file } = open(options);
  if (value === undefined) value = canPrompt(options) ? await ask(`${key}: `) : await readStdin();
  const stored = options.secret ? stackCrypter(file).encrypt(value) : value;
  file.set(key, stored, Boolean(options.secret));
  file.save();
}

export function configGet(options: GlobalOptions, key: string): void {
  const { stack, file } = open(options);
  const entry = file.get(key);
  if (!entry) throw new UserError(`configuration key '${file.qualify(key)}' not found for stack '${stack}'`);
  const value = entry.secure ? stackCrypter(file).decrypt(entry.value) : entry.value;
  process.stdout.write(options.json ? JSON.stringify({ value, secret: entry.secure }) + '\n' : value + '\n');
}

export function configRm(options: GlobalOptions, key: string): void {
  const { stack, file } = open(options);
  if (!file.remove(key)) throw new UserError(`configuration key '${file.qualify(key)}' not found for stack '${stack}'`);
  file.save();
}
