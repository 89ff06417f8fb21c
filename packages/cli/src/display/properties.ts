/**
 * The stack's outputs in Pulumi's property notation, as its progress display prints them
 * (getResourceOutputsPropertiesString and propertyPrinter, pkg/backend/display/object_diff.go):
 * `key: value` lines, objects as `{` … `}`, arrays as `[` `[0]: …` `]`, strings quoted (`%q`), a
 * JSON or YAML string as its structure (`(json) {…}`), secrets `[secret]`, unknowns `[unknown]`;
 * after a previous state, what changed marked `+`, `-` and `~` (sdk resource.PropertyMap.Diff).
 */
import { isScalar, parseDocument, visit } from 'yaml';
import { deepEqual, isObject, isSecret, isUnknown } from '../engine/values';
import { goQuote } from '../go-quote';

/** The ops whose colour and prefix a property line takes (deploy.Color, deploy.RawPrefix). */
export type PropertyOp = 'same' | 'create' | 'delete' | 'update';
const PREFIX: Record<PropertyOp, string> = { same: '  ', create: '+ ', delete: '- ', update: '~ ' };

interface ValueDiff {
  old: unknown;
  new: unknown;
  array?: ArrayDiff;
  object?: ObjectDiff;
}
interface ObjectDiff {
  adds: Map<string, unknown>;
  deletes: Map<string, unknown>;
  sames: Map<string, unknown>;
  updates: Map<string, ValueDiff>;
}
interface ArrayDiff {
  adds: Map<number, unknown>;
  deletes: Map<number, unknown>;
  sames: Map<number, unknown>;
  updates: Map<number, ValueDiff>;
}

const hasValue = (v: unknown) => v !== null && v !== undefined;
/** resource.IsInternalPropertyKey: keys starting `__`. */
const isInternal = (k: string) => k.startsWith('__');
const isPlainObject = (v: unknown): v is Record<string, unknown> => isObject(v) && !isSecret(v);

/** PropertyMap.Diff: undefined when nothing was added, deleted or updated. */
function diffObjects(olds: Record<string, unknown>, news: Record<string, unknown>): ObjectDiff | undefined {
  const d: ObjectDiff = { adds: new Map(), deletes: new Map(), sames: new Map(), updates: new Map() };
  for (const [k, old] of Object.entries(olds)) {
    if (isInternal(k)) continue;
    if (k in news) {
      const next = news[k];
      const diff = diffValues(old, next);
      if (!diff) d.sames.set(k, old);
      else if (!hasValue(old)) d.adds.set(k, next);
      else if (!hasValue(next)) d.deletes.set(k, old);
      else d.updates.set(k, diff);
    } else if (hasValue(old)) d.deletes.set(k, old);
  }
  for (const [k, next] of Object.entries(news))
    if (!isInternal(k) && !(k in olds) && hasValue(next)) d.adds.set(k, next);
  return d.adds.size || d.deletes.size || d.updates.size ? d : undefined;
}

/** PropertyValue.Diff: arrays element by element, objects key by key, anything else by deep equality. */
function diffValues(old: unknown, next: unknown): ValueDiff | undefined {
  if (Array.isArray(old) && Array.isArray(next)) {
    const a: ArrayDiff = { adds: new Map(), deletes: new Map(), sames: new Map(), updates: new Map() };
    for (let i = old.length; i < next.length; i++) a.adds.set(i, next[i]);
    for (let i = next.length; i < old.length; i++) a.deletes.set(i, old[i]);
    for (let i = 0; i < old.length && i < next.length; i++) {
      const diff = diffValues(old[i], next[i]);
      if (diff) a.updates.set(i, diff);
      else a.sames.set(i, old[i]);
    }
    return a.adds.size || a.deletes.size || a.updates.size ? { old, new: next, array: a } : undefined;
  }
  if (isPlainObject(old) && isPlainObject(next)) {
    const object = diffObjects(old, next);
    return object ? { old, new: next, object } : undefined;
  }
  return deepEqual(old, next) ? undefined : { old, new: next };
}

const anyChanges = (d?: ObjectDiff) => Boolean(d && (d.adds.size || d.deletes.size || d.updates.size));

/** A value of an add without `@isPulumiResource` keys (massageStackPreviewAdd). */
function massageAdd(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(massageAdd);
  if (isPlainObject(v))
    return Object.fromEntries(
      Object.entries(v)
        .filter(([k]) => k !== '@isPulumiResource')
        .map(([k, x]) => [k, massageAdd(x)]),
    );
  return v;
}

function massageValueDiff(d: ValueDiff): void {
  if (d.array) {
    for (const [i, v] of d.array.adds) d.array.adds.set(i, massageAdd(v));
    for (const u of d.array.updates.values()) massageValueDiff(u);
  } else if (d.object) massageOutputDiff(d.object);
}

/**
 * massageStackPreviewOutputDiff: in a preview, an output that becomes unknown is not shown as a
 * change (its value is not known yet), nor are a resource's unknown outputs.
 */
function massageOutputDiff(d: ObjectDiff): void {
  const isResource = d.adds.has('@isPulumiResource');
  if (isResource) {
    d.adds.delete('@isPulumiResource');
    for (const [k, v] of d.adds) if (isUnknown(v)) d.adds.delete(k);
  }
  for (const [k, v] of d.adds) d.adds.set(k, massageAdd(v));
  for (const [k, u] of d.updates) {
    if (isResource && isUnknown(u.new) && !shouldPrint(u.old)) d.updates.delete(k);
    else {
      massageValueDiff(u);
      if ((!anyChanges(u.object) && deepEqual(u.old, u.new)) || isUnknown(u.new)) d.updates.delete(k);
    }
  }
}

/** shouldPrintPropertyValue: null, "", [] and {} are left out. */
function shouldPrint(v: unknown): boolean {
  if (!hasValue(v) || v === '') return false;
  if (Array.isArray(v)) return v.length > 0;
  return !isPlainObject(v) || Object.keys(v).length > 0;
}

const isPrimitive = (v: unknown) => !Array.isArray(v) && !isPlainObject(v);

/** A number as printPrimitivePropertyValue writes it: an integer with `%.f`, a fraction with `%g`. */
function goNumber(n: number): string {
  // %.f keeps a negative zero's sign (BigInt does not).
  if (Object.is(n, -0)) return '-0';
  if (Number.isInteger(n)) return BigInt(n).toString();
  if (!Number.isFinite(n)) return n > 0 ? '+Inf' : n < 0 ? '-Inf' : 'NaN';
  const [mantissa, exp] = n.toExponential().split('e');
  const e = Number(exp);
  if (e < -4 || e >= 6) return `${mantissa}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`;
  return String(n);
}

/** Where the first JSON value of a text ends: after its closing bracket or quote, or its last literal character. */
function firstJsonValueEnd(text: string): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') {
        inString = false;
        if (depth === 0) return i + 1;
      }
    } else if (c === '"') inString = true;
    else if (c === '[' || c === '{') depth++;
    else if (c === ']' || c === '}') {
      if (depth === 0) return i;
      if (--depth === 0) return i + 1;
    } else if (depth === 0 && /[ \t\r\n,:]/.test(c)) return i;
  }
  return text.length;
}

/**
 * Go's json.Decoder.Decode then More(), as decodeValue uses them: the first JSON value, taken when
 * what follows it (after JSON whitespace) is nothing or starts with `]` or `}` (More() is false);
 * a number beyond a float64 fails the decode (convertNumber's ParseFloat range error).
 */
function decodeFirstJson(repr: string): { value: unknown } | undefined {
  const end = firstJsonValueEnd(repr);
  const rest = repr.slice(end).replace(/^[ \t\r\n]+/, '');
  if (rest && rest[0] !== ']' && rest[0] !== '}') return undefined;
  let finite = true;
  try {
    const value: unknown = JSON.parse(repr.slice(0, end), (_, v: unknown) => {
      if (typeof v === 'number' && !Number.isFinite(v)) finite = false;
      return v;
    });
    return finite ? { value } : undefined;
  } catch {
    return undefined;
  }
}

/** decodeValue: a string holding a JSON (or, on several lines, YAML) object or array. */
function decodeValue(text: string): [unknown, string] | undefined {
  const repr = text.trim();
  let decoded: unknown;
  let kind = 'json';
  const json = decodeFirstJson(repr);
  if (json) decoded = json.value;
  else {
    if (!/[\r\n]/.test(repr)) return undefined;
    const doc = parseDocument(repr);
    if (doc.errors.length) return undefined;
    // translateYAMLValue: a mapping whose keys are not all strings or numbers (a list, a map, a
    // boolean, null) is not decoded (nor stringified, with Node.js's warning about it).
    let plainKeys = true;
    visit(doc, {
      Pair(_, pair) {
        const key = isScalar(pair.key) ? pair.key.value : undefined;
        if (typeof key === 'string' || typeof key === 'number') return undefined;
        plainKeys = false;
        return visit.BREAK;
      },
    });
    if (!plainKeys) return undefined;
    try {
      decoded = doc.toJS(); // throws on excessive aliases
    } catch {
      return undefined;
    }
    kind = 'yaml';
  }
  return Array.isArray(decoded) || isPlainObject(decoded) ? [decoded, kind] : undefined;
}

/** One line-level change of a multi-line string (diffmatchpatch's line mode). */
type LineChunk = { op: 'same' | 'create' | 'delete'; lines: string[] };

/** The lines of two texts as equal, deleted and inserted runs (a longest common subsequence). */
function lineDiff(old: string, next: string): LineChunk[] {
  const a = old.split('\n');
  const b = next.split('\n');
  const lcs = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const chunks: LineChunk[] = [];
  const push = (op: LineChunk['op'], line: string) => {
    const last = chunks[chunks.length - 1];
    if (last?.op === op) last.lines.push(line);
    else chunks.push({ op, lines: [line] });
  };
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      push('same', a[i]);
      i++;
      j++;
    }
    // A changed line reads as its deletion, then its insertion (as diffmatchpatch orders them).
    else if (i < a.length && (j === b.length || lcs[i + 1][j] >= lcs[i][j + 1])) push('delete', a[i++]);
    else push('create', b[j++]);
  }
  return chunks;
}

export interface PrinterOptions {
  showSecrets: boolean;
  /** Colours a piece of text as the op's (the display's own colour rules). */
  paint: (op: PropertyOp, text: string) => string;
}

/** propertyPrinter: writes property values and diffs at an indentation, in an op's colour and prefix. */
class PropertyPrinter {
  constructor(
    private readonly out: string[],
    private readonly options: PrinterOptions,
    private readonly indent: number,
    private readonly op: PropertyOp,
    private readonly prefix: boolean,
  ) {}

  indented(by: number): PropertyPrinter {
    return new PropertyPrinter(this.out, this.options, this.indent + by, this.op, this.prefix);
  }
  withOp(op: PropertyOp): PropertyPrinter {
    return new PropertyPrinter(this.out, this.options, this.indent, op, this.prefix);
  }
  withPrefix(prefix: boolean): PropertyPrinter {
    return new PropertyPrinter(this.out, this.options, this.indent, this.op, prefix);
  }

  /** Painted piece by piece between line breaks, so that every line carries its own colour. */
  private write(text: string): void {
    this.out.push(
      text
        .split('\n')
        .map((piece) => (piece ? this.options.paint(this.op, piece) : piece))
        .join('\n'),
    );
  }
  /** getIndentationString: four spaces a level, the last two the op's prefix when prefixed. */
  private writeIndented(text: string, prefix = this.prefix): void {
    const spaces = '    '.repeat(this.indent);
    this.write((prefix && spaces ? spaces.slice(0, -2) + PREFIX[this.op] : spaces) + text);
  }
  private writeUnprefixedIndented(text: string): void {
    this.writeIndented(text, false);
  }

  printPropertyTitle(name: string, align: number): void {
    this.writeIndented(`${name.padEnd(align)}: `);
  }

  printObject(props: Record<string, unknown>): void {
    const keys = Object.keys(props).sort();
    const width = maxKey(keys);
    for (const k of keys) if (!isInternal(k)) this.printObjectProperty(k, props[k], width);
  }

  printObjectProperty(key: string, value: unknown, width: number): void {
    this.printPropertyTitle(key, width);
    this.printPropertyValue(value);
  }

  printPropertyValue(v: unknown): void {
    this.printValue(v);
    this.write('\n');
  }

  private printValue(v: unknown): void {
    if (isSecret(v) && this.options.showSecrets) return this.printValue(v.value);
    if (isPrimitive(v)) return this.printPrimitive(v);
    if (Array.isArray(v)) {
      if (v.length === 0) return this.write('[]');
      this.write('[\n');
      v.forEach((element, i) => {
        this.writeIndented(`    [${i}]: `);
        this.indented(1).printPropertyValue(element);
      });
      return this.writeUnprefixedIndented(']');
    }
    const obj = v as Record<string, unknown>;
    if (Object.keys(obj).length === 0) return this.write('{}');
    this.write('{\n');
    this.indented(1).printObject(obj);
    this.writeUnprefixedIndented('}');
  }

  private printPrimitive(v: unknown): void {
    if (isUnknown(v)) return this.write('[unknown]');
    if (isSecret(v)) return this.write('[secret]');
    if (!hasValue(v)) return this.write('<null>');
    if (typeof v === 'number') return this.write(goNumber(v));
    if (typeof v === 'string') {
      const decoded = decodeValue(v);
      if (decoded) {
        this.write(`(${decoded[1]}) `);
        return this.printPropertyValue(decoded[0]);
      }
      return this.write(goQuote(v));
    }
    this.write(String(v));
  }

  printAdd(v: unknown, title: (p: PropertyPrinter) => void): void {
    const p = this.withOp('create').withPrefix(true);
    title(p);
    p.printPropertyValue(v);
  }
  printDelete(v: unknown, title: (p: PropertyPrinter) => void): void {
    const p = this.withOp('delete').withPrefix(true);
    title(p);
    p.printPropertyValue(v);
  }

  printObjectDiff(diff: ObjectDiff): void {
    const keys = diffKeys(diff);
    const width = maxKey(keys);
    for (const k of keys) this.printObjectPropertyDiff(k, width, diff);
  }

  /** printHiddenPaths: a `~ <path> (hidden)` line for each path a hideDiffs option hid. */
  printHiddenPaths(paths: string[]): void {
    const p = this.withOp('update').withPrefix(true);
    for (const path of paths) p.writeIndented(`${path} (hidden)\n`);
  }

  printObjectPropertyDiff(key: string, width: number, diff: ObjectDiff): void {
    const title = (p: PropertyPrinter) => p.printPropertyTitle(key, width);
    if (diff.adds.has(key)) this.printAdd(diff.adds.get(key), title);
    else if (diff.deletes.has(key)) this.printDelete(diff.deletes.get(key), title);
    else if (diff.updates.has(key)) this.printPropertyValueDiff(title, diff.updates.get(key)!);
    else if (shouldPrint(diff.sames.get(key)))
      this.withOp('same').withPrefix(false).printObjectProperty(key, diff.sames.get(key), width);
  }

  private printPropertyValueDiff(title: (p: PropertyPrinter) => void, diff: ValueDiff): void {
    const p = this.withOp('update').withPrefix(true);
    if (diff.array) {
      title(p);
      p.write('[\n');
      const a = diff.array;
      const length = Math.max(-1, ...a.adds.keys(), ...a.deletes.keys(), ...a.sames.keys(), ...a.updates.keys()) + 1;
      for (let i = 0; i < length; i++) {
        const element = p.indented(2);
        const elementTitle = (q: PropertyPrinter) => q.indented(-1).writeIndented(`[${i}]: `);
        if (a.adds.has(i)) element.printAdd(a.adds.get(i), elementTitle);
        else if (a.deletes.has(i)) element.printDelete(a.deletes.get(i), elementTitle);
        else if (a.updates.has(i)) element.printPropertyValueDiff(elementTitle, a.updates.get(i)!);
        else if (a.sames.has(i)) {
          const same = element.withOp('same').withPrefix(false);
          elementTitle(same);
          same.printPropertyValue(a.sames.get(i));
        }
      }
      return p.writeUnprefixedIndented(']\n');
    }
    if (diff.object) {
      title(p);
      p.write('{\n');
      p.indented(1).printObjectDiff(diff.object);
      return p.writeUnprefixedIndented('}\n');
    }
    const printOld = shouldPrint(diff.old);
    const printNew = shouldPrint(diff.new);
    if (printOld && printNew && isPrimitive(diff.old) && isPrimitive(diff.new)) {
      title(p);
      if (typeof diff.old === 'string' && typeof diff.new === 'string' && !isUnknown(diff.old) && !isUnknown(diff.new))
        return p.printTextDiff(diff.old, diff.new);
      p.withOp('delete').printPrimitive(diff.old);
      p.write(' => ');
      p.withOp('create').printPrimitive(diff.new);
      return p.write('\n');
    }
    // Of different kinds: the old value removed, the new one added.
    if (printOld) p.printDelete(diff.old, title);
    if (printNew) p.printAdd(diff.new, title);
  }

  /** printTextDiff: a JSON or YAML string as the diff of its structure, one line as `"old" => "new"`, lines as a line diff. */
  private printTextDiff(old: string, next: string): void {
    if (this.printEncodedValueDiff(old, next)) return;
    if (!old.includes('\n') && !next.includes('\n')) {
      this.withOp('delete').write(goQuote(old));
      this.write(' => ');
      this.withOp('create').write(goQuote(next));
      return this.write('\n');
    }
    this.indented(1).printLineDiff(lineDiff(old, next));
  }

  /** printLineDiff: the changed lines with two lines of context either side, `...` for the rest. */
  private printLineDiff(chunks: LineChunk[]): void {
    this.write('\n');
    const writeLine = (op: LineChunk['op'], text: string) =>
      this.withOp(op)
        .withPrefix(op !== 'same')
        .writeIndented(text + '\n');
    const context = 2;
    chunks.forEach((chunk, index) => {
      if (chunk.op !== 'same') {
        for (const line of chunk.lines) if (line.trim()) writeLine(chunk.op, line);
        return;
      }
      const lines = chunk.lines.filter((line) => line.trim());
      if (index === 0 && lines.length > context + 1) {
        writeLine('same', '...');
        for (const line of lines.slice(-context)) writeLine('same', line);
      } else if (index === chunks.length - 1 && index > 0 && lines.length > context + 1) {
        for (const line of lines.slice(0, context)) writeLine('same', line);
        writeLine('same', '...');
      } else if (index > 0 && index < chunks.length - 1 && lines.length > 2 * context + 1) {
        for (const line of lines.slice(0, context)) writeLine('same', line);
        writeLine('same', '...');
        for (const line of lines.slice(-context)) writeLine('same', line);
      } else for (const line of lines) writeLine('same', line);
    });
  }

  private printEncodedValueDiff(old: string, next: string): boolean {
    const before = decodeValue(old);
    const after = before && decodeValue(next);
    if (!before || !after) return false;
    if (deepEqual(before[0], after[0])) {
      this.printTextDiff(goQuote(old), goQuote(next));
      return true;
    }
    this.write(before[1] === after[1] ? `(${before[1]}) ` : `(${before[1]} => ${after[1]}) `);
    const diff = diffValues(before[0], after[0]);
    if (!diff) this.withOp('same').printPropertyValue(before[0]);
    else this.printPropertyValueDiff(() => undefined, diff);
    return true;
  }
}

function diffKeys(d: ObjectDiff): string[] {
  return [...d.adds.keys(), ...d.deletes.keys(), ...d.sames.keys(), ...d.updates.keys()].sort();
}

function maxKey(keys: string[]): number {
  return Math.max(0, ...keys.map((k) => k.length));
}

/** getProperty: a child of a value, or the value itself where it is opaque (a secret, an unknown). */
function childOf(key: string | number, v: unknown): unknown {
  if (Array.isArray(v)) return typeof key === 'number' ? v[key] : undefined;
  if (isPlainObject(v)) return typeof key === 'string' ? v[key] : undefined;
  return isSecret(v) || isUnknown(v) ? v : undefined;
}

type Changes<K> = { adds: Map<K, unknown>; deletes: Map<K, unknown>; updates: Map<K, ValueDiff> };
const emptyChanges = () => ({ adds: new Map(), deletes: new Map(), sames: new Map(), updates: new Map() });

/**
 * addDiff: a detailed diff's change at a path, recorded in its parent's diff. At the path's end the
 * provider's kind says what it is (an update the whole diff of the two values); above it, a side
 * that is missing makes it an add or a delete.
 */
function addDiff(path: Array<string | number>, kind: string, parent: ValueDiff, olds: unknown, news: unknown): void {
  const [key, ...rest] = path;
  const old = childOf(key, olds);
  const next = childOf(key, news);
  const d: Changes<string | number> =
    typeof key === 'number' ? (parent.array ??= emptyChanges()) : (parent.object ??= emptyChanges());
  if (!rest.length) {
    if (kind.startsWith('add')) d.adds.set(key, next);
    else if (kind.startsWith('delete')) d.deletes.set(key, old);
    else d.updates.set(key, diffValues(old, next) ?? { old, new: next });
  } else if (!hasValue(old) && hasValue(next)) d.adds.set(key, next);
  else if (hasValue(old) && !hasValue(next)) d.deletes.set(key, old);
  else {
    const inner = d.updates.get(key) ?? { old, new: next };
    addDiff(rest, kind, inner, old, next);
    d.updates.set(key, inner);
  }
}

/** One change of a provider's detailed diff: its path, its kind, and the old properties it compared. */
export interface DetailedChange {
  path: Array<string | number>;
  kind: string;
  olds: Record<string, unknown>;
}

/**
 * A resource's changed properties as Pulumi's diff display prints them: translateDetailedDiff's
 * diff (only what the provider named) printed by printObjectDiff at an indentation, each top-level
 * property's last line followed by its `suffix` (as writeReplaceAnnotation puts its note before
 * the property's final newline: after a list's or map's closing bracket).
 */
export function propertyDiffText(
  changes: DetailedChange[],
  news: Record<string, unknown>,
  indent: number,
  options: PrinterOptions,
  suffix: (key: string) => string = () => '',
  hidden: string[] = [],
): string {
  const root: ValueDiff = { old: undefined, new: news };
  for (const c of changes) addDiff(c.path, c.kind, root, c.olds, news);
  const out: string[] = [];
  const p = new PropertyPrinter(out, options, indent, 'same', true);
  // PrintObjectDiff: the hidden paths first, then what is left of the diff.
  p.printHiddenPaths(hidden);
  if (!root.object) return out.join('');
  const keys = diffKeys(root.object);
  const width = maxKey(keys);
  for (const k of keys) {
    const from = out.length;
    p.printObjectPropertyDiff(k, width, root.object);
    const block = out.splice(from).join('');
    const end = block.lastIndexOf('\n');
    out.push(end < 0 ? block + suffix(k) : block.slice(0, end) + suffix(k) + block.slice(end));
  }
  return out.join('');
}

/**
 * Pulumi's PropertyPath.String (sdk/go/common/resource/properties_path.go): a key of letters,
 * digits and `_` after a `.` (none first), any other as `["key"]` (its `"` escaped), an index as `[n]`.
 */
export function propertyPathString(path: Array<string | number>): string {
  return path
    .map((k, i) =>
      typeof k === 'number'
        ? `[${k}]`
        : /^[A-Za-z0-9_]*$/.test(k)
          ? `${i === 0 ? '' : '.'}${k}`
          : `["${k.replace(/"/g, '\\"')}"]`,
    )
    .join('');
}

export interface StackOutputs {
  /** The stack's outputs before the run; undefined when the stack had no state (a new stack). */
  old?: Record<string, unknown>;
  outputs: Record<string, unknown>;
  /** A preview: only the outputs that change are shown (unless showSames). */
  planning: boolean;
  showSames: boolean;
}

/**
 * getResourceOutputsPropertiesString for the root stack: after an update every output, those that
 * changed since the previous state marked (`+ k: v`, `- k: v`, `~ k: old => new`); in a preview,
 * of a stack with a previous state, only the changes (an output that becomes unknown is none), and
 * of a new stack every output. Empty when there is nothing to show.
 */
export function stackOutputsText(stack: StackOutputs, options: PrinterOptions): string {
  const outs = stack.outputs;
  // During the actual update every output of the stack is shown, changed or not.
  const showSames = stack.showSames || !stack.planning;
  let diff: ObjectDiff | undefined;
  if (stack.old) {
    diff = diffObjects(stack.old, outs);
    if (diff && stack.planning) massageOutputDiff(diff);
    if (!diff && !showSames) return '';
  }
  const keys = diff ? diffKeys(diff) : Object.keys(outs).sort();
  const width = maxKey(keys);
  const out: string[] = [];
  const p = new PropertyPrinter(out, options, 1, stack.old ? 'same' : 'create', false);
  for (const k of keys) {
    if (!diff && (isInternal(k) || !shouldPrint(outs[k]))) continue;
    if (diff && !showSames && !diff.adds.has(k) && !diff.deletes.has(k) && !diff.updates.has(k)) continue;
    if (diff) p.printObjectPropertyDiff(k, width, diff);
    else p.printObjectProperty(k, outs[k], width);
  }
  return out.join('');
}
