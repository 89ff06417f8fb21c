import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const MAIN = join(__dirname, '../src/main.ts');
const run = (...args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', MAIN, '--in-memory', ...args], { encoding: 'utf8', timeout: 30_000 });

describe('ocikit-emulator flags', () => {
  it('refuses a --rate-limit of 0 in one line naming the flag, as the other number flags', () => {
    for (const value of ['0', '-1', 'none']) {
      const { status, stderr } = run('--rate-limit', value);
      assert.equal(status, 1, value);
      assert.equal(
        stderr,
        `error: option '--rate-limit <rps>' argument '${value}' is invalid. --rate-limit must be a positive number.\n`,
      );
    }
  });
});
