import { describe, it, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  applyIgnoreChanges,
  changedKeys,
  goPropertyValue,
  makeSecret,
  parseDuration,
  parsePath,
  pathContains,
  unknownValue,
} from './values';

describe('values', () => {
  it('ignoreChanges keeps the old input at each path, and drops what was not set before', () => {
    const olds = { displayName: 'a', tags: { env: 'prod', team: 'x' } };
    const news = { displayName: 'b', tags: { env: 'dev', team: 'y' }, extra: 1 };
    assert.deepEqual(applyIgnoreChanges(olds, news, ['displayName', 'tags.env', 'extra']), {
      displayName: 'a',
      tags: { env: 'prod', team: 'y' },
    });
    assert.deepEqual(parsePath('a.b[0]["c.d"]'), ['a', 'b', 0, 'c.d']);
    // A bracketed key is a JSON string, as the plugin writes one with quotes in it.
    assert.deepEqual(parsePath(`tags[${JSON.stringify('a"b.c')}]`), ['tags', 'a"b.c']);
  });

  it('compares inputs ignoring secret wrappers', () => {
    assert.deepEqual(changedKeys({ a: makeSecret('x'), b: 1 }, { a: 'x', b: 2, c: 3 }), ['b', 'c']);
  });

  it("counts a null as absent, as Pulumi's PropertyMap.Diff counts only values", () => {
    assert.deepEqual(changedKeys({ a: 1, t: null }, { a: 1 }), []);
    assert.deepEqual(changedKeys({ a: 1 }, { a: 1, t: null }), []);
    assert.deepEqual(changedKeys({ t: null }, { t: 0 }), ['t']);
  });

  it('reads customTimeouts durations as Go writes them', () => {
    assert.equal(parseDuration('1h30m'), 5400);
    assert.equal(parseDuration('90s'), 90);
    assert.equal(parseDuration('5m'), 300);
    assert.equal(parseDuration(''), undefined);
  });
});

test("pathContains is Pulumi's PropertyPath.Contains: a prefix, segment by segment, * for any one", () => {
  const contains = (a: string, b: string) => pathContains(parsePath(a), parsePath(b));
  assert.equal(contains('freeformTags.env', 'freeformTags["env"]'), true);
  assert.equal(contains('freeformTags', 'freeformTags.env'), true);
  assert.equal(contains('freeformTags.env', 'freeformTags'), false);
  assert.equal(contains('freeformTags.env', 'freeformTags.team'), false);
  assert.equal(contains('*', 'displayName'), true);
  assert.equal(contains('a[*].b', 'a[2].b.c'), true);
  assert.equal(contains('a[0]', 'a[1]'), false);
});

test('goPropertyValue prints values as Pulumi messages print a PropertyValue', () => {
  assert.equal(goPropertyValue('BOGUS'), '{BOGUS}');
  assert.equal(goPropertyValue(undefined), '{<nil>}');
  assert.equal(goPropertyValue(true), '{true}');
  assert.equal(goPropertyValue(2), '{2}');
  assert.equal(goPropertyValue(0.5), '{0.5}');
  assert.equal(goPropertyValue(123456), '{123456}');
  assert.equal(goPropertyValue(1e6), '{1e+06}');
  assert.equal(goPropertyValue(1234567), '{1.234567e+06}');
  assert.equal(goPropertyValue(0.00001), '{1e-05}');
  assert.equal(goPropertyValue(['a', 1]), '{[{a} {1}]}');
  assert.equal(goPropertyValue({ b: 1, a: 'x' }), '{map[a:{x} b:{1}]}');
  assert.equal(goPropertyValue(makeSecret('hunter2')), '{[secret]}');
  assert.equal(goPropertyValue(unknownValue), 'output<string>{}');
});
