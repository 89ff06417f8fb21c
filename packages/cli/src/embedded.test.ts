import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '../../emulator/test/support/scratch';
import { configuredCloud, startEmbeddedCloud } from './embedded';

// One emulator serves a program's embedded cloud: a second command while the first runs is told
// which command holds it, in one line, and can start once the first has ended.
test('a second embedded cloud on the same program is refused, naming the command that holds it', async () => {
  const dir = scratchDir('ocikit-embedded-');
  process.env.XDG_CONFIG_HOME = join(dir, 'config-home');
  const first = await startEmbeddedCloud(dir);
  const owner = join(dir, '.ocikit', 'emulator', 'owner.json');
  try {
    assert.ok(existsSync(owner));
    await assert.rejects(
      startEmbeddedCloud(dir),
      new RegExp(
        `^Error: its data in .+ is in use by another ocikit command \\(pid ${process.pid}: ocikit[^)]*\\); one emulator serves a program's embedded cloud at a time: run this command after it ends$`,
      ),
    );
  } finally {
    await first.close();
  }
  assert.equal(existsSync(owner), false, 'the owner file goes with its emulator');
  const second = await startEmbeddedCloud(dir);
  await second.close();
});

// Credentials the plugin reads count wherever it reads them: pulumi-oci's Terraform provider takes
// TF_VAR_<key> as well as OCI_<KEY>, so a shell set up for it uses that cloud, not the emulator.
test("Terraform's TF_VAR_ credentials, OCI_AUTH and OCI_CONFIG_FILE_PROFILE are a configured cloud", () => {
  for (const name of [
    'TF_VAR_tenancy_ocid',
    'TF_VAR_private_key_path',
    'TF_VAR_auth',
    'OCI_AUTH',
    'OCI_CONFIG_FILE_PROFILE',
  ]) {
    assert.equal(configuredCloud({}, { [name]: 'x' }), `environment ${name}`);
  }
  // Region alone is not a cloud: the embedded emulator serves every region.
  const home = scratchDir('ocikit-home-');
  const saved = process.env.HOME;
  process.env.HOME = home;
  try {
    assert.equal(configuredCloud({ 'oci:region': 'us-phoenix-1' }, { TF_VAR_region: 'us-phoenix-1' }), undefined);
  } finally {
    process.env.HOME = saved;
  }
});
