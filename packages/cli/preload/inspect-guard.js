// Preloaded into the Pulumi program's process (`node --require`, before @pulumi/pulumi/cmd/run).
// Works around a Node.js 20.20 bug: util.inspect(error, { colors: true }) never returns (it loops,
// growing a string until the heap or V8's string limit gives out: minutes and gigabytes) when a
// line of the error's stack names a scoped package file with no folder after the scope, such as
// `node_modules/@pulumi/output.ts`, which is where @pulumi/pulumi's source maps point. Pulumi's
// run.ts formats every unhandled exception exactly that way, so a program that threw inside an
// `apply` hung for minutes before failing. Such an error (or one in its `cause` chain) is
// formatted without colours instead; nothing else changes (Node 24 has the fix).
'use strict';
const util = require('node:util');

// `/node_modules/@scope/<file>` with no separator after it: the line markNodeModules loops on.
const TRIGGER = /[/\\]node_modules[/\\]@[^/\\\n]*[/\\][^/\\\n]*$/m;

function triggers(value, depth) {
  if (depth > 8 || value === null || typeof value !== 'object') return false;
  let stack;
  try {
    stack = value.stack;
  } catch {
    return false;
  }
  if (typeof stack === 'string' && TRIGGER.test(stack)) return true;
  try {
    return triggers(value.cause, depth + 1);
  } catch {
    return false;
  }
}

const inspect = util.inspect;
function guardedInspect(value, options, ...rest) {
  if (options && typeof options === 'object' && options.colors && triggers(value, 0))
    return inspect.call(this, value, { ...options, colors: false }, ...rest);
  return inspect.call(this, value, options, ...rest);
}
// util.inspect carries its own properties (custom, defaultOptions with its accessor, colors, styles).
Object.defineProperties(guardedInspect, Object.getOwnPropertyDescriptors(inspect));
util.inspect = guardedInspect;
