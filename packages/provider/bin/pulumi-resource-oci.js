#!/usr/bin/env node
// The plugin the Pulumi engine starts: built JavaScript only, no TypeScript compilation at start.
// Node 22.1+ reuses V8's compiled code from the last start (see packages/cli/bin/ocikit.js).
require('node:module').enableCompileCache?.();
require('../dist/main.js').run();
