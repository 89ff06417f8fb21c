#!/usr/bin/env node
require('../dist/src/main.js');
