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
    ['.c', 'invalid config key path: expected property path to start with a name or index'],
    ['a.', 'invalid config key path: expected property path to end with a name or index'],
    ['[0]', 'first path segement of config key must be a string'],
    ['', 'empty config key path'],
  ]) {
    assert.throws(() => splitConfigPath(key), { message: reason }, key);
  }
});

test('a negative index names nothing: not read, and refused when set, as config map.go refuses it', () => {
  assert.deepEqual(splitConfigPath('a[-1]'), { key: 'a', path: [-1] });
  assert.deepEqual(getAt(['x'], [-1]), { found: false });
  assert.throws(() => setAt([], [-1], 'v'), { message: 'array index out of range' });
  assert.deepEqual(setAt(['x'], [1], 'v'), ['x', 'v']);
});

// config's Map.Set, getValue and setValue (sdk/go/common/resource/config/map.go), their errors unwrapped by config set.
test("an index past the end of a list, or a path through a value of the other kind, is refused in Map.Set's words", () => {
  assert.throws(() => setAt(['x'], [5], 'v'), { message: 'array index out of range' });
  assert.throws(() => setAt({ a: ['x'] }, ['a', 5, 'b'], 'v'), { message: 'array index out of range' });
  assert.throws(() => setAt({ a: 'x' }, ['a', 0], 'v'), { message: 'an array was expected for index 0' });
  assert.throws(() => setAt({ a: ['x'] }, ['a', 'b'], 'v'), { message: 'a map was expected for key "b"' });
});
