// The hand-written codec against the generated stubs it stands in for: every method's path, and
// every message layout, the provider's (./rpc) and the engine's (./engine-codec), field by field:
// each field our encoder writes must be read by the stub's getter of the same name with the same
// value (a wrong field number, or two fields swapped, fails), and what the stub writes back must
// decode to what we decoded (the stubs drop fields whose number or wire type they do not know).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Struct } from 'google-protobuf/google/protobuf/struct_pb';
import { decode, encode, type Field, type Layout } from './proto';
import { ENGINE_LAYOUTS, engineCodec } from './engine-codec';
import { codec, LAYOUTS, METHODS, resourceProviderService } from './rpc';
import { secret, type Props } from './wire';

interface Stub {
  deserializeBinary(b: Uint8Array): StubMessage;
}
type StubMessage = Record<string, (...a: unknown[]) => unknown> & { serializeBinary(): Uint8Array };

const providerPb = require('@pulumi/pulumi/proto/provider_pb');
const resourcePb = require('@pulumi/pulumi/proto/resource_pb');
const STUBS: Record<string, Stub> = {
  HandshakeRequest: providerPb.ProviderHandshakeRequest,
  HandshakeResponse: providerPb.ProviderHandshakeResponse,
  Empty: require('google-protobuf/google/protobuf/empty_pb').Empty,
  PluginInfo: require('@pulumi/pulumi/proto/plugin_pb').PluginInfo,
  PluginAttach: require('@pulumi/pulumi/proto/plugin_pb').PluginAttach,
  Status: require('@pulumi/pulumi/proto/status_pb').Status,
  LogRequest: require('@pulumi/pulumi/proto/engine_pb').LogRequest,
};
const stub = (name: string): Stub => STUBS[name] ?? providerPb[name] ?? resourcePb[name];

const VALUE = {
  nested: [1, -2.5, 'ünïcödé ✓ 😀', { deep: null, yes: true, no: false }, []],
  long: 'x'.repeat(300),
  empty: {},
  secret: secret({ key: 'v' }),
};

/** Members of one oneof (Alias: urn | spec; Alias.Spec: parentUrn | noParent): one is set at a time. */
const ONEOFS = [
  ['urn', 'spec'],
  ['parentUrn', 'noParent'],
];

/**
 * A value for every field, distinct per field (so a swap shows), presence kinds at their default;
 * of a oneof, the first member (`alt`: the second).
 */
function sample(layout: Layout, seed: string, alt = false): Props {
  const out: Props = {};
  const names = layout.map((f) => f[1]);
  const skip = new Set(ONEOFS.filter((o) => o.every((n) => names.includes(n))).map((o) => o[alt ? 0 : 1]));
  (layout as Field[]).forEach((f, i) => {
    const name = f[1];
    if (skip.has(name)) return;
    switch (f[2]) {
      case 'string':
        out[name] = `${seed}-${name}-é`;
        break;
      case 'bool':
        out[name] = true;
        break;
      case 'optbool':
        out[name] = false; // present though false: its presence must survive
        break;
      case 'double':
        out[name] = 1.5 + i;
        break;
      case 'int':
        out[name] = 2 + i;
        break;
      case 'bytes':
        out[name] = Buffer.from([1, 2, i]);
        break;
      case 'struct':
      case 'optstruct':
        out[name] = { ...VALUE, [name]: seed };
        break;
      case 'value':
        out[name] = [seed, { n: i }];
        break;
      case 'strings':
        out[name] = [`${name}-1`, `${name}-2`];
        break;
      case 'message':
        out[name] = sample(f[3], `${seed}.${name}`);
        break;
      case 'messages':
        out[name] = [sample(f[3], `${seed}.${name}0`), sample(f[3], `${seed}.${name}1`, true)];
        break;
      case 'map': {
        const v = f[3].find((x) => x[1] === 'value')!;
        out[name] = {
          k1: v[2] === 'message' ? sample(v[3], 'k1') : 'v1',
          k2: v[2] === 'message' ? sample(v[3], 'k2') : 'v2',
        };
        break;
      }
    }
  });
  return out;
}

function method(msg: StubMessage, prefix: string, name: string, suffix = ''): () => unknown {
  const want = `${prefix}${name}${suffix}`.toLowerCase();
  let proto = Object.getPrototypeOf(msg);
  while (proto) {
    const key = Object.getOwnPropertyNames(proto).find((k) => k.toLowerCase() === want);
    if (key) return () => msg[key]();
    proto = Object.getPrototypeOf(proto);
  }
  throw new Error(`the stub has no ${prefix}${name}${suffix}`);
}

/** Asserts the stub message holds `value` in each field, read by the stub's own getter of that name. */
function assertSame(msg: StubMessage, value: Props, layout: Layout, where: string): void {
  for (const f of layout as Field[]) {
    const [, name, kind] = f;
    const v = value[name];
    const at = `${where}.${name}`;
    if (v === undefined) continue; // the other member of a oneof
    switch (kind) {
      case 'string':
      case 'bool':
      case 'double':
      case 'int':
        assert.equal(method(msg, 'get', name)(), v, at);
        break;
      case 'optbool':
        assert.equal(method(msg, 'has', name)(), true, `${at} present`);
        assert.equal(method(msg, 'get', name)(), v, at);
        break;
      case 'bytes':
        assert.deepEqual(Buffer.from(method(msg, 'get', name, '_asU8')() as Uint8Array), v, at);
        break;
      case 'struct':
      case 'optstruct':
      case 'value': {
        const m = method(msg, 'get', name)() as { toJavaScript(): unknown };
        assert.deepEqual(m.toJavaScript(), v, at);
        break;
      }
      case 'strings':
        assert.deepEqual(method(msg, 'get', name, 'List')(), v, at);
        break;
      case 'message':
        assertSame(method(msg, 'get', name)() as StubMessage, v as Props, f[3], at);
        break;
      case 'messages': {
        const list = method(msg, 'get', name, 'List')() as StubMessage[];
        assert.equal(list.length, (v as Props[]).length, at);
        list.forEach((m, i) => assertSame(m, (v as Props[])[i], f[3], `${at}[${i}]`));
        break;
      }
      case 'map': {
        const map = method(msg, 'get', name, 'Map')() as { get(k: string): unknown; getLength(): number };
        const entries = Object.entries(v as Props);
        assert.equal(map.getLength(), entries.length, at);
        const valueField = f[3].find((x) => x[1] === 'value')!;
        for (const [k, x] of entries) {
          if (valueField[2] === 'message')
            assertSame(map.get(k) as StubMessage, x as Props, valueField[3], `${at}.${k}`);
          else assert.equal(map.get(k), x, `${at}.${k}`);
        }
        break;
      }
    }
  }
}

test('every method has the stubs path, unary both ways', () => {
  const { ResourceProviderService } = require('@pulumi/pulumi/proto/provider_grpc_pb');
  const ours = resourceProviderService();
  for (const [key, def] of Object.entries(ours)) {
    const theirs = ResourceProviderService[key];
    assert.ok(theirs, `${key} is a ResourceProvider method`);
    assert.equal(def.path, theirs.path);
    assert.equal(def.requestStream, theirs.requestStream);
    assert.equal(def.responseStream, theirs.responseStream);
  }
  assert.deepEqual(Object.keys(ours).sort(), Object.keys(METHODS).sort());
});

test('requests the stubs encode decode with their values; absent Structs are {}', () => {
  const req = new providerPb.DeleteRequest()
    .setId('ocid1.x')
    .setUrn('urn:a')
    .setTimeout(30)
    .setProperties(Struct.fromJavaScript({ big: 'y'.repeat(1000) }));
  const d = codec('DeleteRequest').deserialize(Buffer.from(req.serializeBinary()));
  assert.deepEqual(d, { id: 'ocid1.x', urn: 'urn:a', timeout: 30 });
  const c = codec('CheckRequest').deserialize(Buffer.from(new providerPb.CheckRequest().setUrn('u').serializeBinary()));
  assert.deepEqual(c, { urn: 'u', olds: {}, news: {} });
});

test('Struct values: ours and google-protobuf agree both ways; JS-only values are dropped', () => {
  const layout = LAYOUTS.CreateResponse;
  const props = {
    ...VALUE,
    n: 0,
    neg: -1,
    big: 2 ** 40,
    date: new Date(0),
    gone: undefined,
    nan: NaN,
    list: [1, undefined, 2],
  };
  const bytes = encode({ id: 'i', properties: props }, layout);
  const theirs = providerPb.CreateResponse.deserializeBinary(bytes);
  const expected = { ...VALUE, n: 0, neg: -1, big: 2 ** 40, date: '1970-01-01T00:00:00.000Z', list: [1, 2] };
  assert.deepEqual(theirs.getProperties().toJavaScript(), expected);
  const back = new providerPb.CreateResponse().setId('i').setProperties(Struct.fromJavaScript(expected as never));
  assert.deepEqual(decode(Buffer.from(back.serializeBinary()), layout), { id: 'i', properties: expected });
});

test("every layout, the provider's and the engine's, matches the stubs field by field and round-trips", () => {
  for (const [name, layout] of [...Object.entries(LAYOUTS), ...Object.entries(ENGINE_LAYOUTS)]) {
    const value = sample(layout, name);
    const bytes = encode(value, layout);
    const theirs = stub(name).deserializeBinary(bytes);
    assertSame(theirs, value, layout, name);
    const ours = decode(bytes, layout);
    assert.deepEqual(decode(Buffer.from(theirs.serializeBinary()), layout), ours, `${name}: stub → ours`);
    assert.deepEqual(encode(ours, layout), bytes, `${name}: ours → ours`);
  }
});

test('a field number that is off fails the field-by-field check', () => {
  const layout = ENGINE_LAYOUTS.CheckRequest.map((f) => (f[1] === 'name' ? [7, 'name', 'string'] : f)) as Layout;
  const wrong = layout.filter((f) => f[1] !== 'type');
  const value = sample(wrong, 'x');
  const theirs = stub('CheckRequest').deserializeBinary(encode(value, wrong));
  assert.throws(() =>
    assertSame(
      theirs,
      value,
      ENGINE_LAYOUTS.CheckRequest.filter((f) => f[1] !== 'type'),
      'x',
    ),
  );
});

test('presence: absent optional Structs and bools are absent, set ones are kept even when empty or false', () => {
  const check = engineCodec('CheckResponse');
  assert.deepEqual(check.deserialize(Buffer.from(new providerPb.CheckResponse().serializeBinary())), {
    failures: [],
  });
  const empty = new providerPb.CheckResponse().setInputs(
    new (require('google-protobuf/google/protobuf/struct_pb').Struct)(),
  );
  assert.deepEqual(check.deserialize(Buffer.from(empty.serializeBinary())), { inputs: {}, failures: [] });
  const reg = engineCodec('RegisterResourceRequest');
  const bare = reg.deserialize(Buffer.from(new resourcePb.RegisterResourceRequest().setType('t').serializeBinary()));
  assert.equal(bare.protect, undefined);
  assert.equal(bare.retainOnDelete, undefined);
  assert.equal(bare.customTimeouts, undefined);
  assert.equal(bare.replacementTrigger, undefined);
  assert.equal(bare.hooks, undefined);
  const hooked = reg.deserialize(
    Buffer.from(
      new resourcePb.RegisterResourceRequest()
        .setHooks(new resourcePb.RegisterResourceRequest.ResourceHooksBinding().setBeforeDeleteList(['h1', 'h2']))
        .serializeBinary(),
    ),
  );
  assert.deepEqual(hooked.hooks, {
    beforeCreate: [],
    afterCreate: [],
    beforeUpdate: [],
    afterUpdate: [],
    beforeDelete: ['h1', 'h2'],
    afterDelete: [],
    onError: [],
  });
  const set = reg.deserialize(
    Buffer.from(new resourcePb.RegisterResourceRequest().setProtect(false).setRetainondelete(true).serializeBinary()),
  );
  assert.equal(set.protect, false);
  assert.equal(set.retainOnDelete, true);
  const struct = require('google-protobuf/google/protobuf/struct_pb');
  const nul = reg.deserialize(
    Buffer.from(
      new resourcePb.RegisterResourceRequest()
        .setReplacementTrigger(struct.Value.fromJavaScript(null))
        .serializeBinary(),
    ),
  );
  assert.equal(nul.replacementTrigger, null);
});
