import { goJson, goOrder } from '../go-json';

/**
 * Config objects as Pulumi writes them as text: Go's map[string]object marshalled to JSON, so
 * every object's keys sorted by their UTF-8 bytes (what `config get`, `config` and the program's
 * PULUMI_CONFIG carry), whatever order the YAML file holds them in (see goJson). With `indent`, as
 * Go's MarshalIndent writes it (`margin`: the indentation of the line the value starts on).
 */
export function configJson(value: unknown, indent = '', margin = ''): string {
  return goJson(value, { indent, margin, sorted: true });
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
