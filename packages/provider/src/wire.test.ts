import { test } from 'node:test';
import assert from 'node:assert/strict';
import { containsUnknown, protect, reveal, secret, secretKeys } from './wire';

test('unknowns are recognised in every typed form, at any depth', () => {
  for (const u of [
    '04da6b54-80e4-46f7-96ec-b56ff0331ba9',
    '1c4a061d-8072-4f0a-a4cb-0ff528b18fe7',
    '3eeb2bf0-c639-47a8-9e75-3b44932eb421',
    '6a19a0b0-7e62-4c92-b797-7f8e31da9cc2',
    'dd056dcd-154b-4c76-9bd3-c8f88648b5ff',
  ]) {
    assert.ok(containsUnknown({ a: [{ b: u }] }));
  }
  assert.ok(!containsUnknown({ a: 'x' }));
});

test('secrets are revealed for OCI and wrapped again, once, in outputs; no undefined survives', () => {
  const inputs = { name: secret('s'), tags: { a: secret('b') }, plain: 1 };
  assert.deepEqual(reveal(inputs), { name: 's', tags: { a: 'b' }, plain: 1 });
  const keys = secretKeys(inputs);
  assert.deepEqual([...keys].sort(), ['name', 'tags']);
  const out = protect({ name: 's', tags: { a: 'b' }, plain: 1, gone: undefined, when: new Date(0) }, keys);
  assert.deepEqual(out, { name: secret('s'), tags: secret({ a: 'b' }), plain: 1, when: '1970-01-01T00:00:00.000Z' });
  assert.deepEqual(protect({ name: secret('s') }, keys), { name: secret('s') });
});
