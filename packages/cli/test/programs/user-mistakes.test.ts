import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '../../../emulator/test/support/scratch';
import { program, startCloud, type Cloud, type Program } from '../support/programs';

// A program's mistakes (a main that is not there, an exception) end with one line on stderr and
// no stack trace anywhere, as the contract asks.
let cloud: Cloud;
let p: Program;

before(async () => {
  cloud = await startCloud();
  const source = scratchDir('mistakes');
  writeFileSync(join(source, 'package.json'), '{ "name": "mistakes", "private": true }\n');
  writeFileSync(join(source, 'index.ts'), "throw new Error('the program gave up');\n");
  p = program(source, { ...cloud.env, PULUMI_NODEJS_TRANSPILE_ONLY: 'true' });
  p.setConfig(cloud.ociConfig);
});
after(() => cloud?.close());

const noStackTrace = (text: string) => assert.doesNotMatch(text, /^\s+at \S/m, `a stack trace in:\n${text}`);

test('a main that does not exist is one line, before the program starts', async () => {
  for (const [main, message] of [
    ['main: nope/', /^error: the program's main 'nope\/' \(Pulumi\.yaml\) does not exist in /],
    ['main: missing.ts', /^error: the program's main 'missing\.ts' \(Pulumi\.yaml\) does not exist in /],
  ] as const) {
    writeFileSync(join(p.dir, 'Pulumi.yaml'), `name: mistakes\nruntime: nodejs\n${main}\n`);
    for (const command of [['preview'], ['up', '--yes']]) {
      const result = await p.run(command);
      assert.equal(result.code, 1);
      assert.equal(result.stderr.trimEnd().split('\n').length, 1, result.stderr);
      assert.match(result.stderr, message);
      assert.doesNotMatch(result.stdout, /Previewing|Updating/, 'the program did not start');
    }
  }
  writeFileSync(join(p.dir, 'Pulumi.yaml'), 'name: mistakes\nruntime: nodejs\nmain: lib/\n');
  const noIndex = await p.run(['preview']);
  assert.match(noIndex.stderr, /^error: the program's main 'lib\/'/);
});

test('a program that throws: its message in one line, no stack trace on stdout or stderr', async () => {
  writeFileSync(join(p.dir, 'Pulumi.yaml'), 'name: mistakes\nruntime: nodejs\n');
  const result = await p.run(['preview']);
  assert.equal(result.code, 1);
  assert.equal(result.stderr, 'error: the program failed: the program gave up\n');
  assert.match(result.stdout, /Error: the program gave up/);
  noStackTrace(result.stdout);
  noStackTrace(result.stderr);
});
