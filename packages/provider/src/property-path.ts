// Pulumi's property paths (`a.b[0]["c.d"]`) over values of the wire (secrets wrapped): read, and
// ignoreChanges applied with them, shared by the plugin's Diff and the ocikit engine.
import { isSecret, type Props } from './wire';

/** Reads a property path like `a.b[0].c` or `["a.b"]` (a JSON string, escapes and all) into segments. */
export function parsePath(path: string): Array<string | number> {
  const out: Array<string | number> = [];
  const re = /([^.[\]"]+)|\[(\d+)\]|\[("(?:[^"\\]|\\.)*")\]/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(path))) out.push(m[1] ?? (m[2] !== undefined ? Number(m[2]) : (JSON.parse(m[3]) as string)));
  return out;
}

const unwrap = (v: unknown): unknown => (isSecret(v) ? v.value : v);
const isObject = (v: unknown): v is Props => typeof v === 'object' && v !== null && !Array.isArray(v);

function getPath(v: unknown, path: Array<string | number>): { found: boolean; value?: unknown } {
  let cur: unknown = v;
  for (const seg of path) {
    cur = unwrap(cur);
    if (typeof seg === 'number' ? !Array.isArray(cur) || seg >= cur.length : !isObject(cur) || !(seg in cur))
      return { found: false };
    cur = (cur as Record<string | number, unknown>)[seg];
  }
  return { found: true, value: cur };
}

function setPath(v: Props, path: Array<string | number>, value: unknown, remove: boolean): void {
  let cur: unknown = v;
  for (let i = 0; i < path.length - 1; i++) {
    cur = unwrap(cur);
    const seg = path[i];
    const container = cur as Record<string | number, unknown>;
    if (!isObject(container[seg]) && !Array.isArray(container[seg]) && !isSecret(container[seg])) {
      if (remove) return;
      container[seg] = typeof path[i + 1] === 'number' ? [] : {};
    }
    cur = container[seg];
  }
  const last = path[path.length - 1];
  const container = unwrap(cur) as Record<string | number, unknown>;
  if (remove) delete container[last];
  else container[last] = value;
}

/** Pulumi's ignoreChanges: for each path, the new input takes the old input's value (or is removed). */
export function applyIgnoreChanges(olds: Props, news: Props, paths: string[]): Props {
  if (paths.length === 0) return news;
  const out = structuredClone(news);
  for (const p of paths) {
    const path = parsePath(p);
    if (path.length === 0) continue;
    const old = getPath(olds, path);
    setPath(out, path, structuredClone(old.value), !old.found);
  }
  return out;
}
