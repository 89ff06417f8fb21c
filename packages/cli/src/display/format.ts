/** Value rendering shared by the plan, the outputs and `stack output`. */
export const SECRET_SIG = '4dabf18193072939515e22adb298388d';
export const SECRET_VALUE = '1b47061264138c4ac30d75fd1eb44270';
export const UNKNOWN = '04da6b54-80e4-46f7-96ec-b56ff0331ba9';

export function isSecret(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as Record<string, unknown>)[SECRET_SIG] === SECRET_VALUE;
}

/** Replaces secrets by "[secret]" (unless shown) and unknowns by "output<string>", as Pulumi prints them. */
export function reveal(value: unknown, showSecrets = false): unknown {
  if (value === UNKNOWN) return 'output<string>';
  if (isSecret(value)) {
    const inner = value as Record<string, unknown>;
    return showSecrets && 'value' in inner ? reveal(inner.value, true) : '[secret]';
  }
  if (Array.isArray(value)) return value.map((item) => reveal(item, showSecrets));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, reveal(v, showSecrets)]));
  return value;
}

export function formatValue(value: unknown, indent = 4): string {
  const shown = reveal(value);
  if (shown === '[secret]' || shown === 'output<string>') return String(shown);
  if (typeof shown === 'object' && shown !== null)
    return JSON.stringify(shown, null, 4)
      .split('\n')
      .map((line, i) => (i === 0 ? line : ' '.repeat(indent) + line))
      .join('\n');
  return JSON.stringify(shown) ?? 'undefined';
}

/** A property path of a detailed diff (`a.b[0]`, `["x.y"]`) read from an object. */
export function readPath(root: unknown, path: string): unknown {
  const parts = path.match(/[^.[\]"]+|\[\d+\]|\["[^"]*"\]/g) ?? [];
  let node = root;
  for (const raw of parts) {
    const key = raw.startsWith('["') ? raw.slice(2, -2) : raw.startsWith('[') ? Number(raw.slice(1, -1)) : raw;
    if (isSecret(node)) return node;
    if (typeof node !== 'object' || node === null) return undefined;
    node = (node as Record<string | number, unknown>)[key];
  }
  return node;
}

export function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
}
