// Property values as they travel on the wire (google.protobuf.Struct with Pulumi's special objects),
// and the few operations the engine needs on them. Values are kept in wire form everywhere in the
// engine (secrets as sig objects, unknowns as sentinel strings) so nothing is lost between the
// program, the provider and the state.

import { createHmac, randomBytes } from 'node:crypto';

export type Props = Record<string, unknown>;

export const sigKey = '4dabf18193072939515e22adb298388d';
export const secretSig = '1b47061264138c4ac30d75fd1eb44270';
export const resourceSig = '5cf8f73096256a8f31e491e813e4eb8e';
export const outputValueSig = 'd0e6a833031e9bbcd3f4e8bde6ca49a4';
export const unknownValue = '04da6b54-80e4-46f7-96ec-b56ff0331ba9';

/** Every unknown sentinel the Go engine and the SDKs use (rpc.go); all mean "unknown". */
const unknownSentinels = new Set([
  unknownValue,
  '1c4a061d-8072-4f0a-a4cb-0ff528b18fe7',
  '3eeb2bf0-c639-47a8-9e75-3b44932eb421',
  '6a19a0b0-7e62-4c92-b797-7f8e31da9cc2',
  'dd056dcd-154b-4c76-9bd3-c8f88648b5ff',
  '030794c1-ac77-496b-92df-f27374a8bd58',
  'e48ece36-62e2-4504-bad9-02848725956a',
]);

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function isUnknown(v: unknown): boolean {
  return typeof v === 'string' && unknownSentinels.has(v);
}

export function isSecret(v: unknown): v is { value: unknown } {
  return isObject(v) && v[sigKey] === secretSig;
}

export function makeSecret(value: unknown): Record<string, unknown> {
  return isSecret(value) ? value : { [sigKey]: secretSig, value };
}

export function unwrapSecret(v: unknown): unknown {
  return isSecret(v) ? v.value : v;
}

/** True when the value holds an unknown anywhere. */
export function containsUnknowns(v: unknown): boolean {
  if (isUnknown(v)) return true;
  if (Array.isArray(v)) return v.some(containsUnknowns);
  if (isObject(v)) return Object.values(v).some(containsUnknowns);
  return false;
}

export function containsSecrets(v: unknown): boolean {
  if (isSecret(v)) return true;
  if (Array.isArray(v)) return v.some(containsSecrets);
  if (isObject(v)) return Object.values(v).some(containsSecrets);
  return false;
}

/** Removes every secret wrapper (for a provider that does not accept secrets). */
export function stripSecrets(v: unknown): unknown {
  if (isSecret(v)) return stripSecrets(v.value);
  if (Array.isArray(v)) return v.map(stripSecrets);
  if (isObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, stripSecrets(x)]));
  return v;
}

/**
 * Replaces each secret by `[secret]` (what events and the display may show). An object or array
 * that held secrets also carries, under `secretTokens` (a symbol, out of its JSON and of copies),
 * a token for each: equal for equal secrets in this process, telling nothing of their values (an
 * HMAC under a random key). The display compares secrets by it, as Pulumi's diff compares their
 * values (PropertyValue.DeepEquals), so a secret that changed inside a map is an update there.
 */
export function maskSecrets(v: unknown): unknown {
  if (isSecret(v)) return '[secret]';
  if (!Array.isArray(v) && !isObject(v)) return v;
  const entries: Array<[string | number, unknown]> = Array.isArray(v) ? v.map((x, i) => [i, x]) : Object.entries(v);
  const tokens: Record<string | number, string> = {};
  for (const [k, x] of entries) if (isSecret(x)) tokens[k] = secretToken(x.value);
  const out = Array.isArray(v) ? v.map(maskSecrets) : Object.fromEntries(entries.map(([k, x]) => [k, maskSecrets(x)]));
  if (Object.keys(tokens).length) Object.defineProperty(out, secretTokens, { value: tokens });
  return out;
}

export const secretTokens = Symbol('secretTokens');
const tokenKey = randomBytes(32);
/** The same text for deeply equal values: keys sorted at every depth, secrets inside unwrapped. */
const canonical = (v: unknown): string =>
  JSON.stringify(stripSecrets(v), (_, x: unknown) =>
    isObject(x)
      ? Object.fromEntries(
          Object.keys(x)
            .sort()
            .map((k) => [k, x[k]]),
        )
      : x,
  ) ?? '';
const secretToken = (value: unknown) => createHmac('sha256', tokenKey).update(canonical(value)).digest('hex');

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => deepEqual(x, b[i]));
  if (isObject(a) && isObject(b)) {
    const ka = Object.keys(a).filter((k) => a[k] !== undefined);
    const kb = Object.keys(b).filter((k) => b[k] !== undefined);
    return ka.length === kb.length && ka.every((k) => deepEqual(a[k], b[k]));
  }
  return false;
}

/**
 * Top-level keys whose values differ (the engine's own diff when a provider answers DIFF_UNKNOWN),
 * a null as good as absent, as Pulumi's PropertyMap.Diff counts only values (HasValue).
 */
export function changedKeys(olds: Props, news: Props): string[] {
  const keys = new Set([...Object.keys(olds), ...Object.keys(news)]);
  return [...keys]
    .filter((k) => (olds[k] ?? null) !== null || (news[k] ?? null) !== null)
    .filter((k) => !deepEqual(stripSecrets(olds[k]), stripSecrets(news[k])))
    .sort();
}

export { applyIgnoreChanges, parsePath, resetPaths } from '@ocikit/pulumi-resource-oci';

/**
 * Pulumi's PropertyPath.Contains: `pattern` is a prefix of `path`, segment by segment, `*` matching
 * any one segment (so `tags.env` and `tags["env"]` contain `tags.env`, not `tags` nor `tags.team`).
 */
export function pathContains(pattern: Array<string | number>, path: Array<string | number>): boolean {
  return path.length >= pattern.length && pattern.every((segment, i) => segment === '*' || segment === path[i]);
}

/** Go duration strings as customTimeouts carry them ("5m", "1h30m", "90s") → seconds. */
export function parseDuration(s: string | undefined): number | undefined {
  if (!s) return undefined;
  const re = /(\d+(?:\.\d+)?)(h|ms|m|s)/g;
  let total = 0;
  let m: RegExpExecArray | null;
  let matched = false;
  while ((m = re.exec(s))) {
    matched = true;
    const n = Number(m[1]);
    total += m[2] === 'h' ? n * 3600 : m[2] === 'm' ? n * 60 : m[2] === 's' ? n : n / 1000;
  }
  return matched ? total : undefined;
}

/**
 * A property value as Pulumi's messages print one (`%v` of a resource.PropertyValue, whose
 * String() is `{<value>}`): `{BOGUS}`, `{<nil>}` for a missing one, `{[{a} {b}]}` for a list,
 * `{map[k:{v}]}` for an object (keys sorted, as Go prints maps), `output<string>{}` for an unknown.
 * A secret prints as `{[secret]}`: Pulumi would print the plaintext into the diagnostic.
 */
export function goPropertyValue(v: unknown): string {
  if (isUnknown(v)) return 'output<string>{}';
  return `{${goValue(v)}}`;
}

function goValue(v: unknown): string {
  if (v === undefined || v === null) return '<nil>';
  if (isSecret(v)) return '[secret]';
  if (typeof v === 'number') return goFloat(v);
  if (Array.isArray(v)) return `[${v.map(goPropertyValue).join(' ')}]`;
  if (isObject(v))
    return `map[${Object.keys(v)
      .sort()
      .map((k) => `${k}:${goPropertyValue(v[k])}`)
      .join(' ')}]`;
  return String(v);
}

/** `%v` of a float64: the shortest digits, in exponent form below 1e-4 or from 1e6 on (strconv's 'g'). */
function goFloat(n: number): string {
  if (!Number.isFinite(n)) return Number.isNaN(n) ? 'NaN' : n > 0 ? '+Inf' : '-Inf';
  if (n === 0) return Object.is(n, -0) ? '-0' : '0';
  const [mantissa, e] = n.toExponential().split('e');
  const exp = Number(e);
  if (exp >= -4 && exp < 6) return String(n);
  return `${mantissa}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
}
