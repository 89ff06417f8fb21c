// JS values of the Pulumi wire (./proto encodes them as Structs): secrets stay wrapped, unknowns
// are recognised in every typed form, and nothing undefined or JS-only ever reaches an output.

export const SECRET_SIG = '4dabf18193072939515e22adb298388d';
export const SECRET_MARK = '1b47061264138c4ac30d75fd1eb44270';
const SIG_KEY = '4dabf18193072939515e22adb298388d';

/** The engine's unknown sentinels (string, bool, number, array, object, asset, archive). */
export const UNKNOWN = '04da6b54-80e4-46f7-96ec-b56ff0331ba9';
const UNKNOWNS = new Set([
  UNKNOWN,
  '1c4a061d-8072-4f0a-a4cb-0ff528b18fe7',
  '3eeb2bf0-c639-47a8-9e75-3b44932eb421',
  '6a19a0b0-7e62-4c92-b797-7f8e31da9cc2',
  'dd056dcd-154b-4c76-9bd3-c8f88648b5ff',
  '030794c1-ac77-496b-92df-f27374a8bd58',
  'e48ece36-62e2-4504-bad9-02848725956a',
]);

export type Props = Record<string, unknown>;

/** The signature value of an output value (`{sig, value?, secret?, dependencies?}`). */
export const OUTPUT_MARK = 'd0e6a833031e9bbcd3f4e8bde6ca49a4';

/**
 * An output value as this provider's other code expects it: without `value` it is unknown (the
 * string sentinel), with `secret: true` a secret wrapper, else its plain value. The engine sends
 * output values only to providers that accept them, but a caller may send them anyway; read as
 * objects they would fail Check ("must be a string") or reach OCI as `{4dabf…: d0e6…}`.
 */
export function fromOutputValue(o: Props): unknown {
  const value = 'value' in o ? o.value : UNKNOWN;
  return o.secret === true ? secret(value) : value;
}

export function isUnknown(v: unknown): boolean {
  return typeof v === 'string' && UNKNOWNS.has(v);
}

export function isSecret(v: unknown): v is { value?: unknown } {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && (v as Props)[SIG_KEY] === SECRET_MARK;
}

export function secret(value: unknown): Props {
  return { [SIG_KEY]: SECRET_MARK, value };
}

/** True when the value or anything inside it is unknown (preview). */
export function containsUnknown(v: unknown): boolean {
  if (isUnknown(v)) return true;
  if (Array.isArray(v)) return v.some(containsUnknown);
  if (v && typeof v === 'object') return Object.values(v).some(containsUnknown);
  return false;
}

/** Top-level keys whose value is, or holds, an unknown. */
export function unknownKeys(p: Props): string[] {
  return Object.keys(p).filter((k) => containsUnknown(p[k]));
}

export function containsSecret(v: unknown): boolean {
  if (isSecret(v)) return true;
  if (Array.isArray(v)) return v.some(containsSecret);
  if (v && typeof v === 'object') return Object.values(v).some(containsSecret);
  return false;
}

/** The plain value: secret wrappers removed at every depth (what is sent to OCI). */
export function reveal(v: unknown): unknown {
  if (isSecret(v)) return reveal(v.value);
  if (Array.isArray(v)) return v.map(reveal);
  if (v && typeof v === 'object') {
    const out: Props = {};
    for (const [k, x] of Object.entries(v)) out[k] = reveal(x);
    return out;
  }
  return v;
}

export function revealProps(p: Props): Props {
  return reveal(p) as Props;
}

/**
 * Outputs with every key in `keys` wrapped secret (once), and undefined/JS-only values dropped at
 * the top level; inside objects and lists the wire encoder (./proto) drops them as it writes, so a
 * 17 KB plan is not copied once more here.
 */
export function protect(outputs: Props, keys: Set<string>): Props {
  const out: Props = {};
  for (const [k, v] of Object.entries(outputs)) {
    const c = typeof v === 'object' && v !== null && !(v instanceof Date) ? v : clean(v);
    if (c === undefined) continue;
    out[k] = keys.has(k) && !isSecret(c) ? secret(reveal(c)) : c;
  }
  return out;
}

/**
 * Values a provider returns, secret where what the engine sent was, as Pulumi's
 * engine keeps them for a provider that does not take secrets (annotateSecrets, sdk/go/common/
 * resource/plugin/provider_plugin.go): a key present in both is recursed into when both values are
 * objects, else made secret whole when the sent value holds a secret. So a map whose one value was
 * secret (`{ team: secret('a') }`) reads back as `{ team: secret('b') }`, not as a secret map.
 */
export function annotateSecrets(outs: Props, ins: Props): Props {
  const out: Props = { ...outs };
  for (const [k, inValue] of Object.entries(ins)) {
    if (!(k in out)) continue;
    const o = out[k];
    if (isPlainObject(o) && isPlainObject(inValue)) out[k] = annotateSecrets(o, inValue);
    else if (!isSecret(o) && containsSecret(inValue)) out[k] = secret(reveal(o));
  }
  return out;
}

/** Outputs cleaned as protect cleans them, secret where `sent` (what the engine sent) was (annotateSecrets). */
export function keepSecrets(outputs: Props, sent: Props): Props {
  return annotateSecrets(protect(outputs, new Set()), sent);
}

const isPlainObject = (v: unknown): v is Props =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !isSecret(v);

/** Drops undefined, functions, symbols; Dates become RFC 3339 strings; bigint becomes a number. */
export function clean(v: unknown): unknown {
  if (v === undefined || typeof v === 'function' || typeof v === 'symbol') return undefined;
  if (typeof v === 'bigint') return Number(v);
  if (typeof v === 'number' && !Number.isFinite(v)) return undefined;
  if (v instanceof Date) return v.toISOString();
  if (Array.isArray(v)) return v.map(clean).filter((x) => x !== undefined);
  if (v && typeof v === 'object') {
    const out: Props = {};
    for (const [k, x] of Object.entries(v)) {
      const c = clean(x);
      if (c !== undefined) out[k] = c;
    }
    return out;
  }
  return v;
}
