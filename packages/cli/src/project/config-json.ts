/**
 * Config objects as Pulumi writes them as text: Go's map[string]object marshalled to JSON, so
 * every object's keys sorted (what `config get`, `config --json` and the program's PULUMI_CONFIG
 * carry), whatever order the YAML file holds them in.
 */
export function configJson(value: unknown): string {
  return JSON.stringify(sortedKeys(value));
}

/** A copy of the value with each object's keys in sorted order (as Go's encoding/json emits maps). */
export function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (typeof value !== 'object' || value === null) return value;
  const record = value as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(record)
      .sort()
      .map((k) => [k, sortedKeys(record[k])]),
  );
}
