#!/usr/bin/env node
// Node 22.1+ keeps V8's compiled code of every module on disk (os.tmpdir()/node-compile-cache, or
// NODE_COMPILE_CACHE; NODE_DISABLE_COMPILE_CACHE=1 turns it off): the next start skips compiling
// them. Node 20 has no such function; the plugin's compile-cache.js does the same for node_modules.
require('@ocikit/pulumi-resource-oci/bin/compile-cache.js').enableCompileCache();
require('../dist/main.js').main();
