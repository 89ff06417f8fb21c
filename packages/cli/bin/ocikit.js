#!/usr/bin/env node
// Node 22.1+ keeps V8's compiled code of every module on disk (os.tmpdir()/node-compile-cache, or
// NODE_COMPILE_CACHE; NODE_DISABLE_COMPILE_CACHE=1 turns it off): the next start skips compiling
// them. On Node 20 the function does not exist and nothing changes.
require('node:module').enableCompileCache?.();
require('../dist/main.js').main();
