// `config set|get|rm --path`: a key like `data.servers[0].host` names the top-level config key
// (`data`, optionally `<namespace>:data`) and a path into its object value, as Pulumi's
// `config --path` (pkg/config map.go) reads it. Values are plain JS (what the YAML holds); a secure
// value is `{ secure: <ciphertext> }` at any depth.
import { isRecord, ProjectError } from './project-error';

export type PathSegment = string | number;

/** The key's name and the path after it, refused as Pulumi's config parseKeyPath refuses them. */
export function splitConfigPath(key: string): { key: string; path: PathSegment[] } {
  const [first, ...path] = parsePropertyPath(key);
  if (first === undefined) throw new ProjectError('empty config key path');
  // Pulumi's own spelling ("segement").
  if (typeof first !== 'string') throw new ProjectError('first path segement of config key must be a string');
  if (!first) throw new ProjectError('config key is empty');
  return { key: first, path };
}

/**
 * Pulumi's resource.ParsePropertyPath (sdk/go/common/resource/properties_path.go): `name`,
 * `.name`, `[0]`, `["name"]` (`\"` inside), `[*]`; a malformed one fails in its words, after
 * config's "invalid config key path: " (map.go parseKeyPath).
 */
function parsePropertyPath(text: string): PathSegment[] {
  const fail = (reason: string): never => {
    throw new ProjectError(`invalid config key path: ${reason}`);
  };
  const out: PathSegment[] = [];
  if (text.startsWith('.')) fail('expected property path to start with a name or index');
  let rest = text;
  while (rest) {
    if (rest[0] === '.') {
      rest = rest.slice(1);
      if (!rest) fail('expected property path to end with a name or index');
    } else if (rest[0] === '[' && rest[1] === '"') {
      let name = '';
      let i = 2;
      for (;;) {
        if (i >= rest.length) fail('missing closing quote in property name');
        if (rest[i] === '"') break;
        const escaped = rest[i] === '\\' && rest[i + 1] === '"';
        name += escaped ? '"' : rest[i];
        i += escaped ? 2 : 1;
      }
      if (rest[i + 1] !== ']') fail('missing closing bracket in property access');
      out.push(name);
      rest = rest.slice(i + 2);
    } else if (rest[0] === '[') {
      const close = rest.indexOf(']');
      if (close < 0) fail('missing closing bracket in array index');
      const index = rest.slice(1, close);
      // strconv.ParseInt's error, its %q quoting as JSON's for printable text.
      if (index !== '*' && !/^[+-]?\d+$/.test(index))
        fail(`invalid array index: strconv.ParseInt: parsing ${JSON.stringify(index)}: invalid syntax`);
      // ParseInt's bitSize 0: a Go int, 64 bits.
      if (index !== '*' && BigInt.asIntN(64, BigInt(index)) !== BigInt(index))
        fail(`invalid array index: strconv.ParseInt: parsing ${JSON.stringify(index)}: value out of range`);
      out.push(index === '*' ? index : Number(index));
      rest = rest.slice(close + 1);
    } else {
      const end = rest.search(/[.[]/);
      out.push(end < 0 ? rest : rest.slice(0, end));
      rest = end < 0 ? '' : rest.slice(end);
    }
  }
  return out;
}

/** Pulumi's adjustObjectValue: with --path, "true"/"false" are booleans and integers are numbers ("0123" stays text). */
export function adjustValue(value: string): unknown {
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (value.length > 1 && value.startsWith('0')) return value;
  if (/^-?\d+$/.test(value) && Number.isSafeInteger(Number(value))) return Number(value);
  return value;
}

export function isSecure(v: unknown): v is { secure: string } {
  return isRecord(v) && Object.keys(v).length === 1 && typeof v.secure === 'string';
}

export function containsSecure(v: unknown): boolean {
  if (isSecure(v)) return true;
  if (Array.isArray(v)) return v.some(containsSecure);
  return isRecord(v) && Object.values(v).some(containsSecure);
}

/**
 * Replaces every secure value with `f(ciphertext, path)` (decrypted text, or "[secret]" for
 * display), `path` being where it is inside `v`.
 */
export function mapSecure(
  v: unknown,
  f: (ciphertext: string, path: PathSegment[]) => unknown,
  path: PathSegment[] = [],
): unknown {
  if (isSecure(v)) return f(v.secure, path);
  if (Array.isArray(v)) return v.map((x, i) => mapSecure(x, f, [...path, i]));
  if (isRecord(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, mapSecure(x, f, [...path, k])]));
  return v;
}

const show = (path: PathSegment[]) =>
  path.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');

export function getAt(root: unknown, path: PathSegment[]): { found: boolean; value?: unknown } {
  let cur = root;
  for (const seg of path) {
    if (typeof seg === 'number' ? !Array.isArray(cur) || seg < 0 || seg >= cur.length : !isRecord(cur) || isSecure(cur))
      return { found: false };
    if (typeof seg === 'string' && !(seg in (cur as Record<string, unknown>))) return { found: false };
    cur = (cur as Record<string | number, unknown>)[seg];
  }
  return { found: true, value: cur };
}

/** Sets `value` at `path` under `root`, creating objects and lists on the way; returns the new root. */
export function setAt(root: unknown, path: PathSegment[], value: unknown): unknown {
  if (path.length === 0) return value;
  const [seg, ...rest] = path;
  if (typeof seg === 'number') {
    const list = root === undefined || root === null ? [] : root;
    // In the words of config's Map.Set, getValue and setValue (map.go), which refuse i < 0 || i > len(t).
    if (!Array.isArray(list)) throw new ProjectError(`an array was expected for index ${seg}`);
    if (seg < 0 || seg > list.length) throw new ProjectError('array index out of range');
    const out = [...list];
    out[seg] = setAt(list[seg], rest, value);
    return out;
  }
  const obj = root === undefined || root === null ? {} : root;
  if (!isRecord(obj) || isSecure(obj)) throw new ProjectError(`a map was expected for key ${JSON.stringify(seg)}`);
  return { ...obj, [seg]: setAt(obj[seg], rest, value) };
}

/** Removes the value at `path`; `undefined` when nothing was there. */
export function removeAt(root: unknown, path: PathSegment[]): { root: unknown } | undefined {
  if (!getAt(root, path).found || path.length === 0) return undefined;
  const parentPath = path.slice(0, -1);
  const last = path[path.length - 1];
  const parent = getAt(root, parentPath).value;
  const next = Array.isArray(parent)
    ? parent.filter((_, i) => i !== last)
    : Object.fromEntries(Object.entries(parent as Record<string, unknown>).filter(([k]) => k !== last));
  return { root: setAt(root, parentPath, next) };
}

export { show as showConfigPath };
