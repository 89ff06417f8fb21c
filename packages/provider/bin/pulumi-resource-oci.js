#!/usr/bin/env node
// The plugin the Pulumi engine starts: built JavaScript only, no TypeScript compilation at start.
require('../dist/main.js').run();
