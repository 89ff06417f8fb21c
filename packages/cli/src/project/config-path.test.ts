import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getAt, setAt, splitConfigPath } from './config-path';

test("a --path key is read as Pulumi's ParsePropertyPath reads it", () => {
  assert.deepEqual(splitConfigPath('data.servers[0].host'), { key: 'data', path: ['servers', 0, 'host'] });
  assert.deepEqual(splitConfigPath('oci:tags["cost.center"]'), { key: 'oci:tags', path: ['cost.center'] });
  assert.deepEqual(splitConfigPath('a["say \\"hi\\""]'), { key: 'a', path: ['say "hi"'] });
  assert.deepEqual(splitConfigPath('units'), { key: 'units', path: [] });
});

test('a malformed --path key is refused in the words of Pulumi (properties_path.go, config map.go)', () => {
  for (const [key, reason] of [
    ['a[', 'invalid config key path: missing closing bracket in array index'],
    ['a[x]', 'invalid config key path: invalid array index: strconv.ParseInt: parsing "x": invalid syntax'],
    ['a["x', 'invalid config key path: missing closing quote in property name'],
    ['a["x"', 'invalid config key path: missing closing bracket in property access'],
    // ParseInt into a Go int (64 bits).
    [
      'a[9223372036854775808]',
      'invalid config key path: invalid array index: strconv.ParseInt: parsing "9223372036854775808": value out of range',
    ],
    ['[0]', 'first path segement of config key must be a string'],
    ['', 'empty config key path'],
  ]) {
    assert.throws(() => splitConfigPath(key), { message: reason }, key);
  }
});

test('a negative index names nothing: not read, and refused when set, as config map.go refuses it', () => {
  assert.deepEqual(splitConfigPath('a[-1]'), { key: 'a', path: [-1] });
  assert.deepEqual(getAt(['x'], [-1]), { found: false });
  assert.throws(() => setAt([], [-1], 'v'), /index -1 is out of range/);
  assert.deepEqual(setAt(['x'], [1], 'v'), ['x', 'v']);
});
