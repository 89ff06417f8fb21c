import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '../../emulator/test/support/scratch';
import { startEmbeddedCloud } from './embedded';

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
