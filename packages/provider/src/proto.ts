// A small protobuf wire codec for the provider's RPC messages: plain JS objects in, plain JS
// objects out, with google.protobuf.Struct fields encoded and decoded straight between JS values
// and wire bytes. It replaces google-protobuf's generic path (Struct.fromJavaScript builds a Value
// message per node, then serialises it), which cost more than the rest of a 16 KB DrPlan create,
// and it lets the plugin print its port without loading google-protobuf or the generated stubs.
// The message layouts (field numbers) are pulumi's provider.proto; proto.test.ts checks them
// against the generated stubs in @pulumi/pulumi/proto.
import { fromOutputValue, OUTPUT_MARK, SECRET_SIG, type Props } from './wire';

/**
 * A field: number, name, kind; `message`/`map` kinds name the nested layout. `optbool` (a proto3
 * `optional bool`) and `optstruct` (a Struct whose absence means something) are left out of the
 * decoded object when absent, as `message` is; `value` is a google.protobuf.Value (any JSON value).
 */
export type Field =
  | [
      no: number,
      name: string,
      kind: 'string' | 'bool' | 'double' | 'int' | 'bytes' | 'struct' | 'strings' | 'optbool' | 'optstruct' | 'value',
    ]
  | [no: number, name: string, kind: 'message' | 'messages' | 'map', layout: Layout];
export type Layout = readonly Field[];

// ---- decoding ----

class Reader {
  pos = 0;
  constructor(readonly buf: Buffer) {}
  varint(): number {
    let x = 0;
    let mul = 1;
    for (;;) {
      const b = this.buf[this.pos++];
      x += (b & 0x7f) * mul;
      if (b < 0x80) return x;
      mul *= 128;
    }
  }
  end(): number {
    const n = this.varint();
    return this.pos + n;
  }
  string(): string {
    const end = this.end();
    const s = this.buf.toString('utf8', this.pos, end);
    this.pos = end;
    return s;
  }
  double(): number {
    const v = this.buf.readDoubleLE(this.pos);
    this.pos += 8;
    return v;
  }
  skip(wireType: number): void {
    if (wireType === 0) this.varint();
    else if (wireType === 1) this.pos += 8;
    else if (wireType === 2) this.pos = this.end();
    else if (wireType === 5) this.pos += 4;
    else throw new Error(`unsupported protobuf wire type ${wireType}`);
  }
}

function readValue(r: Reader, end: number): unknown {
  let v: unknown = null;
  while (r.pos < end) {
    const tag = r.varint();
    switch (tag) {
      case 0x08: // null_value
        r.varint();
        v = null;
        break;
      case 0x11: // number_value
        v = r.double();
        break;
      case 0x1a: // string_value
        v = r.string();
        break;
      case 0x20: // bool_value
        v = r.varint() !== 0;
        break;
      case 0x2a: {
        // struct_value; an output value is read as the unknown, secret or plain value it stands for
        const o = readStruct(r, r.end());
        v = o[SECRET_SIG] === OUTPUT_MARK ? fromOutputValue(o) : o;
        break;
      }
      case 0x32: {
        // list_value
        const listEnd = r.end();
        const list: unknown[] = [];
        while (r.pos < listEnd) {
          const t = r.varint();
          if (t === 0x0a) list.push(readValue(r, r.end()));
          else r.skip(t & 7);
        }
        v = list;
        break;
      }
      default:
        r.skip(tag & 7);
    }
  }
  return v;
}

function readStruct(r: Reader, end: number): Props {
  const out: Props = {};
  while (r.pos < end) {
    const tag = r.varint();
    if (tag !== 0x0a) {
      r.skip(tag & 7);
      continue;
    }
    const entryEnd = r.end();
    let key = '';
    let value: unknown = null;
    while (r.pos < entryEnd) {
      const t = r.varint();
      if (t === 0x0a) key = r.string();
      else if (t === 0x12) value = readValue(r, r.end());
      else r.skip(t & 7);
    }
    out[key] = value;
  }
  return out;
}

const DEFAULTS: Record<string, () => unknown> = {
  string: () => '',
  bool: () => false,
  double: () => 0,
  int: () => 0,
  bytes: () => Buffer.alloc(0),
  struct: () => ({}),
  strings: () => [],
  messages: () => [],
  map: () => ({}),
};

function readMessage(r: Reader, end: number, layout: Layout): Props {
  const out: Props = {};
  for (const f of layout) {
    const d = DEFAULTS[f[2]];
    if (d) out[f[1]] = d();
  }
  while (r.pos < end) {
    const tag = r.varint();
    const no = tag >>> 3;
    const f = layout.find((x) => x[0] === no);
    if (!f) {
      r.skip(tag & 7);
      continue;
    }
    const name = f[1];
    switch (f[2]) {
      case 'string':
        out[name] = r.string();
        break;
      case 'bool':
      case 'optbool':
        out[name] = r.varint() !== 0;
        break;
      case 'double':
        out[name] = r.double();
        break;
      case 'int':
        out[name] = r.varint() | 0;
        break;
      case 'bytes': {
        const e = r.end();
        out[name] = r.buf.subarray(r.pos, e);
        r.pos = e;
        break;
      }
      case 'struct':
      case 'optstruct':
        out[name] = readStruct(r, r.end());
        break;
      case 'value':
        out[name] = readValue(r, r.end());
        break;
      case 'strings':
        (out[name] as string[]).push(r.string());
        break;
      case 'message':
        out[name] = readMessage(r, r.end(), f[3]);
        break;
      case 'messages':
        (out[name] as Props[]).push(readMessage(r, r.end(), f[3]));
        break;
      case 'map': {
        const entry = readMessage(r, r.end(), f[3]);
        (out[name] as Props)[entry.key as string] = entry.value;
        break;
      }
    }
  }
  return out;
}

/** Decodes a message of `layout`; absent fields take proto3 defaults (absent Structs are `{}`). */
export function decode<T = Props>(buf: Buffer, layout: Layout): T {
  const r = new Reader(buf);
  return readMessage(r, buf.length, layout) as T;
}

// ---- encoding: one pass measures every length-delimited part (in order), one pass writes ----

/** What a JS value becomes in a Struct: the same rules as wire.clean (undefined and JS-only values dropped). */
function plain(v: unknown): unknown {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return v;
    case 'number':
      return Number.isFinite(v) ? v : undefined;
    case 'bigint':
      return Number(v);
    case 'object':
      return v instanceof Date ? v.toISOString() : v;
    default:
      return undefined;
  }
}

const varintSize = (n: number): number => (n < 0x80 ? 1 : n < 0x4000 ? 2 : n < 0x200000 ? 3 : n < 0x10000000 ? 4 : 5);

class Sizes {
  list: number[] = [];
  /** Reserves a slot for a part whose size is known after its children. */
  open(): number {
    this.list.push(0);
    return this.list.length - 1;
  }
  /** Records a part of `n` bytes; returns its size with the length prefix. */
  close(slot: number, n: number): number {
    this.list[slot] = n;
    return varintSize(n) + n;
  }
  str(s: string): number {
    const n = Buffer.byteLength(s);
    this.list.push(n);
    return varintSize(n) + n;
  }
}

function sizeValue(s: Sizes, v: unknown): number {
  if (v === null) return 2;
  switch (typeof v) {
    case 'number':
      return 9;
    case 'boolean':
      return 2;
    case 'string':
      return 1 + s.str(v);
  }
  const slot = s.open();
  let n = 0;
  if (Array.isArray(v)) {
    for (const x of v) {
      const p = plain(x);
      if (p === undefined) continue;
      const vs = s.open();
      n += 1 + s.close(vs, sizeValue(s, p));
    }
  } else n = sizeStructBody(s, v as Props);
  return 1 + s.close(slot, n);
}

function sizeStructBody(s: Sizes, o: Props): number {
  let n = 0;
  for (const k of Object.keys(o)) {
    const p = plain(o[k]);
    if (p === undefined) continue;
    // Slots in the order the writer uses them: entry, key, value.
    const entry = s.open();
    const key = s.str(k);
    const vs = s.open();
    n += 1 + s.close(entry, 1 + key + 1 + s.close(vs, sizeValue(s, p)));
  }
  return n;
}

class Writer {
  pos = 0;
  next = 0;
  constructor(
    readonly buf: Buffer,
    readonly sizes: number[],
  ) {}
  byte(b: number): void {
    this.buf[this.pos++] = b;
  }
  varint(n: number): void {
    while (n >= 0x80) {
      this.buf[this.pos++] = (n & 0x7f) | 0x80;
      n = Math.floor(n / 128);
    }
    this.buf[this.pos++] = n;
  }
  /** The length prefix of the next measured part. */
  len(): void {
    this.varint(this.sizes[this.next++]);
  }
  str(s: string): void {
    const n = this.sizes[this.next++];
    this.varint(n);
    // n === s.length only when every character is ASCII (one byte each).
    if (n === s.length && n < 64) for (let i = 0; i < n; i++) this.buf[this.pos++] = s.charCodeAt(i);
    else this.pos += this.buf.write(s, this.pos, 'utf8');
  }
  double(v: number): void {
    this.pos = this.buf.writeDoubleLE(v, this.pos);
  }
}

function writeValue(w: Writer, v: unknown): void {
  if (v === null) {
    w.byte(0x08);
    w.byte(0);
    return;
  }
  switch (typeof v) {
    case 'number':
      w.byte(0x11);
      w.double(v);
      return;
    case 'boolean':
      w.byte(0x20);
      w.byte(v ? 1 : 0);
      return;
    case 'string':
      w.byte(0x1a);
      w.str(v);
      return;
  }
  if (Array.isArray(v)) {
    w.byte(0x32);
    w.len();
    for (const x of v) {
      const p = plain(x);
      if (p === undefined) continue;
      w.byte(0x0a);
      w.len();
      writeValue(w, p);
    }
  } else {
    w.byte(0x2a);
    w.len();
    writeStructBody(w, v as Props);
  }
}

function writeStructBody(w: Writer, o: Props): void {
  for (const k of Object.keys(o)) {
    const p = plain(o[k]);
    if (p === undefined) continue;
    w.byte(0x0a);
    w.len();
    w.byte(0x0a);
    w.str(k);
    w.byte(0x12);
    w.len();
    writeValue(w, p);
  }
}

const isDefault = (v: unknown): boolean =>
  v === undefined || v === null || v === '' || v === false || v === 0 || (Array.isArray(v) && v.length === 0);

/** A repeated message field's messages; a map is repeated {key, value} entries on the wire. */
const items = (kind: string, v: unknown): Props[] =>
  kind === 'map' ? Object.entries(v as Props).map(([key, value]) => ({ key, value })) : (v as Props[]);

/** Kinds written whenever set, even at their proto3 default (presence is part of their meaning). */
const PRESENT = new Set(['struct', 'message', 'optbool', 'optstruct', 'value']);

function sizeMessage(s: Sizes, m: Props, layout: Layout): number {
  let n = 0;
  for (const f of layout) {
    const v = m[f[1]];
    if (isDefault(v) && !PRESENT.has(f[2])) continue;
    if (v === undefined || (v === null && f[2] !== 'value')) continue;
    const tag = varintSize(f[0] << 3);
    switch (f[2]) {
      case 'string':
        n += tag + s.str(v as string);
        break;
      case 'bool':
      case 'optbool':
        n += tag + 1;
        break;
      case 'value': {
        const p = plain(v);
        if (p === undefined) break;
        const slot = s.open();
        n += tag + s.close(slot, sizeValue(s, p));
        break;
      }
      case 'double':
        n += tag + 8;
        break;
      case 'int':
        n += tag + varintSize(v as number);
        break;
      case 'bytes': {
        const slot = s.open();
        n += tag + s.close(slot, (v as Uint8Array).length);
        break;
      }
      case 'struct':
      case 'optstruct': {
        const slot = s.open();
        n += tag + s.close(slot, sizeStructBody(s, v as Props));
        break;
      }
      case 'strings':
        for (const x of v as string[]) n += tag + s.str(x);
        break;
      case 'message': {
        const slot = s.open();
        n += tag + s.close(slot, sizeMessage(s, v as Props, f[3]));
        break;
      }
      case 'messages':
      case 'map':
        for (const x of items(f[2], v)) {
          const slot = s.open();
          n += tag + s.close(slot, sizeMessage(s, x, f[3]));
        }
        break;
    }
  }
  return n;
}

function writeMessage(w: Writer, m: Props, layout: Layout): void {
  for (const f of layout) {
    const v = m[f[1]];
    if (isDefault(v) && !PRESENT.has(f[2])) continue;
    if (v === undefined || (v === null && f[2] !== 'value')) continue;
    const tag = f[0] << 3;
    switch (f[2]) {
      case 'string':
        w.varint(tag | 2);
        w.str(v as string);
        break;
      case 'bool':
        w.varint(tag);
        w.byte(1);
        break;
      case 'optbool':
        w.varint(tag);
        w.byte(v ? 1 : 0);
        break;
      case 'value': {
        const p = plain(v);
        if (p === undefined) break;
        w.varint(tag | 2);
        w.len();
        writeValue(w, p);
        break;
      }
      case 'double':
        w.varint(tag | 1);
        w.double(v as number);
        break;
      case 'int':
        w.varint(tag);
        w.varint(v as number);
        break;
      case 'bytes':
        w.varint(tag | 2);
        w.len();
        w.pos += Buffer.from(v as Uint8Array).copy(w.buf, w.pos);
        break;
      case 'struct':
      case 'optstruct':
        w.varint(tag | 2);
        w.len();
        writeStructBody(w, v as Props);
        break;
      case 'strings':
        for (const x of v as string[]) {
          w.varint(tag | 2);
          w.str(x);
        }
        break;
      case 'message':
        w.varint(tag | 2);
        w.len();
        writeMessage(w, v as Props, f[3]);
        break;
      case 'messages':
      case 'map':
        for (const x of items(f[2], v)) {
          w.varint(tag | 2);
          w.len();
          writeMessage(w, x, f[3]);
        }
        break;
    }
  }
}

/**
 * Encodes a message of `layout`. Struct fields take JS values (undefined, functions, symbols and
 * non-finite numbers dropped, Dates as RFC 3339 strings); fields at their proto3 default are
 * omitted, as every protobuf encoder does.
 */
export function encode(m: Props, layout: Layout): Buffer {
  const s = new Sizes();
  const n = sizeMessage(s, m, layout);
  const w = new Writer(Buffer.allocUnsafe(n), s.list);
  writeMessage(w, m, layout);
  if (w.pos !== n) throw new Error(`protobuf encoder wrote ${w.pos} of ${n} bytes`);
  return w.buf;
}
