// Preloaded into the Pulumi program's process (`node --require`, before @pulumi/pulumi/cmd/run).
// Spares the program two costs of @pulumi/pulumi's start that buy it nothing. Each is found by its
// file inside the program's own @pulumi/pulumi; one that is not there as expected is left alone.
// Measured on the bench's program (100 resources) under Pulumi's mocks, 2 cores: 1.8 s before,
// 0.85 s after, and 40 MB less (`npm run bench -w @ocikit/cli`, "program floor" rows).
'use strict';
const Module = require('node:module');

// 1. `debuggablePromise` stores `new Error().stack` on every promise Pulumi makes (several per
// resource property), for one use only: the "Promise leak detected" report that
// PULUMI_DEBUG_PROMISE_LEAKS turns on. Reading `.stack` formats it at once, through the
// source-map-support that ts-node installs, which maps every frame: about 0.85 s of that 1.8 s.
// Without the switch the string is never read, so it is captured with no frames; with it,
// nothing changes. The promise, its id, its context and the leak detection stay Pulumi's own.
const DEBUGGABLE = /[\\/]@pulumi[\\/]pulumi[\\/]runtime[\\/]debuggable\.js$/;

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
