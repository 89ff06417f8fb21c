import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '../../../emulator/test/support/scratch';
import { readProject } from '../project/project';
import { StackConfigFile } from '../project/stack-config';
import { stackCrypter } from './stack-crypter';

function stackFile(stack: string): { dir: string; file: StackConfigFile } {
  const dir = scratchDir('crypter');
  writeFileSync(join(dir, 'Pulumi.yaml'), 'name: c\nruntime: nodejs\n');
  writeFileSync(join(dir, 'Pulumi.dev.yaml'), stack);
  return { dir, file: StackConfigFile.open(readProject(dir), 'dev') };
}

// A stack file of another secrets provider (`pulumi stack init --secrets-provider awskms://…`)
// was given a passphrase salt beside it by the first `config set --secret`: a value its provider
// cannot read. It is refused, naming the provider and the way to move the stack.
test('a stack of another secrets provider is refused, not given a passphrase salt beside it', () => {
  const original =
    'secretsprovider: awskms://alias/pulumi?region=us-east-1\nencryptedkey: AQICAHhAA==\nconfig:\n  c:a:\n    secure: v1:AAAA:BBBB\n';
  const { dir, file } = stackFile(original);
  const crypter = stackCrypter(file, { PULUMI_CONFIG_PASSPHRASE: 'pw' });
  const refused =
    /uses the secrets provider 'awskms:\/\/alias\/pulumi\?region=us-east-1', and ocikit has only the passphrase provider/;
  assert.throws(() => crypter.encrypt('x'), refused);
  assert.throws(() => crypter.decrypt('v1:AAAA:BBBB'), refused);
  assert.equal(readFileSync(join(dir, 'Pulumi.dev.yaml'), 'utf8'), original, 'the file is left as it was');
});

test('secure values without a salt (Pulumi Cloud encrypted them) say how to go on', () => {
  const { file } = stackFile('config:\n  c:a:\n    secure: AAABAHVoE2NqF8B4E3Xsn1i4gpWoC8g3zYpgPTqcOeQ5v1Jh4KGIUA==\n');
  assert.throws(
    () => stackCrypter(file, { PULUMI_CONFIG_PASSPHRASE: 'pw' }).decrypt('AAABAHVo'),
    /no encryptionsalt: they were made by another secrets provider \(Pulumi Cloud's, by default\); set them again with `ocikit config set --secret`/,
  );
});

test("an explicit 'secretsprovider: passphrase' is the passphrase provider", () => {
  const { file } = stackFile('secretsprovider: passphrase\n');
  const crypter = stackCrypter(file, { PULUMI_CONFIG_PASSPHRASE: 'pw' });
  assert.equal(crypter.decrypt(crypter.encrypt('x')), 'x');
});
