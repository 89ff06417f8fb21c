// The hand-written codec against the generated stubs it stands in for: every method's path, and
// every message layout field by field (ours → stub → ours loses nothing; the stubs drop fields
// whose number or wire type they do not know), and Struct values both ways.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Struct } from 'google-protobuf/google/protobuf/struct_pb';
import { decode, encode, type Field, type Layout } from './proto';
import { codec, LAYOUTS, METHODS, resourceProviderService } from './rpc';
import { secret, type Props } from './wire';

const providerPb = require('@pulumi/pulumi/proto/provider_pb');
const STUBS: Record<string, { deserializeBinary(b: Uint8Array): { serializeBinary(): Uint8Array } }> = {
  HandshakeRequest: providerPb.ProviderHandshakeRequest,
  HandshakeResponse: providerPb.ProviderHandshakeResponse,
  Empty: require('google-protobuf/google/protobuf/empty_pb').Empty,
  PluginInfo: require('@pulumi/pulumi/proto/plugin_pb').PluginInfo,
  Status: require('@pulumi/pulumi/proto/status_pb').Status,
  LogRequest: require('@pulumi/pulumi/proto/engine_pb').LogRequest,
};
const stub = (name: string) => STUBS[name] ?? providerPb[name];

const VALUE = {
  nested: [1, -2.5, 'ünïcödé ✓ 😀', { deep: null, yes: true, no: false }, []],
  long: 'x'.repeat(300),
  empty: {},
  secret: secret({ key: 'v' }),
};

function sample(layout: Layout, seed: string): Props {
  const out: Props = {};
  for (const f of layout as Field[]) {
    const name = f[1];
    switch (f[2]) {
      case 'string':
        out[name] = `${seed}-${name}-é`;
        break;
      case 'bool':
        out[name] = true;
        break;
      case 'double':
        out[name] = 1.5;
        break;
      case 'int':
        out[name] = 2;
        break;
      case 'bytes':
        out[name] = Buffer.from([1, 2, 3]);
        break;
      case 'struct':
        out[name] = { ...VALUE, [name]: seed };
        break;
      case 'strings':
        out[name] = [`${name}-1`, `${name}-2`];
        break;
      case 'message':
        out[name] = sample(f[3], `${seed}.${name}`);
        break;
      case 'messages':
        out[name] = [sample(f[3], `${seed}.${name}0`), sample(f[3], `${seed}.${name}1`)];
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
  }
  return out;
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

test('every message layout matches the stubs: ours → stub → ours loses nothing', () => {
  for (const [name, layout] of Object.entries(LAYOUTS)) {
    const value = sample(layout, name);
    const bytes = encode(value, layout);
    const again = stub(name).deserializeBinary(bytes).serializeBinary();
    assert.deepEqual(decode(Buffer.from(again), layout), decode(bytes, layout), name);
    assert.deepEqual(decode(bytes, layout), value, name);
  }
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
