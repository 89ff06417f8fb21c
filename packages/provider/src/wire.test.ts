import { test } from 'node:test';
import assert from 'node:assert/strict';
import { containsUnknown, keepSecrets, protect, reveal, secret } from './wire';

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
  const inputs = { name: secret('s'), tags: { a: secret('b') }, list: [secret('c'), 'd'], plain: 1 };
  assert.deepEqual(reveal(inputs), { name: 's', tags: { a: 'b' }, list: ['c', 'd'], plain: 1 });
  const out = keepSecrets(
    { name: 's', tags: { a: 'b2', z: 'y' }, list: ['c', 'd'], plain: 1, gone: undefined, when: new Date(0) },
    inputs,
  );
  // As Pulumi's annotateSecrets: into a map, only the secret entry; a list or a plain value whole.
  assert.deepEqual(out, {
    name: secret('s'),
    tags: { a: secret('b2'), z: 'y' },
    list: secret(['c', 'd']),
    plain: 1,
    when: '1970-01-01T00:00:00.000Z',
  });
  assert.deepEqual(keepSecrets({ name: secret('s') }, inputs), { name: secret('s') });
  assert.deepEqual(keepSecrets({ tags: { a: 'b' } }, { tags: secret({ a: 'b' }) }), { tags: secret({ a: 'b' }) });
  assert.deepEqual(protect({ key: 'k' }, new Set(['key'])), { key: secret('k') });
});
