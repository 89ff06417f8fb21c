// Node 20's stand-in for Node 22.1+'s module compile cache (`module.enableCompileCache`): the
// plugin's and ocikit's bins, and ocikit's preload in a Pulumi program's process, call
// `enableCompileCache()` first thing; where Node lacks its own, each CommonJS module under
// node_modules is then compiled with the V8 code cache its previous load left, so the next start of
// a process skips most of compiling gRPC, the OCI SDK, @pulumi/pulumi, TypeScript and ts-node again
// (a 100-resource `ocikit up`: about 8 % less time on Node 20; README, "Compile cache", CLI engine).
//
// What stays as Node's own loading: a module compiles to the same wrapper function Node makes (its
// header on a line of its own, with lineOffset -1, so the lines and columns of stack traces are
// the file's own), and its `require` is `module.require`, with resolve, main, extensions and
// cache. The main module, the user's own code, TypeScript compiled by ts-node, ES modules, anything
// that does not compile as a script (Node then reports or detects it as always) and any module
// that calls `import()` go through Node's own compile. The last because Node 20 loses a script's
// dynamic-import callback when V8 deserializes it from a code cache (`import()` then fails with
// ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING; Node 22 fixed it), and so does code such a script makes
// with eval or `new Function`. A module whose text has `import(` is parsed once (acorn, the
// parser @pulumi/pulumi already installs) and cached only if none of its tokens is an `import`
// followed by `(`, an `eval` or a `Function` other than `Function.<member>`; its entry remembers
// the verdict. (Code made some other way, a Function reached through `.constructor`, is not
// seen: NODE_DISABLE_COMPILE_CACHE=1 is the way out.)
//
// The cache is one file per module in <os.tmpdir()>/ocikit-compile-cache-<uid>/<node version>-
// <arch>-<V8 tag>-<format> (that first folder is the user's own and private, or the cache is off);
// NODE_COMPILE_CACHE names another base directory and NODE_DISABLE_COMPILE_CACHE=1 turns it off,
// as for Node's own. An entry is used only if the source's length and CRC-32 match (V8 checks
// the length alone). Missing, stale or rejected entries are written at exit, with every function
// compiled by then, as Node flushes its cache.
'use strict';
const Module = require('node:module');

/** The entries' layout and the import() rule they record: a change of either starts a new folder. */
const FORMAT = 'f2';

/** What this process's cache did: modules compiled from an entry, compiled anew, entries V8 refused. */
const stats = { hits: 0, compiled: 0, rejected: 0 };

let enabled = false;

function enable() {
  if (enabled || process.env.NODE_DISABLE_COMPILE_CACHE === '1') return;
  const { crc32 } = require('node:zlib');
  // zlib.crc32 is Node 20.15+; a policy manifest checks each module's integrity in Node's compile.
  if (typeof crc32 !== 'function') return;
  if (process.execArgv.some((a) => a.startsWith('--experimental-policy'))) return;
  enabled = true;
  const vm = require('node:vm');
  const { createHash } = require('node:crypto');
  const fs = require('node:fs');
  const os = require('node:os');
  const path = require('node:path');
  const v8 = require('node:v8');

  // V8 takes a code cache only under the flags it was made with: as Node's does, the directory is
  // that of V8's version tag (V8's version, its flags and the CPU's features), read now.
  const tag = v8.cachedDataVersionTag();
  const base = process.env.NODE_COMPILE_CACHE || privateDir(path.join(os.tmpdir(), `ocikit-compile-cache-${uid()}`));
  if (!base) return;
  const dir = path.join(base, `${process.version}-${process.arch}-${tag.toString(16)}-${FORMAT}`);
  const inNodeModules = `${path.sep}node_modules${path.sep}`;
  // An entry: the source's length (4 bytes), its CRC-32 (4), the code cache's length (4), the code
  // cache. A code cache length of 0 marks a module that calls import(), which Node compiles.
  const HEADER = 12;
  const toWrite = new Map(); // cache file → { header, script } (no script: the import() mark)
  const nodeCompile = Module.prototype._compile;

  Module.prototype._compile = function _compile(content, filename, format) {
    if (
      parsing ||
      format === 'module' ||
      this.id === '.' ||
      !filename.includes(inNodeModules) ||
      !/\.c?js$/.test(filename)
    )
      return nodeCompile.call(this, content, filename, format);
    const file = path.join(dir, createHash('sha1').update(filename).digest('hex'));
    const header = Buffer.alloc(HEADER);
    header.writeUInt32LE(content.length, 0);
    header.writeUInt32LE(crc32(content), 4);
    let entry;
    try {
      entry = fs.readFileSync(file);
      if (entry.length < HEADER || entry.compare(header, 0, 8, 0, 8) !== 0) entry = undefined;
    } catch {
      // No entry yet.
    }
    if (entry ? entry.length === HEADER : MAY_CALL_IMPORT.test(content) && callsImport(content)) {
      if (!entry) toWrite.set(file, { header });
      return nodeCompile.call(this, content, filename, format);
    }
    const cachedData = entry?.subarray(HEADER);
    let script;
    try {
      // No dynamic-import callback: the module never calls import().
      const wrapper = `(function (exports, require, module, __filename, __dirname) {\n${content}\n})`;
      script = new vm.Script(wrapper, { filename, lineOffset: -1, cachedData });
    } catch {
      return nodeCompile.call(this, content, filename, format);
    }
    if (!cachedData) stats.compiled++;
    else if (script.cachedDataRejected) stats.rejected++;
    else stats.hits++;
    if (!cachedData || script.cachedDataRejected) toWrite.set(file, { header, script });
    const wrapper = script.runInThisContext({ displayErrors: true });
    const dirname = path.dirname(filename);
    return Reflect.apply(wrapper, this.exports, [this.exports, requireOf(this), this, filename, dirname]);
  };

  process.once('exit', () => {
    // A V8 flag set since (v8.setFlagsFromString) would make what is written here unusable.
    if (toWrite.size === 0 || v8.cachedDataVersionTag() !== tag) return;
    try {
      fs.mkdirSync(dir, { recursive: true });
      for (const [file, { header, script }] of toWrite) {
        const data = script ? script.createCachedData() : Buffer.alloc(0);
        header.writeUInt32LE(data.length, 8);
        const tmp = `${file}.${process.pid}.tmp`;
        fs.writeFileSync(tmp, Buffer.concat([header, data]));
        fs.renameSync(tmp, file);
      }
    } catch {
      // A cache that cannot be written only costs the next start its compile time.
    }
  });
}

function uid() {
  return process.getuid?.() ?? 'user';
}

/**
 * The default folder in the shared temporary directory, made private to this user: a code cache
 * is code the process runs, so a folder someone else made or can write to is not used at all.
 */
function privateDir(dir) {
  const fs = require('node:fs');
  try {
    fs.mkdirSync(dir, { mode: 0o700 });
  } catch (e) {
    if (e.code !== 'EEXIST') return undefined;
  }
  try {
    const stat = fs.lstatSync(dir);
    if (!stat.isDirectory() || (process.getuid && stat.uid !== process.getuid()) || (stat.mode & 0o077) !== 0)
      return undefined;
  } catch {
    return undefined;
  }
  return dir;
}

/**
 * Text every module that calls import() has: `import`, then `(` after whitespace and comments only
 * (a keyword cannot be written with escapes). Only such modules are parsed.
 */
const MAY_CALL_IMPORT = /\bimport\s*(?:\(|\/[*/])/;

/** Set while acorn loads and parses: acorn itself compiles as Node compiles it. */
let parsing = false;

/**
 * Whether a CommonJS module's code may call import(): an `import` token followed by `(` (whatever
 * lies between them), or code that can make code, whose import() would count as this module's:
 * `eval` anywhere, or `Function` other than as `Function.<member>` (real-require's
 * `new Function('m', 'return import(m)')`). True as well when the module does not parse as a script.
 */
function callsImport(content) {
  let previous;
  let calls = false;
  parsing = true;
  try {
    const acorn = require('acorn');
    const { name, parenL, dot, _import } = acorn.tokTypes;
    acorn.parse(content, {
      ecmaVersion: 'latest',
      sourceType: 'script',
      allowHashBang: true,
      allowReturnOutsideFunction: true,
      allowNewDotTarget: true,
      // Every token, the end of input (eof) included, so a last `Function` is seen too.
      onToken(token) {
        if (previous?.type === _import && token.type === parenL) calls = true;
        if (previous?.type === name && previous.value === 'Function' && token.type !== dot) calls = true;
        if (token.type === name && token.value === 'eval') calls = true;
        previous = token;
      },
    });
  } catch {
    return true;
  } finally {
    parsing = false;
  }
  return calls;
}

/** `require` as Node hands it to a module. */
function requireOf(module) {
  const require = (id) => module.require(id);
  require.resolve = (request, options) => Module._resolveFilename(request, module, false, options);
  require.resolve.paths = (request) => Module._resolveLookupPaths(request, module);
  require.main = process.mainModule;
  require.extensions = Module._extensions;
  require.cache = Module._cache;
  return require;
}

/** Node's own cache where it has one (22.1+), else this one. */
function enableCompileCache() {
  if (Module.enableCompileCache) Module.enableCompileCache();
  else enable();
}

module.exports = { enable, enableCompileCache, stats };
