// The preload ocikit puts before @pulumi/pulumi/cmd/run in the program's process
// (preload/program-start.js), run in a plain Node process against the repository's @pulumi/pulumi.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'node:test';
import { PROGRAM_START } from '../../src/engine/program';

function runPreloaded<T>(
  script: string,
  options: { env?: NodeJS.ProcessEnv; cwd?: string; preload?: boolean } = {},
): T {
  const run = spawnSync(
    process.execPath,
    [
      ...(options.preload === false ? [] : ['--require', PROGRAM_START]),
      '-e',
      script,
      require.resolve('@pulumi/pulumi'),
    ],
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

// As cmd/run does before the program: awaits the inspector hooks. Then, as a program does,
// serializes a function (an AWS Lambda's callback, say) and one that cannot be serialized, from
// a file loaded after the hooks, counting the inspector sessions connected along the way.
const SERIALIZE = `
const { Session } = require('node:inspector');
let sessions = 0;
const connect = Session.prototype.connect;
Session.prototype.connect = function () { sessions++; return connect.call(this); };
const pulumi = require(process.argv[1]);
require(require.resolve('@pulumi/pulumi/runtime/closure/v8Hooks', { paths: [process.argv[1]] }))
  .isInitializedAsync()
  .then(async () => {
    const atStart = sessions;
    const { handler, unserializable } = require(require('node:path').resolve('handlers.js'));
    const serialized = await pulumi.runtime.serializeFunction(handler);
    const error = await pulumi.runtime.serializeFunction(unserializable).then(() => '', (e) => e.message);
    process.stdout.write(JSON.stringify({ atStart, after: sessions, text: serialized.text, error }));
  });
`;

const HANDLERS = `const answer = 42;
exports.handler = () => answer;
const bound = Math.max.bind(null);
exports.unserializable = () => bound(1);
`;

test('program start: the inspector starts only when a function is serialized, and its errors still name the file', () => {
  const project = mkdtempSync(join(tmpdir(), 'ocikit-serialize-'));
  try {
    writeFileSync(join(project, 'handlers.js'), HANDLERS);
    const run = runPreloaded<{ atStart: number; after: number; text: string; error: string }>(SERIALIZE, {
      cwd: project,
    });
    // Pulumi's start connects a session and enables V8's debugger; now nothing until first use.
    assert.equal(run.atStart, 0);
    assert.equal(run.after, 1);
    // The captured value was read through the inspector session.
    assert.match(run.text, /answer: 42/);
    // The location comes from the script-id map the session fills: the program's file is in it.
    assert.match(run.error, /^Error serializing '\(\) => bound\(1\)': handlers\.js\(4,25\)/);
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
});

// The program's modules are compiled from V8's cache of the last run: Node's own on Node 22.1+
// (module.enableCompileCache, in its default folder under TMPDIR), the plugin package's
// bin/compile-cache.js on Node 20. NODE_DISABLE_COMPILE_CACHE turns either off. (NODE_COMPILE_CACHE
// is not set here: it would turn Node's cache on by itself.)
const COMPILE_CACHE = `
const { getCompileCacheDir } = require('node:module');
require(process.argv[1]);
// As cmd/run does before the program: this sets --allow-natives-syntax.
require('@pulumi/pulumi/runtime/closure/v8Hooks');
const { stats } = require('@ocikit/pulumi-resource-oci/bin/compile-cache.js');
process.stdout.write(JSON.stringify({ dir: getCompileCacheDir?.() ?? null, stats }));
`;

interface CompileCacheRun {
  dir: string | null;
  stats: { hits: number; compiled: number; rejected: number };
}

test("program start: the compile cache is on (Node 22.1+: Node's own, Node 20: ocikit's), off with NODE_DISABLE_COMPILE_CACHE", () => {
  const nodeHasOne = typeof require('node:module').enableCompileCache === 'function';
  const cacheDir = mkdtempSync(join(tmpdir(), 'ocikit-compile-cache-'));
  const env = { TMPDIR: cacheDir, NODE_COMPILE_CACHE: undefined, NODE_DISABLE_COMPILE_CACHE: undefined };
  try {
    const first = runPreloaded<CompileCacheRun>(COMPILE_CACHE, { env });
    const second = runPreloaded<CompileCacheRun>(COMPILE_CACHE, { env });
    const off = runPreloaded<CompileCacheRun>(COMPILE_CACHE, { env: { ...env, NODE_DISABLE_COMPILE_CACHE: '1' } });
    assert.equal(off.dir, null);
    assert.deepEqual(off.stats, { hits: 0, compiled: 0, rejected: 0 });
    if (nodeHasOne) {
      assert.ok(first.dir?.startsWith(join(cacheDir, 'node-compile-cache')), `compile cache in ${first.dir}`);
      // What the next run reads: @pulumi/pulumi's modules were written to the cache.
      assert.ok(readdirSync(first.dir!).length > 100, 'cached modules');
      assert.deepEqual(second.stats, { hits: 0, compiled: 0, rejected: 0 }, "ocikit's is not used");
    } else {
      assert.equal(first.dir, null);
      assert.ok(
        first.stats.compiled > 100,
        `@pulumi/pulumi's modules compiled and kept: ${JSON.stringify(first.stats)}`,
      );
      // All of them from the cache: the preload sets @pulumi/pulumi's V8 flag before any loads,
      // so the cache written at exit fits the next start (none is refused, none written anew).
      assert.deepEqual(second.stats, { hits: first.stats.compiled, compiled: 0, rejected: 0 });
    }
  } finally {
    rmSync(cacheDir, { recursive: true, force: true });
  }
});

// One message of each level through @pulumi/pulumi's log module, to an engine that records them.
const LOG_LEVELS = `
const settings = require('@pulumi/pulumi/runtime/settings');
const sent = [];
settings.getEngine = () => ({
  log(request, callback) { sent.push([request.getSeverity(), request.getMessage()]); callback(null, {}); },
});
const log = require('@pulumi/pulumi/log');
Promise.all([log.debug('d'), log.info('i'), log.debug('d2'), log.warn('w')]).then(() =>
  process.stdout.write(JSON.stringify(sent)));
`;

test('program start: debug messages, which ocikit never shows, are not sent to the engine; the other levels are, in order', () => {
  const DEBUG = 0;
  const INFO = 1;
  const WARNING = 2;
  // As Pulumi's runtime sends them.
  assert.deepEqual(runPreloaded(LOG_LEVELS, { preload: false }), [
    [DEBUG, 'd'],
    [INFO, 'i'],
    [DEBUG, 'd2'],
    [WARNING, 'w'],
  ]);
  assert.deepEqual(runPreloaded(LOG_LEVELS), [
    [INFO, 'i'],
    [WARNING, 'w'],
  ]);
});

// An answer as the runtime receives it (decoded from the wire), and a request it sends: the text
// each gives, and what the runtime reads from the answer.
const ANSWER_TEXT = `
const resource = require('@pulumi/pulumi/proto/resource_pb');
const provider = require('@pulumi/pulumi/proto/provider_pb');
const { Struct } = require('google-protobuf/google/protobuf/struct_pb');
const outputs = { displayName: 'plan', planGroups: [{ id: 'g1', steps: [{ id: 's1', isEnabled: true }] }] };
const sent = new resource.RegisterResourceResponse();
sent.setUrn('urn:pulumi:dev::p::t::n');
sent.setId('id-1');
sent.setObject(Struct.fromJavaScript(outputs));
const answer = resource.RegisterResourceResponse.deserializeBinary(sent.serializeBinary());
const invoked = new provider.InvokeResponse();
invoked.setReturn(Struct.fromJavaScript(outputs));
const request = new resource.RegisterResourceRequest();
request.setName('n');
process.stdout.write(JSON.stringify({
  answer: String(answer), invoke: String(invoked), request: String(request),
  read: [answer.getUrn(), answer.getId(), answer.getObject().toJavaScript()],
}));
`;

test("program start: the engine's answers are not formatted as text for the debug messages that are not sent", () => {
  interface Texts {
    answer: string;
    invoke: string;
    request: string;
    read: unknown[];
  }
  const pulumis = runPreloaded<Texts>(ANSWER_TEXT, { preload: false });
  const preloaded = runPreloaded<Texts>(ANSWER_TEXT);
  // Pulumi's "RPC finished" debug text holds every output of the resource (google-protobuf's text).
  assert.match(pulumis.answer, /plan,.*g1.*s1/);
  assert.match(pulumis.invoke, /plan,.*g1/);
  assert.equal(preloaded.answer, '[pulumirpc.RegisterResourceResponse]');
  assert.equal(preloaded.invoke, '[pulumirpc.InvokeResponse]');
  // What the runtime reads is the same, and messages the runtime builds keep their text.
  assert.deepEqual(preloaded.read, pulumis.read);
  assert.equal(preloaded.request, pulumis.request);
});
