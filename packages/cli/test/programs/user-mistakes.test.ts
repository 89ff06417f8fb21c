import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from '../../../emulator/test/support/scratch';
import { cleanEnv, ocikit } from '../support/ocikit';
import {
  assertIntegrity,
  inlineProgram,
  program,
  readCheckpoint,
  startCloud,
  type Cloud,
  type Program,
} from '../support/programs';

// A program's mistakes (a main that is not there, an exception) end with one line on stderr and
// no stack trace anywhere, as the issue's contract asks.
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
  // With `typescript: false` the runner registers no ts-node: index.ts is no entry point (Pulumi's
  // run.ts exits 32 after "We failed to locate the entry point"; ocikit said "Program exited with
  // non-zero exit code: 32" after it).
  writeFileSync(
    join(p.dir, 'Pulumi.yaml'),
    'name: mistakes\nruntime:\n  name: nodejs\n  options:\n    typescript: false\n',
  );
  const noTs = await p.run(['preview']);
  assert.equal(noTs.code, 1);
  assert.equal(noTs.stderr.trimEnd().split('\n').length, 1, noTs.stderr);
  assert.match(noTs.stderr, /^error: no program to run in .*: no index\.js \(runtime option typescript is false/);
  assert.doesNotMatch(noTs.stdout, /Previewing/, 'the program did not start');
});

// `npm init -y` writes `"main": "index.js"` beside the user's index.ts: Node's require of the folder
// falls back to its index, and @pulumi/pulumi runs it with a warning, as under Pulumi.
test('a program whose @pulumi/pulumi is not installed, or of another runtime, is one line naming why', async () => {
  // A scratch folder outside the repository: no node_modules up its tree.
  const dir = scratchDir('no-modules');
  writeFileSync(join(dir, 'Pulumi.yaml'), 'name: bare\nruntime: nodejs\n');
  writeFileSync(join(dir, 'index.ts'), 'export const x = 1;\n');
  for (const command of [['preview'], ['up', '--yes']]) {
    const result = await ocikit(['--cwd', dir, ...command], { env: cleanEnv(cloud.env) });
    assert.equal(result.code, 1);
    assert.equal(
      result.stderr,
      `error: @pulumi/pulumi is not installed for the program in ${dir} (run npm install there)\n`,
    );
    noStackTrace(result.stdout);
  }
  writeFileSync(join(dir, 'Pulumi.yaml'), 'name: bare\nruntime: python\n');
  for (const command of [['preview'], ['up', '--yes'], ['destroy', '--yes']]) {
    const result = await ocikit(['--cwd', dir, ...command], { env: cleanEnv(cloud.env) });
    assert.equal(result.code, 1);
    assert.equal(
      result.stderr,
      `error: ${join(dir, 'Pulumi.yaml')}: runtime 'python' is not supported (ocikit runs nodejs programs)\n`,
    );
    assert.equal(result.stdout, '');
  }
});

test("a package.json main that is not there runs the folder's index, with @pulumi/pulumi's warning", async () => {
  writeFileSync(join(p.dir, 'Pulumi.yaml'), 'name: mistakes\nruntime: nodejs\n');
  const pkg = readFileSync(join(p.dir, 'package.json'), 'utf8');
  writeFileSync(join(p.dir, 'package.json'), '{ "name": "mistakes", "private": true, "main": "index.js" }\n');
  try {
    const result = await p.run(['preview']);
    assert.equal(result.stderr.split('\n').at(-2), 'error: the program failed: the program gave up', result.stderr);
    assert.match(result.stdout, /warning: Could not find entry point 'index\.js' specified in package\.json/);
  } finally {
    writeFileSync(join(p.dir, 'package.json'), pkg);
  }
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

// Thrown after the program's main returned, @pulumi/pulumi reports the error's bare stack (no
// "failed with an unhandled exception" heading); a TSError's diagnostics follow its first line.
test('an exception from a floating promise, a timer or an apply, or a type error: one line, no stack trace', async () => {
  writeFileSync(join(p.dir, 'Pulumi.yaml'), 'name: mistakes\nruntime: nodejs\n');
  for (const [code, stderr] of [
    [
      'async function main() { await new Promise((r) => setTimeout(r, 10)); throw new Error("late"); }\nmain();',
      'error: the program failed: late\n',
    ],
    [
      'setTimeout(() => { throw new TypeError("in a timer"); }, 10);',
      'error: the program failed: TypeError: in a timer\n',
    ],
    [
      'pulumi.output(new Promise((r) => setTimeout(r, 10))).apply(() => { throw new Error("in an apply"); });',
      'error: the program failed: in an apply\n',
    ],
    ['Promise.reject(new RangeError("rejected"));', 'error: the program failed: RangeError: rejected\n'],
  ] as const) {
    writeFileSync(join(p.dir, 'index.ts'), `import * as pulumi from '@pulumi/pulumi';\nvoid pulumi;\n${code}\n`);
    const result = await p.run(['preview']);
    assert.equal(result.code, 1, code);
    assert.equal(result.stderr, stderr, code);
    noStackTrace(result.stdout);
  }
  // With --json the events are the engine's, and the failure's line is the same; the error's
  // diagnostic event keeps its message without the stack frames.
  const json = await p.run(['preview', '--json']);
  assert.equal(json.stderr, 'error: the program failed: RangeError: rejected\n');
  const errors = json.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { diagnosticEvent?: { severity: string; message: string } })
    .flatMap((e) => (e.diagnosticEvent?.severity === 'error' ? [e.diagnosticEvent.message] : []));
  assert.ok(
    errors.some((m) => m.includes('RangeError: rejected')),
    errors.join('\n'),
  );
  errors.forEach(noStackTrace);
  // Type-checked, as Pulumi runs a program by default: the diagnostic is the reason.
  writeFileSync(join(p.dir, 'index.ts'), 'const count: number = "two";\nexport { count };\n');
  const typed = await p.run(['preview'], { PULUMI_NODEJS_TRANSPILE_ONLY: undefined });
  assert.equal(typed.code, 1);
  assert.match(
    typed.stderr,
    /^error: the program failed: TSError: ⨯ Unable to compile TypeScript: index\.ts\(1,7\): error TS2322: Type 'string' is not assignable to type 'number'\.\n$/,
  );
  noStackTrace(typed.stdout);
  writeFileSync(join(p.dir, 'index.ts'), "throw new Error('the program gave up');\n");
});

// A @pulumi/oci program may use OCI resources ocikit's plugin does not serve (a VCN), or another
// package's resources: as in Pulumi, the failing registration fails the update, and the program
// is stopped rather than left to unwind (it used to hang for a minute). The program below would
// print a line 15 s later if it were left running.
test('a resource the plugin does not serve, or another package, fails the update in one line and stops the program', async () => {
  writeFileSync(join(p.dir, 'Pulumi.yaml'), 'name: mistakes\nruntime: nodejs\n');
  const left = "setTimeout(() => console.log('the program was left running'), 15_000);\n";
  for (const [resource, message] of [
    [
      "new oci.core.Vcn('net', { compartmentId: 'ocid1.compartment.oc1..x', cidrBlocks: ['10.0.0.0/16'] });",
      /^error: urn:pulumi:dev::mistakes::oci:Core\/vcn:Vcn::net: checking failed: unknown resource type oci:Core\/vcn:Vcn: this provider serves oci:DisasterRecovery\/drPlan:DrPlan and oci:AiLanguage\/endpoint:Endpoint\n$/,
    ],
    [
      "new (class extends pulumi.CustomResource {})('random:index/randomPet:RandomPet', 'pet', {});",
      /^error: the random provider is not available: ocikit runs only the oci provider \(pulumi-resource-oci\)\n$/,
    ],
    [
      "new pulumi.StackReference('organization/mistakes/other').getOutput('x');",
      /^error: .*Pulumi's built-in provider \(StackReference, getResource\) is not available in ocikit/,
    ],
  ] as const) {
    writeFileSync(
      join(p.dir, 'index.ts'),
      `import * as pulumi from '@pulumi/pulumi';\nimport * as oci from '@pulumi/oci';\nvoid oci;\n${resource}\n${left}`,
    );
    const result = await p.run(['up', '--yes']);
    assert.equal(result.code, 1, result.stdout);
    assert.match(result.stderr, message);
    // Refused before any step (Pulumi's step generator calls Check, the provider registry's Check
    // loads a provider's plugin): no `creating failed` row, the error under the resource.
    assert.doesNotMatch(result.stdout, /creating failed/);
    if (resource.includes('random'))
      assert.match(
        result.stdout,
        /^ {4}pulumi:providers:random default: error: the random provider is not available: ocikit runs only the oci provider \(pulumi-resource-oci\)$/m,
      );
    assert.doesNotMatch(result.stdout, /left running/);
    noStackTrace(result.stderr);
  }
});

// Pulumi.yaml's `config:` block, as Pulumi applies it: defaults reach the program, a required key
// missing from the stack and a value of the wrong type stop the run before the program starts.
test("Pulumi.yaml's project config: defaults reach the program; missing and mistyped values are one line", async () => {
  writeFileSync(
    join(p.dir, 'Pulumi.yaml'),
    [
      'name: mistakes',
      'runtime: nodejs',
      'config:',
      '  greeting:',
      '    type: string',
      '  units:',
      '    type: integer',
      '    default: 3',
      '  zones: [a, b]',
      '',
    ].join('\n'),
  );
  writeFileSync(
    join(p.dir, 'index.ts'),
    [
      "import * as pulumi from '@pulumi/pulumi';",
      'const config = new pulumi.Config();',
      "export const greeting = config.require('greeting');",
      "export const units = config.requireNumber('units');",
      "export const zones = config.requireObject<string[]>('zones');",
      '',
    ].join('\n'),
  );
  const missing = await p.run(['up', '--yes']);
  assert.equal(missing.code, 1);
  assert.equal(missing.stderr, "error: Stack 'dev' is missing configuration value 'greeting'\n");
  assert.doesNotMatch(missing.stdout, /Updating/, 'the program did not start');

  assert.equal((await p.run(['config', 'set', 'greeting', 'hello'])).code, 0);
  const up = await p.run(['up', '--yes']);
  assert.equal(up.code, 0, up.stderr);
  const out = JSON.parse((await p.run(['stack', 'output', '--json'])).stdout) as Record<string, unknown>;
  assert.deepEqual(out, { greeting: 'hello', units: 3, zones: ['a', 'b'] });

  assert.equal((await p.run(['config', 'set', 'units', 'three'])).code, 0);
  const mistyped = await p.run(['preview']);
  assert.equal(mistyped.code, 1);
  assert.equal(mistyped.stderr, "error: Stack 'dev' with configuration key 'units' must be of type 'integer'\n");

  // stackConfigDir: the same stack file, moved into stacks/, with a secret (its salt is there too).
  mkdirSync(join(p.dir, 'stacks'));
  renameSync(join(p.dir, 'Pulumi.dev.yaml'), join(p.dir, 'stacks', 'Pulumi.dev.yaml'));
  writeFileSync(
    join(p.dir, 'Pulumi.yaml'),
    readFileSync(join(p.dir, 'Pulumi.yaml'), 'utf8').replace(
      'runtime: nodejs\n',
      'runtime: nodejs\nstackConfigDir: stacks\n',
    ),
  );
  const env = { PULUMI_CONFIG_PASSPHRASE: 'moved' };
  assert.equal((await p.run(['config', 'set', 'units', '4'])).code, 0);
  assert.equal((await p.run(['config', 'set', '--secret', 'greeting', 'psst'], env)).code, 0);
  assert.ok(!existsSync(join(p.dir, 'Pulumi.dev.yaml')), 'nothing is written beside Pulumi.yaml');
  const moved = await p.run(['up', '--yes'], env);
  assert.equal(moved.code, 0, moved.stderr);
  const after = JSON.parse((await p.run(['stack', 'output', '--json', '--show-secrets'], env)).stdout);
  assert.deepEqual(after, { greeting: 'psst', units: 4, zones: ['a', 'b'] });
});

// Pulumi keeps a failed update's old stack outputs under those the program registered
// (deployment_executor.go Execute: executeRegisterResourceOutputs with errored); the SDK registers
// none for a program that throws, so all stay, and its display lists them as unchanged.
test('a program that throws keeps the stack outputs of the last update, and shows them unchanged; destroy shows them removed', async () => {
  const index = `import * as pulumi from '@pulumi/pulumi';
export const a = 'x';
if (new pulumi.Config().getBoolean('fail')) throw new Error('the program gave up');
export const b = 'y';
`;
  const q = program(inlineProgram('kept', index), { ...cloud.env, PULUMI_NODEJS_TRANSPILE_ONLY: 'true' });
  q.setConfig(cloud.ociConfig);
  assert.equal((await q.run(['up', '--yes'])).code, 0);
  q.setConfig({ ...cloud.ociConfig, 'kept:fail': true });
  const failed = await q.run(['up', '--yes', '--skip-preview']);
  assert.equal(failed.code, 1);
  assert.match(failed.stdout, /^Outputs:\n {4}a: "x"\n {4}b: "y"\n\n/m);
  const out = JSON.parse((await q.run(['stack', 'output', '--json'])).stdout) as Record<string, unknown>;
  assert.deepEqual(out, { a: 'x', b: 'y' });
  // A preview shows them kept too: no output changes.
  const previewed = await q.run(['preview']);
  assert.equal(previewed.code, 1);
  assert.doesNotMatch(previewed.stdout, /Outputs:/, previewed.stdout);
  // --json's stack outputs event comes at the end of the run with the outputs kept, as Pulumi's
  // (the step executor saves the stack's event and finalizes it after every step).
  for (const command of [['preview'], ['up', '--yes', '--skip-preview']]) {
    const run = await q.run([...command, '--json']);
    assert.equal(run.code, 1);
    const events = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { resOutputsEvent?: { metadata: { type: string; new: { outputs: unknown } } } });
    const last = events.filter((e) => e.resOutputsEvent).at(-1)!.resOutputsEvent!.metadata;
    assert.equal(last.type, 'pulumi:pulumi:Stack', command.join(' '));
    assert.deepEqual(last.new.outputs, { a: 'x', b: 'y' }, command.join(' '));
  }
  // A destroy deletes the stack: its plan and its run list the outputs as removed, as Pulumi's.
  const destroyed = await q.run(['destroy', '--yes']);
  assert.equal(destroyed.code, 0, destroyed.stderr);
  assert.equal(destroyed.stdout.match(/^Outputs:\n {2}- a: "x"\n {2}- b: "y"\n\n/gm)?.length, 2, destroyed.stdout);
});

// Two resources of one type and name: Pulumi's step generator refuses the second before any step,
// in its words and under the resource (step_generator.go generateURN: bailDiag with
// GetDuplicateResourceURNError), and the program is stopped; the program does not see an RPC error.
test('a second resource of the same type and name is refused in Pulumi’s words, under the resource', async () => {
  const index = `import * as pulumi from '@pulumi/pulumi';
new pulumi.ComponentResource('my:x:C', 'twin');
new pulumi.ComponentResource('my:x:C', 'twin');
setTimeout(() => console.log('the program was left running'), 15_000);
`;
  const q = program(inlineProgram('twins', index), { ...cloud.env, PULUMI_NODEJS_TRANSPILE_ONLY: 'true' });
  q.setConfig(cloud.ociConfig);
  const message = "Duplicate resource URN 'urn:pulumi:dev::twins::my:x:C::twin'; try giving it a unique name";
  for (const command of [['preview'], ['up', '--yes', '--skip-preview']]) {
    const result = await q.run(command);
    assert.equal(result.code, 1, result.stdout);
    assert.equal(result.stderr, `error: ${message}\n`);
    assert.match(result.stdout, new RegExp(`^ {4}my:x:C twin: error: ${message.replace(/[$()]/g, '\\$&')}$`, 'm'));
    assert.doesNotMatch(result.stdout, /failed to register|UNKNOWN|unhandled exception|left running/);
  }
});

// An alias that names a resource registered in the same run, or one another resource claimed
// first: Pulumi's step generator reports it on the resource (generateSteps:
// diag.GetDuplicateResourceAliasError) and the run bails; the program does not fail with its own
// exception, and the refused resource is not recorded.
test('an alias that another resource holds is refused under the resource, in Pulumi’s words', async () => {
  const index = `import * as pulumi from '@pulumi/pulumi';
const mode = new pulumi.Config().get('mode');
if (mode === 'registered') {
  new pulumi.ComponentResource('my:x:C', 'old');
  new pulumi.ComponentResource('my:x:C', 'new', {}, { aliases: [{ name: 'old' }] });
} else if (mode === 'twice') {
  new pulumi.ComponentResource('my:x:C', 'n1', {}, { aliases: [{ name: 'old' }] });
  new pulumi.ComponentResource('my:x:C', 'n2', {}, { aliases: [{ name: 'old' }] });
} else new pulumi.ComponentResource('my:x:C', 'old');
`;
  const q = program(inlineProgram('aliases', index), { ...cloud.env, PULUMI_NODEJS_TRANSPILE_ONLY: 'true' });
  q.setConfig(cloud.ociConfig);
  assert.equal((await q.run(['up', '--yes'])).code, 0);
  const urn = (name: string) => `urn:pulumi:dev::aliases::my:x:C::${name}`;
  for (const [mode, name, message] of [
    [
      'registered',
      'new',
      `Duplicate resource alias '${urn('old')}' applied to resource with URN '${urn('new')}' conflicting with resource with URN '${urn('new')}'`,
    ],
    [
      'twice',
      'n2',
      `Duplicate resource alias '${urn('old')}' applied to resource with URN '${urn('n2')}' conflicting with resource with URN '${urn('n1')}'`,
    ],
  ] as const) {
    q.setConfig({ ...cloud.ociConfig, 'aliases:mode': mode });
    for (const command of [['preview'], ['up', '--yes', '--skip-preview']]) {
      const result = await q.run(command);
      assert.equal(result.code, 1, result.stdout);
      assert.equal(result.stderr, `error: ${message}\n`, mode);
      assert.ok(result.stdout.includes(`    my:x:C ${name}: error: ${message}\n`), result.stdout);
      assert.doesNotMatch(result.stdout, /failed to register|UNKNOWN|unhandled exception/);
    }
    // Nothing of the refused resource is recorded (a resource registered before it keeps its step).
    const state = readCheckpoint(q);
    assertIntegrity(state);
    assert.ok(!state.resources?.some((r) => r.urn === urn(name)), `${name} is not in the state`);
  }
});

// Pulumi takes any string as a resource name: a URN's name is all that follows its type, `::`
// and `$` included (sdk/go/common/resource/urn.go: Name is SplitN(…, "::", 4)[3]).
test('resource names with unicode, 120 characters, `::` and `$` round-trip and are shown whole', async () => {
  const long = 'n'.repeat(120);
  const index = `import * as pulumi from '@pulumi/pulumi';
const parent = new pulumi.ComponentResource('my:x:C', 'ünï-名前');
new pulumi.ComponentResource('my:x:C', 'a::b$c', {}, { parent });
new pulumi.ComponentResource('my:x:C', '${long}');
`;
  const q = program(inlineProgram('names', index), { ...cloud.env, PULUMI_NODEJS_TRANSPILE_ONLY: 'true' });
  q.setConfig(cloud.ociConfig);
  const up = await q.run(['up', '--yes']);
  assert.equal(up.code, 0, up.stderr);
  assert.match(up.stdout, /^ \+ {3}my:x:C a::b\$c created/m);
  const again = await q.run(['preview']);
  assert.match(again.stdout, /^ {4}4 unchanged$/m);
  const tree = (await q.run(['stack'])).stdout;
  assert.match(tree, /^ {4}├─ my:x:C {12}ünï-名前$/m);
  assert.match(tree, /^ {4}│ {2}└─ my:x:C {9}a::b\$c$/m, tree);
  assert.match(tree, new RegExp(`^ {4}└─ my:x:C {12}${long}$`, 'm'));
});

// A program that exits non-zero without an error of its own (process.exit, a signal): the Node.js
// language host's words (pulumi-language-nodejs main.go: exiterr.ExitCode(), -1 for a signal),
// wrapped by Pulumi's evalSource and reported as an error diagnostic by its deployment executor
// (source_eval.go: "an unhandled error occurred: %v"; deployment_executor.go Execute: reportError).
test('a program that exits non-zero on its own fails in Pulumi’s words, on stdout as on stderr', async () => {
  for (const [exit, code] of [
    ['process.exit(3);', 3],
    ["process.kill(process.pid, 'SIGKILL');", -1],
  ] as const) {
    const index = `import * as pulumi from '@pulumi/pulumi';\nvoid pulumi;\nexport const x = 1;\n${exit}\n`;
    const q = program(inlineProgram('exits', index), { ...cloud.env, PULUMI_NODEJS_TRANSPILE_ONLY: 'true' });
    q.setConfig(cloud.ociConfig);
    const message = `an unhandled error occurred: Program exited with non-zero exit code: ${code}`;
    for (const command of [['preview'], ['up', '--yes', '--skip-preview']]) {
      const result = await q.run(command);
      assert.equal(result.code, 1, exit);
      assert.equal(result.stderr, `error: ${message}\n`, exit);
      assert.match(result.stdout, new RegExp(`^error: ${message}$`, 'm'), exit);
    }
  }
  // An error the program logged does not stand for the exit code: only 32 (@pulumi/pulumi's "error
  // already reported") does; with 1 the language host's error follows the logged one.
  const index = `import * as pulumi from '@pulumi/pulumi';\nvoid pulumi.log.error('logged first').then(() => process.exit(1));\n`;
  const q = program(inlineProgram('logs-then-exits', index), { ...cloud.env, PULUMI_NODEJS_TRANSPILE_ONLY: 'true' });
  q.setConfig(cloud.ociConfig);
  const result = await q.run(['preview']);
  assert.equal(result.code, 1);
  assert.equal(result.stderr, 'error: an unhandled error occurred: Program exited with non-zero exit code: 1\n');
  assert.match(
    result.stdout,
    /^error: logged first\nerror: an unhandled error occurred: Program exited with non-zero exit code: 1$/m,
  );
});

// A program that exits 0 before its exports resolve registers no stack outputs: the stack keeps
// its old ones, as Pulumi's same step keeps a resource's outputs until it registers new ones
// (step.go SameStep.Apply: new.Outputs = old.Outputs), in a preview as in the update.
test('a program that exits 0 early keeps the stack outputs, and its preview does not show them removed', async () => {
  const index = `import * as pulumi from '@pulumi/pulumi';
export const x = 1;
if (new pulumi.Config().getBoolean('quit')) process.exit(0);
`;
  const q = program(inlineProgram('quits', index), { ...cloud.env, PULUMI_NODEJS_TRANSPILE_ONLY: 'true' });
  q.setConfig(cloud.ociConfig);
  assert.equal((await q.run(['up', '--yes'])).code, 0);
  q.setConfig({ ...cloud.ociConfig, 'quits:quit': true });
  const previewed = await q.run(['preview']);
  assert.equal(previewed.code, 0, previewed.stderr);
  assert.doesNotMatch(previewed.stdout, /Outputs:/, previewed.stdout);
  const up = await q.run(['up', '--yes', '--skip-preview']);
  assert.equal(up.code, 0, up.stderr);
  assert.match(up.stdout, /^Outputs:\n {4}x: 1\n/m);
  assert.deepEqual(JSON.parse((await q.run(['stack', 'output', '--json'])).stdout), { x: 1 });
});
