// The preload ocikit puts before @pulumi/pulumi/cmd/run in the program's process
// (preload/program-start.js), run in a plain Node process against the repository's @pulumi/pulumi.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'node:test';
import { PROGRAM_START } from '../../src/engine/program';

function runPreloaded<T>(script: string, options: { env?: NodeJS.ProcessEnv; cwd?: string } = {}): T {
  const run = spawnSync(
    process.execPath,
    ['--require', PROGRAM_START, '-e', script, require.resolve('@pulumi/pulumi')],
    {
      encoding: 'utf8',
      cwd: options.cwd ?? __dirname,
      env: { ...process.env, PULUMI_DEBUG_PROMISE_LEAKS: '', ...options.env },
    },
  );
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout) as T;
}

// Makes one promise through Pulumi's own debuggablePromise, as its runtime does for each property.
const MAKE_PROMISE = `
const debuggable = require('@pulumi/pulumi/runtime/debuggable');
const p = Promise.resolve(1);
function declareResource() { return debuggable.debuggablePromise(p, 'transferProperty(r, id)'); }
declareResource();
process.stdout.write(JSON.stringify({ stack: p._debugStackTrace, ctx: p._debugCtx, id: typeof p._debugId,
  limit: Error.stackTraceLimit, thrown: new Error('x').stack.split('\\n').length > 1 }));
`;

interface MadePromise {
  stack: string;
  ctx: string;
  id: string;
  limit: number;
  thrown: boolean;
}

test("program start: Pulumi's promises carry no formatted stack unless leak debugging asks for one", () => {
  const plain = runPreloaded<MadePromise>(MAKE_PROMISE);
  // The frames are what cost (each one mapped through source maps): none are captured.
  assert.equal(plain.stack, 'Error');
  // The rest of Pulumi's bookkeeping is untouched, and errors elsewhere keep their frames.
  assert.equal(plain.ctx, 'transferProperty(r, id)');
  assert.equal(plain.id, 'number');
  assert.equal(plain.limit, 10);
  assert.equal(plain.thrown, true);

  // PULUMI_DEBUG_PROMISE_LEAKS prints these stacks in its leak report: then they are whole.
  const debugging = runPreloaded<MadePromise>(MAKE_PROMISE, { env: { PULUMI_DEBUG_PROMISE_LEAKS: 'true' } });
  assert.match(debugging.stack, /^Error\n\s+at .*debuggablePromise/);
  assert.match(debugging.stack, /at declareResource/);
});

// Loads @pulumi/pulumi, then serializes the code paths of a project with one dependency, as a
// program that packs a function into an archive does.
const CODE_PATHS = `
const pulumi = require(process.argv[1]);
const loaded = () => Object.keys(require.cache).some((f) => f.includes('@npmcli'));
const atStart = loaded();
pulumi.runtime.computeCodePaths().then((paths) => process.stdout.write(JSON.stringify({
  atStart, afterUse: loaded(), paths: [...paths.keys()] })));
`;

test("program start: npm's package tooling loads only when a program computes code paths, which still works", () => {
  const project = mkdtempSync(join(tmpdir(), 'ocikit-codepaths-'));
  try {
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'app', dependencies: { dep: '1.0.0' } }));
    mkdirSync(join(project, 'node_modules', 'dep'), { recursive: true });
    writeFileSync(
      join(project, 'node_modules', 'dep', 'package.json'),
      JSON.stringify({ name: 'dep', version: '1.0.0' }),
    );
    writeFileSync(join(project, 'node_modules', 'dep', 'index.js'), 'module.exports = 1;\n');
    const run = runPreloaded<{ atStart: boolean; afterUse: boolean; paths: string[] }>(CODE_PATHS, { cwd: project });
    assert.equal(run.atStart, false);
    assert.equal(run.afterUse, true);
    assert.deepEqual(run.paths, ['node_modules/dep']);
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
});
