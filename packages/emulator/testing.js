'use strict';
// `@ocikit/emulator/testing` (see src/testing.ts): test-only OCI client set-up.
module.exports = require('./dist/testing.js');
