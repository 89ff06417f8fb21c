import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { scratchDir } from '../../../emulator/test/support/scratch';
import {
  crypterFromState,
  IncorrectPassphraseError,
  newEncryptionState,
  passphraseFromEnv,
  PassphraseError,
  SecretValueError,
} from './passphrase';

// Written by Pulumi itself: pulumi/pulumi pkg/secrets/passphrase/manager_test.go (passphrase "password").
const PULUMI_STATE = 'v1:fozI5u6B030=:v1:F+6ZduKKd8G0/V7L:PGMFeIzwobWRKmEAzUdaQHqC5mMRIQ==';

test('accepts the encryptionsalt Pulumi wrote for passphrase "password", rejects another passphrase', () => {
  const crypter = crypterFromState('password', PULUMI_STATE);
  assert.equal(crypter.decrypt(PULUMI_STATE.slice('v1:fozI5u6B030=:'.length)), 'pulumi');
  assert.throws(() => crypterFromState('password123', PULUMI_STATE), IncorrectPassphraseError);
});

test('values round-trip in the v1:<nonce>:<ciphertext> form and a new state checks its passphrase', () => {
  const { state, crypter } = newEncryptionState('');
  assert.match(state, /^v1:[A-Za-z0-9+/]{11}=:v1:[A-Za-z0-9+/]{16}:[A-Za-z0-9+/=]+$/);
  const secret = crypter.encrypt('s3cr3t ✓');
  assert.match(secret, /^v1:[A-Za-z0-9+/]{16}:[A-Za-z0-9+/=]+$/);
  assert.equal(crypterFromState('', state).decrypt(secret), 's3cr3t ✓');
  assert.throws(() => crypterFromState('other', state), /incorrect passphrase/);
});

test('the passphrase comes from PULUMI_CONFIG_PASSPHRASE (empty allowed) or PULUMI_CONFIG_PASSPHRASE_FILE', () => {
  assert.equal(passphraseFromEnv({ PULUMI_CONFIG_PASSPHRASE: '' }), '');
  const file = join(scratchDir('pass'), 'pass');
  writeFileSync(file, 'from-file\n');
  assert.equal(passphraseFromEnv({ PULUMI_CONFIG_PASSPHRASE_FILE: file }), 'from-file');
  assert.equal(passphraseFromEnv({}), undefined);
  assert.throws(() => passphraseFromEnv({ PULUMI_CONFIG_PASSPHRASE_FILE: file + '.missing' }), PassphraseError);
  // Pulumi's readPassphrase words, os.ReadFile's *fs.PathError of the absolute path in Go's.
  assert.throws(() => passphraseFromEnv({ PULUMI_CONFIG_PASSPHRASE_FILE: file + '.missing' }), {
    message: `unable to read PULUMI_CONFIG_PASSPHRASE_FILE: open ${file}.missing: no such file or directory`,
  });
  assert.throws(() => passphraseFromEnv({ PULUMI_CONFIG_PASSPHRASE_FILE: dirname(file) }), {
    message: `unable to read PULUMI_CONFIG_PASSPHRASE_FILE: read ${dirname(file)}: is a directory`,
  });
});

// The key opened the salt, so a value it cannot decrypt is the value's fault, not the passphrase's:
// Pulumi's symmetricCrypter (crypt.go DecryptValue) says what is wrong with it.
test("a value the stack's key cannot decrypt is refused in crypt.go's words, not as a wrong passphrase", () => {
  const crypter = crypterFromState('password', PULUMI_STATE);
  const value = crypter.encrypt('x');
  const [, nonce, sealed] = value.split(':');
  const tampered = `v1:${nonce}:${sealed[0] === 'A' ? 'B' : 'A'}${sealed.slice(1)}`;
  for (const [bad, reason] of [
    [tampered, 'cipher: message authentication failed'],
    [`v1:${nonce}:AAAA`, 'cipher: message authentication failed'],
    ['v1:AAAA', 'bad value'],
    [`v2:${nonce}:${sealed}`, 'unknown value version'],
    [`v1:${nonce.slice(0, 8)}:${sealed}`, 'bad value: nonce size is incorrect'],
    [`v1:${nonce}:${sealed.slice(0, 3)}!${sealed.slice(4)}`, 'bad value: illegal base64 data at input byte 3'],
  ])
    assert.throws(
      () => crypter.decrypt(bad),
      (e: Error) => e instanceof SecretValueError && e.message === reason,
      bad,
    );
});
