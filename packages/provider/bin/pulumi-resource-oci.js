#!/usr/bin/env node
// The plugin the Pulumi engine starts: built JavaScript only, no TypeScript compilation at start.
// V8's compiled code from the last start is reused: Node 22.1+'s compile cache, or on Node 20
// compile-cache.js's (see there).
require('./compile-cache.js').enableCompileCache();
require('../dist/main.js').run();
