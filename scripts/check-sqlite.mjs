#!/usr/bin/env node
// Runs after `npm install` / `npm ci` (root `prepare`). On Node.js older than 22.13 the emulator
// stores its data through better-sqlite3, a native optional dependency: npm skips it without a word
// when it cannot be built, and the first `ocikit` run would then fail. Say so now, with the fix.
// Its build needs Node's C headers: a prebuilt binary (downloaded from GitHub), or headers from
// nodejs.org, or headers on disk named by npm's `nodedir` (Debian's nodejs has them in /usr).
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const [major, minor] = process.versions.node.split('.').map(Number);
const builtIn = major > 23 || (major === 23 && minor >= 4) || (major === 22 && minor >= 13);
if (builtIn) process.exit(0);

const require = createRequire(join(process.cwd(), 'packages', 'emulator', 'package.json'));
try {
  const Database = require('better-sqlite3');
  new Database(':memory:').close();
  process.exit(0);
} catch (error) {
  // This Node's own headers, where an installer put them (<prefix>/include/node).
  const prefix = dirname(dirname(process.execPath));
  const versionHeader = join(prefix, 'include', 'node', 'node_version.h');
  const own = existsSync(versionHeader) && headerVersion(versionHeader) === process.versions.node;
  const fix = own
    ? `npm_config_nodedir=${prefix} npm ci   (this Node's headers are in ${prefix}/include/node)`
    : "give npm access to github.com or nodejs.org, or set npm_config_nodedir to a folder holding this Node version's include/node headers, then npm ci again";
  console.error(
    [
      '',
      `ocikit: better-sqlite3 could not be built for Node.js ${process.version} (${String(error.message).split('\n')[0]}).`,
      'The emulator (the default cloud of `ocikit` and of every test) needs it on Node older than 22.13.',
      `Fix: ${fix}`,
      'or use Node.js 22.13+ / 24, which have SQLite built in.',
      '',
    ].join('\n'),
  );
  process.exit(1);
}

function headerVersion(file) {
  const text = readFileSync(file, 'utf8');
  const part = (name) => text.match(new RegExp(`#define\\s+NODE_${name}_VERSION\\s+(\\d+)`))?.[1];
  return [part('MAJOR'), part('MINOR'), part('PATCH')].join('.');
}
