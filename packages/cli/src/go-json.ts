/**
 * Values as text the way Go's encoding/json writes them with SetEscapeHTML(false), the encoder
 * Pulumi's commands print with (ui.MakeJSONString for `stack output`, encoding.JSON.Marshal for the
 * checkpoint `stack export` prints, display.ShowJSONEvents for `--json`): as JSON.stringify, but
 * U+2028 and U+2029 escaped in every string (Go's appendString does so unconditionally, for JSONP),
 * so `<a&b>` stays as it is and a line separator becomes `\u2028`, and a negative zero `-0`. `sorted`: each object's keys in
 * the order Go writes a map's, by their UTF-8 bytes (a JS object would put integer-like keys first:
 * "2" before "10", where Go puts "10" first), for values Go holds as map[string]any. With
 * `indent`, as MarshalIndent writes it (`margin`: the indentation of the line the value starts on).
 * `maps`: the fields of a struct whose values Go holds as maps (APITYPE_MAPS): their keys, and
 * every key below them, sorted, where the struct's own fields keep their order. `escapeHTML`: `<`,
 * `>` and `&` as `\u003c`, `\u003e` and `\u0026`, as json.Marshal and MarshalIndent write them.
 */
export function goJson(
  value: unknown,
  options: {
    indent?: string;
    margin?: string;
    sorted?: boolean;
    maps?: ReadonlySet<string>;
    escapeHTML?: boolean;
  } = {},
): string {
  const maps = options.maps ?? NO_MAPS;
  const text = write(value, '', options.indent ?? '', options.margin ?? '', Boolean(options.sorted), maps) ?? 'null';
  // Outside strings JSON has none of these characters, so the whole text can be escaped.
  return options.escapeHTML ? text.replace(HTML, (c) => HTML_ESCAPES[c]) : text;
}

const HTML = /[<>&]/g;
const HTML_ESCAPES: Record<string, string> = { '<': '\\u003c', '>': '\\u003e', '&': '\\u0026' };

const NO_MAPS: ReadonlySet<string> = new Set();

/**
 * The fields of Pulumi's checkpoint and engine events (sdk/go/common/apitype core.go and
 * events.go) that are Go maps, which its encoder writes with sorted keys while a struct's fields
 * keep their declared order: a resource's `inputs` and `outputs` (SerializeProperties'
 * map[string]interface{}, objects nested in them too), `propertyDependencies`
 * (map[PropertyKey][]URN), `resourceHooks` (map[HookType][]string), a `replacementTrigger` object
 * (SerializePropertyValue), an event's `detailedDiff`, `resourceChanges`, `PolicyPacks` and
 * `config`. A secret inside them is apitype.SecretV1, a struct whose order (sig, ciphertext,
 * plaintext) is the sorted one.
 */
export const APITYPE_MAPS: ReadonlySet<string> = new Set([
  'inputs',
  'outputs',
  'propertyDependencies',
  'resourceHooks',
  'replacementTrigger',
  'detailedDiff',
  'resourceChanges',
  'PolicyPacks',
  'config',
]);

function write(
  v: unknown,
  key: string,
  indent: string,
  margin: string,
  sorted: boolean,
  maps: ReadonlySet<string>,
): string | undefined {
  if (typeof v === 'object' && v !== null && typeof (v as { toJSON?: unknown }).toJSON === 'function')
    v = (v as { toJSON: (key: string) => unknown }).toJSON(key);
  if (v === null) return 'null';
  switch (typeof v) {
    case 'string':
      return goString(v);
    case 'number':
      // A negative zero keeps its sign, as Go's float64 -0 does (strconv.AppendFloat writes `-0`).
      return Object.is(v, -0) ? '-0' : Number.isFinite(v) ? String(v) : 'null';
    case 'boolean':
      return String(v);
    case 'object':
      break;
    default:
      return undefined; // undefined, a function or a symbol: left out of an object, null in an array
  }
  const inner = margin + indent;
  const items = (entries: string[], open: string, close: string) =>
    entries.length === 0
      ? open + close
      : indent
        ? `${open}\n${inner}${entries.join(`,\n${inner}`)}\n${margin}${close}`
        : `${open}${entries.join(',')}${close}`;
  if (Array.isArray(v))
    return items(
      v.map((x, i) => write(x, String(i), indent, inner, sorted, maps) ?? 'null'),
      '[',
      ']',
    );
  const record = v as Record<string, unknown>;
  const keys = sorted ? goOrder(Object.keys(record)) : Object.keys(record);
  const entries: string[] = [];
  for (const k of keys) {
    const text = write(record[k], k, indent, inner, sorted || maps.has(k), maps);
    if (text !== undefined) entries.push(`${goString(k)}${indent ? ': ' : ':'}${text}`);
  }
  return items(entries, '{', '}');
}

const SEPARATORS = /[\u2028\u2029]/g;
function goString(s: string): string {
  return JSON.stringify(s).replace(SEPARATORS, (c) => (c === '\u2028' ? '\\u2028' : '\\u2029'));
}

/** Keys in the order Go's encoding/json writes a map's: by their UTF-8 bytes. */
export function goOrder(keys: string[]): string[] {
  return keys.sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
}

/**
 * A time as Go's time.Time MarshalJSON writes it (time.RFC3339Nano): the fraction of a second with
 * its trailing zeros trimmed, none when it is zero, then `Z` for a zero offset or `±hh:mm`. `utc`
 * is the zone of time.Now().UTC(), Pulumi's for a resource's `created` and `modified`
 * (pkg/resource/deploy/step.go); `local` that of time.Now(), its checkpoint manifest's `time`
 * (pkg/backend/snapshot.go). JavaScript's clock has milliseconds, so at most 3 digits follow.
 */
export function goTimeJson(t: Date = new Date(), zone: 'utc' | 'local' = 'utc'): string {
  const offset = zone === 'local' ? -t.getTimezoneOffset() : 0;
  const [clock, fraction] = new Date(t.getTime() + offset * 60_000).toISOString().slice(0, -1).split('.');
  const digits = fraction.replace(/0+$/, '');
  const abs = Math.abs(offset);
  const pad = (n: number): string => String(n).padStart(2, '0');
  const suffix = offset === 0 ? 'Z' : `${offset < 0 ? '-' : '+'}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
  return `${clock}${digits ? `.${digits}` : ''}${suffix}`;
}
