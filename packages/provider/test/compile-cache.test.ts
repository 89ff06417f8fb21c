// bin/compile-cache.js, the compile cache the bins and ocikit's program preload use where Node has
// none of its own (Node 20): each case starts fresh Node processes, as every start of the plugin,
// of ocikit or of a program is one. It is enabled directly here, so it is tested on every Node.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const COMPILE_CACHE = join(__dirname, '..', 'bin', 'compile-cache.js');

let root: string;
let cacheDir: string;
let pkg: string;

/** What a process that loads the fixture package sees, and what its cache did. */
interface Seen {
  value: number;
  filename: string;
  dirname: string;
  sibling: string;
  resolved: string;
  mainIsMain: boolean;
  imported: string;
  throwsAt: string;
  stats: { hits: number; compiled: number; rejected: number };
  cacheFiles: number;
}

/** Starts a Node process that enables the cache (unless `disabled`), loads the fixture and reports. */
function load(options: { disabled?: boolean; setFlagAfter?: boolean; tmpdir?: string } = {}): Seen {
  const main = `
    const cache = require(${JSON.stringify(COMPILE_CACHE)});
    cache.enable();
    const fixture = require(${JSON.stringify(pkg)});
    fixture.imported().then((imported) => {
      let throwsAt = '';
      try { fixture.fail(); } catch (e) { throwsAt = e.stack.split('\\n')[1].trim(); }
      if (${options.setFlagAfter === true}) require('node:v8').setFlagsFromString('--allow-natives-syntax');
      process.stdout.write(JSON.stringify({ ...fixture.seen(), imported, throwsAt, stats: cache.stats }));
    });`;
  // The default folder (under os.tmpdir(), which TMPDIR moves), or the test's own.
  const env: NodeJS.ProcessEnv = options.tmpdir
    ? { ...process.env, TMPDIR: options.tmpdir, NODE_COMPILE_CACHE: '' }
    : { ...process.env, NODE_COMPILE_CACHE: cacheDir };
  delete env.NODE_OPTIONS;
  if (options.disabled) env.NODE_DISABLE_COMPILE_CACHE = '1';
  else delete env.NODE_DISABLE_COMPILE_CACHE;
  const out = execFileSync(process.execPath, ['-e', main], { cwd: root, env, encoding: 'utf8' });
  // The entries are written at the process's exit.
  const cacheFiles = existsSync(cacheDir)
    ? readdirSync(cacheDir, { recursive: true }).filter((f) => /[0-9a-f]{40}$/.test(String(f))).length
    : 0;
  return { ...(JSON.parse(out) as Omit<Seen, 'cacheFiles'>), cacheFiles };
}

function writeFixture(value: number): void {
  // The error is made on the file's first line, after some columns, where a wrapper header on the
  // same line would shift the column. The text `import(` in a string and a comment is not a call,
  // nor is `Function.prototype` code made: the module is still cached.
  writeFileSync(
    join(pkg, 'index.js'),
    [
      `'use strict'; exports.fail = () => { throw new Error('from the fixture'); };`,
      `const sibling = require('./sibling');`,
      `const dynamic = require('./dynamic');`,
      `exports.value = ${value};`,
      `const made = require('./made');`,
      `exports.imported = () => Promise.all([dynamic.load('./esm.mjs'), made.load('./esm.mjs')]).then((n) => n.join());`,
      `exports.source = Function.prototype.toString.call(made.load).length > 0; // not import('./esm.mjs') itself`,
      `exports.seen = () => ({ value: exports.value, filename: __filename, dirname: __dirname, sibling: sibling.name,`,
      `  resolved: require.resolve('./sibling'), mainIsMain: require.main === process.mainModule, text: "import(" });`,
    ].join('\n'),
  );
}

describe('compile cache (bin/compile-cache.js)', () => {
  before(() => {
    root = mkdtempSync(join(tmpdir(), 'ocikit-compile-cache-test-'));
    cacheDir = join(root, 'cache');
    pkg = join(root, 'node_modules', 'fixture');
    mkdirSync(pkg, { recursive: true });
    writeFileSync(join(pkg, 'sibling.js'), `exports.name = 'sibling';\n`);
    writeFileSync(join(pkg, 'esm.mjs'), `export const name = 'esm';\n`);
    // Call import(), which a script from a code cache cannot do on Node 20, nor code it makes: Node
    // compiles them.
    writeFileSync(
      join(pkg, 'dynamic.js'),
      `exports.load = (m) => import /* an ES module */ (m).then((e) => e.name);\n`,
    );
    writeFileSync(
      join(pkg, 'made.js'),
      `const load = new Function('m', 'return import(m)');\nexports.load = (m) => load(m).then((e) => e.name);\n`,
    );
    writeFixture(1);
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  it('compiles node_modules anew once, then from the cache, and the module sees what Node gives it', () => {
    const nodeOwn = load({ disabled: true });
    assert.deepEqual(nodeOwn.stats, { hits: 0, compiled: 0, rejected: 0 });
    assert.equal(nodeOwn.cacheFiles, 0, 'NODE_DISABLE_COMPILE_CACHE=1 writes nothing');

    const first = load();
    assert.deepEqual(first.stats, { hits: 0, compiled: 2, rejected: 0 }, 'index.js and sibling.js');
    assert.equal(first.cacheFiles, 4, 'the two, and the marks that dynamic.js and made.js call import()');
    const second = load();
    assert.deepEqual(second.stats, { hits: 2, compiled: 0, rejected: 0 });

    for (const seen of [first, second]) {
      const { stats: _s, cacheFiles: _c, ...module } = seen;
      const { stats: _ns, cacheFiles: _nc, ...own } = nodeOwn;
      assert.deepEqual(module, own);
    }
    assert.equal(nodeOwn.value, 1);
    assert.equal(nodeOwn.sibling, 'sibling');
    assert.equal(nodeOwn.imported, 'esm,esm', 'modules that call import(), or make code that does, load an ES module');
    assert.equal(nodeOwn.mainIsMain, true);
    assert.match(nodeOwn.throwsAt, /index\.js:1:\d+\)$/);
  });

  it('never serves a changed source from the cache, even one of the same length', () => {
    load();
    writeFixture(2);
    try {
      const changed = load();
      assert.equal(changed.value, 2);
      assert.deepEqual(
        changed.stats,
        { hits: 1, compiled: 1, rejected: 0 },
        'sibling.js from the cache, index.js anew',
      );
      assert.deepEqual(load().stats, { hits: 2, compiled: 0, rejected: 0 });
    } finally {
      writeFixture(1);
    }
  });

  it('writes nothing when a V8 flag set after start would make the entries unusable', () => {
    rmSync(cacheDir, { recursive: true, force: true });
    const flagged = load({ setFlagAfter: true });
    assert.equal(flagged.stats.compiled, 2);
    assert.equal(flagged.cacheFiles, 0);
    assert.deepEqual(load().stats, { hits: 0, compiled: 2, rejected: 0 });
  });

  it('uses a folder of its own in the temporary directory, and none that others made or can write to', () => {
    const shared = join(root, 'tmp');
    const folder = join(shared, `ocikit-compile-cache-${process.getuid?.() ?? 'user'}`);
    mkdirSync(shared);
    assert.deepEqual(load({ tmpdir: shared }).stats, { hits: 0, compiled: 2, rejected: 0 });
    assert.equal(statSync(folder).mode & 0o777, 0o700, 'made private');
    assert.deepEqual(load({ tmpdir: shared }).stats, { hits: 2, compiled: 0, rejected: 0 });

    chmodSync(folder, 0o777);
    assert.deepEqual(load({ tmpdir: shared }).stats, { hits: 0, compiled: 0, rejected: 0 }, 'off: writable by all');
    rmSync(folder, { recursive: true });
    symlinkSync(cacheDir, folder);
    assert.deepEqual(load({ tmpdir: shared }).stats, { hits: 0, compiled: 0, rejected: 0 }, 'off: a link elsewhere');
  });
});
