/**
 * Config objects as Pulumi writes them as text: Go's map[string]object marshalled to JSON, so
 * every object's keys sorted by their UTF-8 bytes (what `config get`, `config` and the program's
 * PULUMI_CONFIG carry), whatever order the YAML file holds them in. Written by hand: a JS object
 * would put integer-like keys first ("2" before "10"), where Go puts "10" first. With `indent`,
 * as Go's MarshalIndent writes it (`margin`: the indentation of the line the value starts on).
 */
export function configJson(value: unknown, indent = '', margin = ''): string {
  const items = (entries: string[], open: string, close: string) =>
    entries.length === 0
      ? open + close
      : indent
        ? `${open}\n${margin}${indent}${entries.join(`,\n${margin}${indent}`)}\n${margin}${close}`
        : `${open}${entries.join(',')}${close}`;
  const inner = (v: unknown) => configJson(v, indent, margin + indent);
  if (Array.isArray(value)) return items(value.map(inner), '[', ']');
  if (typeof value !== 'object' || value === null) return JSON.stringify(value) ?? 'null';
  const record = value as Record<string, unknown>;
  const colon = indent ? ': ' : ':';
  return items(
    goOrder(Object.keys(record)).map((k) => `${JSON.stringify(k)}${colon}${inner(record[k])}`),
    '{',
    '}',
  );
}

/**
 * A copy of the value with each object's keys in Go's order, for `config --json`'s
 * `objectValue` (as far as a JS object can hold that order: integer-like keys still come first).
 */
export function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (typeof value !== 'object' || value === null) return value;
  const record = value as Record<string, unknown>;
  return Object.fromEntries(goOrder(Object.keys(record)).map((k) => [k, sortedKeys(record[k])]));
}

/** Keys in the order Go's encoding/json writes a map's: by their UTF-8 bytes. */
function goOrder(keys: string[]): string[] {
  return keys.sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
}
