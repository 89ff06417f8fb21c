// Pulumi's property paths (`a.b[0]["c.d"]`) over values of the wire (secrets wrapped): read, and
// ignoreChanges applied with them, shared by the plugin's Diff and the ocikit engine.
import { isSecret, secret, type Props } from './wire';

/** Reads a property path like `a.b[0].c` or `["a.b"]` (a JSON string, escapes and all) into segments. */
export function parsePath(path: string): Array<string | number> {
  const out: Array<string | number> = [];
  const re = /([^.[\]"]+)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(path))) out.push(m[1] ?? (m[2] !== undefined ? Number(m[2]) : (JSON.parse(m[3]) as string)));
  return out;
}

const isObject = (v: unknown): v is Props => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Pulumi's ignoreChanges (step_generator.go processIgnoreChanges, which calls PropertyPath.Reset
 * for each path, sdk/go/common/resource/properties_path.go): at each path the new inputs take the
 * old inputs' value, or lose the key when the old ones lack it; `*` stands for every key or
 * element at its level; a value reset from inside an old secret stays secret. `invalid` lists the
 * paths Reset refuses, those it cannot follow through both values (an object the old inputs have
 * on the path and the new ones lack, an array index only one side has, arrays of different
 * lengths under `*`).
 */
export function resetPaths(olds: Props, news: Props, paths: string[]): { inputs: Props; invalid: string[] } {
  if (paths.length === 0) return { inputs: news, invalid: [] };
  const inputs = structuredClone(news);
  const invalid: string[] = [];
  for (const p of paths) {
    const path = parsePath(p);
    if (path.length > 0 && !reset(path, olds, inputs, false, false)) invalid.push(p);
  }
  return { inputs, invalid };
}

/** resetPaths' inputs, for a caller that goes on whatever the paths (the plugin's Diff). */
export function applyIgnoreChanges(olds: Props, news: Props, paths: string[]): Props {
  return resetPaths(olds, news, paths).inputs;
}

/** PropertyPath.reset, over values of the wire: `neu` is changed in place. */
function reset(
  path: Array<string | number>,
  old: unknown,
  neu: unknown,
  oldSecret: boolean,
  newSecret: boolean,
): boolean {
  if (path.length === 0) return false;
  for (; isSecret(old); old = old.value) oldSecret = true;
  for (; isSecret(neu); neu = neu.value) newSecret = true;
  const kept = (v: unknown) => (oldSecret && !newSecret ? secret(v) : v);
  const [key, ...rest] = path;
  if (typeof key === 'number') {
    const [o, n] = [Array.isArray(old) ? old : undefined, Array.isArray(neu) ? neu : undefined];
    if (key < 0) return false;
    if (!o || !n) return !o && !n;
    if (rest.length === 0) {
      if (key >= o.length && key >= n.length) return true;
      if (key >= o.length || key >= n.length) return false;
      n[key] = kept(o[key]);
      return true;
    }
    if (key >= o.length || key >= n.length) return false;
    return reset(rest, o[key], n[key], oldSecret, newSecret);
  }
  if (key === '*') {
    if (rest.length === 0) {
      if (isObject(neu)) {
        if (isObject(old)) {
          for (const k of Object.keys(old)) neu[k] = kept(old[k]);
          for (const k of Object.keys(neu)) if (!(k in old)) delete neu[k];
        }
        return true;
      }
      if (Array.isArray(neu)) {
        if (!Array.isArray(old)) return true;
        if (old.length !== neu.length) return false;
        old.forEach((v, i) => (neu[i] = kept(v)));
        return true;
      }
      return false;
    }
    if (isObject(old) && isObject(neu))
      return Object.keys(old).every((k) => k in neu && reset(rest, old[k], neu[k], oldSecret, newSecret));
    if (Array.isArray(old) && Array.isArray(neu))
      return old.length === neu.length && old.every((v, i) => reset(rest, v, neu[i], oldSecret, newSecret));
    return false;
  }
  if (rest.length === 0) {
    if (isObject(old) && key in old) {
      if (!isObject(neu)) return false;
      neu[key] = kept(old[key]);
    } else if (isObject(neu)) delete neu[key];
    return true;
  }
  if (!isObject(old) || !isObject(neu)) return !isObject(old) && !isObject(neu);
  if (!(key in neu)) return !(key in old);
  return reset(rest, old[key], neu[key], oldSecret, newSecret);
}
