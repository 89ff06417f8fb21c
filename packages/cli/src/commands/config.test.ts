import { mock, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '../../../emulator/test/support/scratch';
import { readProject } from '../project/project';
import { StackConfigFile } from '../project/stack-config';
import { stackCrypter } from '../secrets/stack-crypter';
import { configList } from './config';

test('config --show-secrets derives the passphrase key once, however many secrets the stack has', (t) => {
  const dir = scratchDir('config-list');
  writeFileSync(join(dir, 'Pulumi.yaml'), 'name: shop\nruntime: nodejs\n');
  process.env.PULUMI_CONFIG_PASSPHRASE = 'correct horse';
  t.after(() => delete process.env.PULUMI_CONFIG_PASSPHRASE);
  const file = StackConfigFile.open(readProject(dir), 'dev');
  const crypter = stackCrypter(file);
  for (const key of ['a', 'b', 'c']) file.set(key, crypter.encrypt(`secret-${key}`), true);
  file.save();

  // Each derivation is 1,000,000 PBKDF2 rounds (about a second): one per secret was 3 s here.
  const derive = t.mock.method(crypto, 'pbkdf2Sync');
  const printed: string[] = [];
  t.mock.method(process.stdout, 'write', (chunk: string) => printed.push(chunk) > 0);
  configList({ cwd: dir, stack: 'dev', showSecrets: true });
  mock.restoreAll();

  assert.match(printed.join(''), /a\s+secret-a\n.*b\s+secret-b\n.*c\s+secret-c\n/s);
  assert.equal(derive.mock.callCount(), 1);
});
