#!/usr/bin/env node
// Runs every *.test.ts under the current package's src/, test/ and codegen/ with Node's test runner and
// tsx. Node 20's --test takes no globs, so the files are found here and listed explicitly.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

const files = ['src', 'test', 'codegen']
  .flatMap((dir) => {
    try {
      return readdirSync(dir, { recursive: true }).map((f) => join(dir, String(f)));
    } catch {
      return [];
    }
  })
  .filter((f) => f.endsWith('.test.ts') && !f.includes('node_modules'))
  .sort();
if (files.length === 0) {
  console.error('run-tests: no test files found');
  process.exit(1);
}
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', ...process.argv.slice(2), ...files], {
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
