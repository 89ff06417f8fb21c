import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];

/**
 * A fresh temporary directory (`$TMPDIR/ocikit-<name>-XXXXXX`), removed when the test process
 * exits, so test runs leave nothing behind. OCIKIT_KEEP_TEST_DIRS=1 keeps them, to look inside
 * after a failure. Symlinks inside (a program's linked node_modules) are removed, not followed.
 */
export function scratchDir(name: string): string {
  if (made.length === 0)
    process.on('exit', () => {
      if (process.env.OCIKIT_KEEP_TEST_DIRS === '1') return;
      for (const dir of made) rmSync(dir, { recursive: true, force: true });
    });
  const dir = mkdtempSync(join(tmpdir(), `ocikit-${name}-`));
  made.push(dir);
  return dir;
}
