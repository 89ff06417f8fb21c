import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkRuntimeOptions, splitNodeArgs } from './runtime-options';
import { ProjectError } from './project-error';

// Pulumi's language host splits `nodeargs` with github.com/google/shlex (execRuntime).
test('nodeargs split as the language host splits them: quotes, backslashes, comments', () => {
  assert.deepEqual(splitNodeArgs('  --max-old-space-size=4096   --no-warnings '), [
    '--max-old-space-size=4096',
    '--no-warnings',
  ]);
  assert.deepEqual(splitNodeArgs('--require \'./my setup.js\' --title="a \\"b\\" c"'), [
    '--require',
    './my setup.js',
    '--title=a "b" c',
  ]);
  assert.deepEqual(splitNodeArgs("--x='it''s' a\\ b ''"), ['--x=its', 'a b', '']);
  assert.deepEqual(splitNodeArgs('--a # a comment\n--b'), ['--a', '--b']);
  assert.deepEqual(splitNodeArgs(''), []);
  assert.throws(() => splitNodeArgs("--require 'unclosed"), /^Error: EOF found when expecting closing quote$/);
  assert.throws(() => splitNodeArgs('--a \\'), /^Error: EOF found after escape character$/);
});

// parseOptions (sdk/nodejs/cmd/pulumi-language-nodejs/main.go) refuses these, in these words.
test('runtime options the language host refuses are refused in its words', () => {
  checkRuntimeOptions(undefined);
  checkRuntimeOptions({ typescript: false, tsconfig: 'tsconfig.pulumi.json', nodeargs: '--a', packagemanager: 'pnpm' });
  const refused: Array<[Record<string, unknown>, string]> = [
    [{ typescript: 'false' }, 'typescript option must be a boolean'],
    [{ tsconfig: 1 }, 'tsconfigpath option must be a string'],
    [{ nodeargs: ['--a'] }, 'nodeargs option must be a string'],
    [{ nodeargs: '"--a' }, 'EOF found when expecting closing quote'],
    [{ packagemanager: 'maven' }, 'packagemanager option must be one of auto, npm, yarn, pnpm or bun, got "maven"'],
    [{ packagemanager: true }, 'packagemanager option must be a string'],
  ];
  for (const [options, message] of refused)
    assert.throws(
      () => checkRuntimeOptions(options),
      (e: Error) => e instanceof ProjectError && e.message === message,
      JSON.stringify(options),
    );
});
