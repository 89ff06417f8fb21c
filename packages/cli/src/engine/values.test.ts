import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { applyIgnoreChanges, changedKeys, makeSecret, parseDuration, parsePath } from './values';

describe('values', () => {
  it('ignoreChanges keeps the old input at each path, and drops what was not set before', () => {
    const olds = { displayName: 'a', tags: { env: 'prod', team: 'x' } };
    const news = { displayName: 'b', tags: { env: 'dev', team: 'y' }, extra: 1 };
    assert.deepEqual(applyIgnoreChanges(olds, news, ['displayName', 'tags.env', 'extra']), {
      displayName: 'a',
      tags: { env: 'prod', team: 'y' },
    });
    assert.deepEqual(parsePath('a.b[0]["c.d"]'), ['a', 'b', 0, 'c.d']);
  });

  it('compares inputs ignoring secret wrappers', () => {
    assert.deepEqual(changedKeys({ a: makeSecret('x'), b: 1 }, { a: 'x', b: 2, c: 3 }), ['b', 'c']);
  });

  it('reads customTimeouts durations as Go writes them', () => {
    assert.equal(parseDuration('1h30m'), 5400);
    assert.equal(parseDuration('90s'), 90);
    assert.equal(parseDuration('5m'), 300);
    assert.equal(parseDuration(''), undefined);
  });
});
