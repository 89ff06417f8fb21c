// Preloaded into the Pulumi program's process (`node --require`, before @pulumi/pulumi/cmd/run).
// Spares the program costs of @pulumi/pulumi that buy it nothing (sections 1, 2, 4, 5 and 6).
// Each is found by its file inside the program's own @pulumi/pulumi; one that is not there as
// expected is left alone. Measured on the bench's program (100 resources) under Pulumi's mocks,
// 2 cores: 1.8 s before sections 1 and 2, 0.85 s after, and 40 MB less (`npm run bench -w
// @ocikit/cli`, "program floor" rows); section 4 spares about 0.2 s of CPU more in a real run.
'use strict';
const Module = require('node:module');

// 0. V8's compiled code of the modules is kept on disk, so the next run of the program skips
// compiling @pulumi/pulumi, TypeScript and ts-node again (a 100-resource program's start: about a
// fifth less on Node 24). Node 22.1+ has its own cache (os.tmpdir()/node-compile-cache, or
// NODE_COMPILE_CACHE; NODE_DISABLE_COMPILE_CACHE=1 turns it off); on Node 20 the plugin's
// compile-cache.js keeps one for node_modules. A stale entry is recompiled.
// V8 takes a code cache only under the flags it was made with, and @pulumi/pulumi's runtime sets
// --allow-natives-syntax when it loads (closure/v8Hooks.js), half-way through the modules: a cache
// made on one side of that does not fit the other (Node 20's was then never written). The flag is
// set here first, as Pulumi sets it anyway before any of the user's code runs, so the whole
// process compiles and runs under one set of flags.
require('node:v8').setFlagsFromString('--allow-natives-syntax');
require('@ocikit/pulumi-resource-oci/bin/compile-cache.js').enableCompileCache();

// 1. `debuggablePromise` stores `new Error().stack` on every promise Pulumi makes (several per
// resource property), for one use only: the "Promise leak detected" report that
// PULUMI_DEBUG_PROMISE_LEAKS turns on. Reading `.stack` formats it at once, through the
// source-map-support that ts-node installs, which maps every frame: about 0.85 s of that 1.8 s.
// Without the switch the string is never read, so it is captured with no frames; with it,
// nothing changes. The promise, its id, its context and the leak detection stay Pulumi's own.
const DEBUGGABLE = /[\\/]@pulumi[\\/]pulumi[\\/]runtime[\\/]debuggable\.js$/;
// The modules of sections 4, 5 and 6, patched by the same loader hook.
const V8_HOOKS = /[\\/]@pulumi[\\/]pulumi[\\/]runtime[\\/]closure[\\/]v8Hooks\.js$/;
const LOG = /[\\/]@pulumi[\\/]pulumi[\\/]log[\\/]index\.js$/;
const RESPONSES = /[\\/]@pulumi[\\/]pulumi[\\/]proto[\\/](resource|provider)_pb\.js$/;

function withoutUnreadFrames(exports) {
  const original = exports.debuggablePromise;
  if (typeof original !== 'function') return;
  // Callers read the export at each call (`debuggable_1.debuggablePromise(…)`), so replacing it
  // reaches them all; the switch is read at each call, as Pulumi's own code reads it.
  exports.debuggablePromise = function debuggablePromise(...args) {
    if (exports.debugPromiseLeaks) return original.apply(this, args);
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      return original.apply(this, args);
    } finally {
      Error.stackTraceLimit = limit;
    }
  };
}

// Wraps the `.js` loader that is there now; ts-node, registered later by cmd/run, wraps this one
// in turn, so every CommonJS module still compiles as before.
const loadJs = Module._extensions['.js'];
Module._extensions['.js'] = function (module, filename) {
  loadJs.call(this, module, filename);
  if (DEBUGGABLE.test(filename)) withoutUnreadFrames(module.exports);
  else if (V8_HOOKS.test(filename)) inspectorOnFirstUse(module.exports);
  // With --debug ocikit shows the debug messages, so they are sent, with their text (5, 6).
  else if (LOG.test(filename) && !process.env.OCIKIT_PROGRAM_DEBUG) withoutUnshownDebug(module.exports);
  else if (RESPONSES.test(filename) && !process.env.OCIKIT_PROGRAM_DEBUG) withoutUnreadText(module.exports);
};

// 2. The runtime's index loads `closure/codePaths`, which loads npm's `@npmcli/arborist` (with
// pacote, sigstore, tar…) and `normalize-package-data` at once, though only `computeCodePaths`
// uses them: function serialization (`new pulumi.asset.AssetArchive` of a closure), which few
// programs call. About 0.2 s and 10 MB. They load on first use instead, from the same place.
const CODE_PATHS = /[\\/]@pulumi[\\/]pulumi[\\/]runtime[\\/]closure[\\/]codePaths\.js$/;
const ON_FIRST_USE = new Set(['@npmcli/arborist', 'normalize-package-data']);

/**
 * What the compiled `__importStar` / `__importDefault` take for the module: an ES-module-shaped
 * view (so they hand it back unchanged) that loads the module at the first property read.
 */
function onFirstUse(load) {
  let loaded;
  const module = () => (loaded ??= { exports: load() }).exports;
  return new Proxy(
    {},
    {
      get(_, property) {
        if (property === '__esModule') return true;
        const exports = module();
        // `__importDefault(require(x)).default` is the CommonJS export itself.
        if (property === 'default' && !(exports && exports.__esModule)) return exports;
        return exports[property];
      },
    },
  );
}

const load = Module._load;
Module._load = function (request, parent, ...rest) {
  if (ON_FIRST_USE.has(request) && parent && CODE_PATHS.test(parent.filename ?? ''))
    return onFirstUse(() => load.call(this, request, parent, ...rest));
  return load.call(this, request, parent, ...rest);
};

// 3. A program started ahead of its run (OCIKIT_PROGRAM_GATE names a descriptor; see
// PrestartedProgram in src/engine/program.ts): load now what cmd/run loads before the user's
// code, in cmd/run's own order, then wait for the run's arguments and config and hand over to
// cmd/run as if they had been there from the start. No module loaded here reads them at load
// time: @pulumi/pulumi reads its settings and config when the run first asks. If ocikit goes
// away or discards the run, the descriptor closes and the process ends without running anything.
const gate = process.env.OCIKIT_PROGRAM_GATE;
if (gate) {
  delete process.env.OCIKIT_PROGRAM_GATE;
  loadAhead();
  const { argv, env } = JSON.parse(readLine(Number(gate)) ?? process.exit(0));
  process.argv.push(...argv);
  // The stack's config (PULUMI_CONFIG, PULUMI_CONFIG_SECRET_KEYS) as the run has it.
  Object.assign(process.env, env);
}

/** cmd/run's modules, and TypeScript with ts-node for a TypeScript program; any that fails is left to cmd/run. */
function loadAhead() {
  const fromRun = Module.createRequire(require.resolve(process.argv[1]));
  const ahead = [
    './instrumentation',
    'source-map-support/register',
    '../../log',
    '../../runtime/settings',
    'minimist',
    '../../errors',
    '../../runtime/manifest',
    '../../runtime/stack',
    '../../tsutils',
    './tracing',
    './error',
  ];
  try {
    for (const id of ahead) fromRun(id);
    // TypeScript and ts-node as tsutils' typeScriptRequireStrings finds them (the program's own,
    // else @pulumi/pulumi's vendored copies); not through it: its debug log would set up
    // @pulumi/pulumi's settings before cmd/run has read its arguments.
    if (process.env.PULUMI_NODEJS_TYPESCRIPT === 'true') {
      const fromPulumi = Module.createRequire(fromRun.resolve('../../tsutils'));
      for (const [id, vendored] of [
        ['typescript', 'vendor/typescript@3.8.3/typescript.js'],
        ['ts-node', 'vendor/ts-node@7.0.1'],
      ]) {
        try {
          fromPulumi(id);
        } catch {
          fromPulumi(`./${vendored}`);
        }
      }
    }
    // What the program's `import * as pulumi from '@pulumi/pulumi'` loads (its own @pulumi/pulumi,
    // the one cmd/run belongs to).
    fromRun('../../index');
  } catch {
    // cmd/run loads them itself, and reports what is missing as it always does.
  }
}

/** One line from a descriptor, read synchronously (cmd/run must not start before it); null at end of input. */
function readLine(fd) {
  const fs = require('node:fs');
  const chunks = [];
  const buffer = Buffer.alloc(64 * 1024);
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    let n;
    try {
      n = fs.readSync(fd, buffer, 0, buffer.length, null);
    } catch (e) {
      if (e.code !== 'EAGAIN') throw e;
      Atomics.wait(pause, 0, 0, 5);
      continue;
    }
    if (n === 0) break;
    chunks.push(Buffer.from(buffer.subarray(0, n)));
    if (buffer[n - 1] === 0x0a) break;
  }
  fs.closeSync(fd);
  const text = Buffer.concat(chunks).toString('utf8');
  return text.endsWith('\n') ? text : null;
}

// 4. Before the program runs, cmd/run awaits `v8Hooks.isInitializedAsync()`, which connects an
// inspector session and enables V8's debugger, to map script ids to file names. V8 answers the
// enable with an event for every script already loaded (TypeScript, @pulumi/pulumi, gRPC…), and
// then one for each script parsed later: about 0.2 s of CPU in a 100-resource program. The map
// is read in one place only: the file name in the error that function serialization (closures,
// `pulumi.runtime.serializeFunction`) reports for a function it cannot serialize. The session now
// starts at that first use instead, with its listener attached before the debugger is enabled,
// so the events V8 replays for the scripts alive then (a function being serialized keeps its
// script alive) fill the same map; Pulumi's order attached it after, so scripts loaded before the
// session went unnamed.
function inspectorOnFirstUse(exports) {
  if (
    typeof exports.isInitializedAsync !== 'function' ||
    typeof exports.getSessionAsync !== 'function' ||
    typeof exports.getScriptUrl !== 'function'
  )
    return;
  const scriptUrls = new Map();
  let session;
  const connect = async () => {
    const inspector = require('node:inspector');
    const connected = new inspector.Session();
    connected.connect();
    connected.addListener('Debugger.scriptParsed', ({ params }) => scriptUrls.set(params.scriptId, params.url));
    await new Promise((resolve, reject) =>
      connected.post('Debugger.enable', (error, result) => (error ? reject(error) : resolve(result))),
    );
    return connected;
  };
  // v8.js reads these through the module (`v8Hooks.getSessionAsync()`), so replacing them reaches it.
  exports.getSessionAsync = () => (session ??= connect());
  exports.isInitializedAsync = async () => {};
  exports.getScriptUrl = (id) => scriptUrls.get(id);
}

// 5. `log.debug` sends every debug message to the engine as a gRPC call of its own, and
// @pulumi/pulumi's runtime writes four or five for each resource ("Registering resource…", "RPC
// prepared…", "RPC finished…" with the whole response as text). The Pulumi CLI shows them only
// with --debug; without it ocikit drops them unread (the engine's Log in src/engine/monitor.ts),
// the user's own `pulumi.log.debug` calls included. So they are not sent: in the bench's
// 100-resource `up`, about a sixth of all the CPU used. The other levels, and the order between
// them, are Pulumi's own. With --debug (OCIKIT_PROGRAM_DEBUG in the program's environment) they are.
function withoutUnshownDebug(exports) {
  if (typeof exports.debug !== 'function') return;
  // Pulumi's callers read the export at each call (`log.debug(…)`), so this reaches them all.
  exports.debug = function debug() {
    return Promise.resolve();
  };
}

// 6. The runtime's "RPC finished" debug messages (section 5) hold each answer as text
// (`resp: ${innerResponse}`), built before log.debug is called: google-protobuf's toString syncs
// the message's maps and joins its whole nested array, every output of the resource included
// (a DrPlan's plan groups: about 16 KB). Since section 5 drops those messages unread, the answers
// that only they format are given a toString that names the message instead. The runtime reads
// answers only through their getters, which this leaves as they are. A 100-resource `up` uses
// about 5 % less CPU (README, Program, item 6).
function withoutUnreadText(exports) {
  for (const name of ['RegisterResourceResponse', 'ReadResourceResponse', 'InvokeResponse', 'CallResponse']) {
    const message = exports[name];
    if (typeof message !== 'function' || typeof message.prototype?.serializeBinary !== 'function') continue;
    Object.defineProperty(message.prototype, 'toString', {
      value: function toString() {
        return `[pulumirpc.${name}]`;
      },
      writable: true,
      configurable: true,
    });
  }
}
