import { test } from 'node:test';
import assert from 'node:assert/strict';
import { envFlag } from './env';

test('a bool variable is true for 1 or true in any case; its older name counts only while its own is unset', () => {
  for (const v of ['1', 'true', 'TRUE', 'True']) assert.equal(envFlag('A', undefined, { A: v }), true, v);
  for (const v of ['0', 'false', 'yes', '', ' true']) assert.equal(envFlag('A', undefined, { A: v }), false, v);
  assert.equal(envFlag('A', 'OLD_A', { OLD_A: 'true' }), true);
  // value.Underlying: the new name, even empty or false, hides the old one.
  assert.equal(envFlag('A', 'OLD_A', { A: '', OLD_A: 'true' }), false);
  assert.equal(envFlag('A', 'OLD_A', { A: 'false', OLD_A: 'true' }), false);
  assert.equal(envFlag('A', 'OLD_A', {}), false);
});
