import { test } from 'node:test';
import assert from 'node:assert/strict';
import { configJson } from './config-json';

test('config objects are written as Go marshals a map: keys by their UTF-8 bytes, integer-like ones too', () => {
  assert.equal(
    configJson({ b: 1, a: [{ z: true, y: null }], 2: 'two', 10: 'ten' }),
    '{"10":"ten","2":"two","a":[{"y":null,"z":true}],"b":1}',
  );
  assert.equal(configJson('x'), '"x"');
  // Indented as Go's MarshalIndent (and JSON.stringify) indents, keys still in Go's order.
  const value = { b: [1, { d: {}, c: [] }], a: 'x' };
  assert.equal(configJson(value, '    '), JSON.stringify({ a: 'x', b: [1, { c: [], d: {} }] }, null, 4));
});
