import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { parse, stringify } from 'yaml';
import { scratchDir } from '../../../emulator/test/support/scratch';
import { ok, program, startCloud, type Cloud, type Program } from '../support/programs';

// Existing Pulumi projects of other shapes than the quickstart's, run as the Pulumi CLI runs them.
let cloud: Cloud;

before(async () => {
  cloud = await startCloud();
});
after(() => cloud?.close());

const TRANSPILE_ONLY = { PULUMI_NODEJS_TRANSPILE_ONLY: 'true' };
const PACKAGE_JSON = '{ "name": "layouts", "private": true }\n';

/** A project of the given files (paths relative to it, folders made as needed), as a program to run. */
function layout(name: string, files: Record<string, string>, env: Record<string, string> = TRANSPILE_ONLY): Program {
  const source = scratchDir(name);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(source, path)), { recursive: true });
    writeFileSync(join(source, path), text);
  }
  return program(source, { ...cloud.env, ...env });
}

const PROGRAM =
  "import * as pulumi from '@pulumi/pulumi';\nimport * as fs from 'fs';\n" +
  'export const cwd = process.cwd();\n' +
  'export const root = pulumi.runtime.getRootDirectory();\n' +
  "export const data = fs.readFileSync('data.txt', 'utf8').trim();\n";

// Pulumi's engine runs a program whose `main` is a folder (or a file) in that folder (the file's),
// pkg/engine/project.go getPwdMain, and the language host passes it as cmd/run's --pwd, with the
// project's folder as --root-directory; it finds @pulumi/pulumi from there (locateModule), so a
// `main` folder may hold the program's own package.json and node_modules.
for (const main of ['infra', 'infra/', 'infra/index.ts']) {
  test(`main: ${main} runs in its folder, with the project's folder as root directory`, async () => {
    const p = layout('main-folder', {
      'Pulumi.yaml': `name: layouts\nruntime: nodejs\nmain: ${main}\n`,
      'infra/package.json': PACKAGE_JSON,
      'infra/index.ts': PROGRAM,
      'infra/data.txt': 'read from the program folder\n',
    });
    // The program's dependencies are installed beside its own package.json, not beside Pulumi.yaml.
    renameSync(join(p.dir, 'node_modules'), join(p.dir, 'infra', 'node_modules'));
    rmSync(join(p.dir, 'node_modules'), { force: true });
    p.setConfig(cloud.ociConfig);
    ok(await p.run(['up', '--yes']), 'up');
    const out = JSON.parse(ok(await p.run(['stack', 'output', '--json'])).stdout) as Record<string, unknown>;
    assert.equal(out.cwd, join(p.dir, 'infra'));
    assert.equal(out.root, p.dir);
    assert.equal(out.data, 'read from the program folder');
  });
}

// `import` prints code naming the package the program depends on. With a `main` folder that holds
// its own package.json, that is the program's (Pulumi's language host finds it from the folder the
// program runs in, searching up), not the one beside Pulumi.yaml.
test("import's code names the package of the main folder's own package.json", async () => {
  const p = layout('main-import', {
    'Pulumi.yaml': 'name: layouts\nruntime: nodejs\nmain: infra\n',
    'package.json': '{ "name": "tools", "private": true, "devDependencies": { "@pulumi/oci": "4.20.0" } }\n',
    'infra/package.json': '{ "name": "layouts", "private": true, "dependencies": { "@ocikit/oci": "2.31.0" } }\n',
    'infra/index.ts': 'export const a = 1;\n',
  });
  p.setConfig(cloud.ociConfig);
  const { endpoint } = await cloud.t.language().createEndpoint({
    createEndpointDetails: {
      compartmentId: cloud.sandbox.compartmentId,
      modelId: cloud.sandbox.textModelId,
      inferenceUnits: 1,
    },
  });
  const imported = ok(await p.run(['import', 'oci:AiLanguage/endpoint:Endpoint', 'adopted', endpoint.id]), 'import');
  assert.match(imported.stdout, /\nimport \* as oci from "@ocikit\/oci";\n/);
});

// A `Pulumi.yml` (or `Pulumi.json`) project keeps its stacks' config in `Pulumi.<stack>.yml` (or
// `.json`): Pulumi's ProjectStackPath (sdk/go/common/workspace/paths.go) names the stack file with
// the project file's extension, and its marshaller for that extension reads and writes it.
for (const ext of ['yml', 'json']) {
  const write = (v: unknown) => (ext === 'json' ? JSON.stringify(v) : stringify(v));
  const read = (text: string) => (ext === 'json' ? JSON.parse(text) : parse(text));
  test(`a Pulumi.${ext} project reads and writes Pulumi.<stack>.${ext}`, async () => {
    const p = layout(`${ext}-project`, {
      [`Pulumi.${ext}`]: write({ name: 'layouts', runtime: 'nodejs' }),
      'package.json': PACKAGE_JSON,
      'index.ts':
        "import * as pulumi from '@pulumi/pulumi';\nexport const greeting = new pulumi.Config().require('greeting');\n",
    });
    writeFileSync(
      join(p.dir, `Pulumi.prod.${ext}`),
      write({ config: { ...cloud.ociConfig, 'layouts:greeting': 'hi' } }),
    );
    ok(await p.run(['--stack', 'prod', 'up', '--yes']), 'up');
    const out = JSON.parse(ok(await p.run(['--stack', 'prod', 'stack', 'output', '--json'])).stdout);
    assert.equal(out.greeting, 'hi');
    ok(await p.run(['--stack', 'prod', 'config', 'set', 'greeting', 'hello']));
    assert.equal(read(readFileSync(join(p.dir, `Pulumi.prod.${ext}`), 'utf8')).config['layouts:greeting'], 'hello');
    // A new stack's file takes the project file's extension too, and stack ls lists it.
    ok(await p.run(['--stack', 'test', 'config', 'set', 'greeting', 'hey']));
    assert.ok(existsSync(join(p.dir, `Pulumi.test.${ext}`)));
    assert.ok(!existsSync(join(p.dir, 'Pulumi.test.yaml')));
    const stacks = JSON.parse(ok(await p.run(['stack', 'ls', '--json'])).stdout) as Array<{ name: string }>;
    assert.deepEqual(
      stacks.map((s) => s.name),
      ['prod', 'test'],
    );
  });
}

// The language host splits `nodeargs` with shlex (quotes kept together) and refuses options of the
// wrong type (parseOptions), before the program runs.
test('runtime nodeargs are split as Pulumi splits them; a wrong option is refused in one line', async () => {
  const p = layout('nodeargs', {
    'Pulumi.yaml': 'name: layouts\nruntime:\n  name: nodejs\n  options:\n    nodeargs: "--require \'./pre load.js\'"\n',
    'package.json': PACKAGE_JSON,
    'pre load.js': "globalThis.preloaded = 'yes';\n",
    'index.ts': 'export const preloaded = (globalThis as any).preloaded;\n',
  });
  p.setConfig(cloud.ociConfig);
  ok(await p.run(['up', '--yes']), 'up');
  const out = JSON.parse(ok(await p.run(['stack', 'output', '--json'])).stdout) as Record<string, unknown>;
  assert.equal(out.preloaded, 'yes');
  writeFileSync(
    join(p.dir, 'Pulumi.yaml'),
    'name: layouts\nruntime:\n  name: nodejs\n  options:\n    typescript: "false"\n',
  );
  const refused = await p.run(['preview']);
  assert.equal(refused.code, 1);
  assert.equal(refused.stderr, 'error: typescript option must be a boolean\n');
});

// A program's process that ends before its run (here a preload of `nodeargs` that is not there)
// is a failed run, not an ocikit crash: the run's arguments written to the process that had just
// ended failed with EPIPE, unheard, and ocikit died with its own stack trace.
test('a program process that ends at its start fails the run in one line, without a crash', async () => {
  const p = layout('nodeargs-missing', {
    'Pulumi.yaml': 'name: layouts\nruntime:\n  name: nodejs\n  options:\n    nodeargs: "--require ./missing.js"\n',
    'package.json': PACKAGE_JSON,
    'index.ts': 'export const a = 1;\n',
  });
  p.setConfig(cloud.ociConfig);
  for (const args of [['preview'], ['up', '--yes'], ['up', '--skip-preview']]) {
    const run = await p.run(args);
    assert.equal(run.code, 1, args.join(' '));
    assert.doesNotMatch(run.stderr, /EPIPE|ECONNRESET|PrestartedProgram/, args.join(' '));
    // Node's own message, as the program printed it (Pulumi shows it too), then ocikit's one line.
    assert.match(run.stdout, /Cannot find module '\.\/missing\.js'/, args.join(' '));
    assert.equal(
      run.stderr,
      'error: an unhandled error occurred: Program exited with non-zero exit code: 1\n',
      args.join(' '),
    );
  }
});

// An ES module TypeScript program ("type": "module") runs as with Pulumi, whose cmd/run switches
// ts-node to its ESM hooks by itself when node was started without a loader (`--loader`,
// `--import` or `--require` among its arguments): ocikit's own preloads must not count as one.
test('an ES module TypeScript program runs without nodeargs, as Pulumi runs it', async () => {
  const p = layout(
    'esm-ts',
    {
      'Pulumi.yaml': 'name: layouts\nruntime: nodejs\n',
      'package.json': '{ "name": "layouts", "private": true, "type": "module" }\n',
      'tsconfig.json':
        '{ "compilerOptions": { "module": "NodeNext", "moduleResolution": "NodeNext", "target": "ES2022", "strict": true } }\n',
      'lib.ts': 'export const fromLib: number = 42;\n',
      'index.ts':
        "import { fromLib } from './lib.js';\nawait Promise.resolve();\nexport const answer = fromLib;\nexport const esm = typeof require === 'undefined';\n",
    },
    {},
  );
  p.setConfig(cloud.ociConfig);
  ok(await p.run(['up', '--yes']), 'up');
  const out = JSON.parse(ok(await p.run(['stack', 'output', '--json'])).stdout) as Record<string, unknown>;
  assert.deepEqual(out, { answer: 42, esm: true });
});

// Pulumi.yaml's `options: {refresh: always}` makes preview and up refresh first, unless
// `--refresh=false` (pkg/cmd/pulumi: getRefreshOption).
test("Pulumi.yaml's options.refresh: always refreshes before preview and up; --refresh=false does not", async () => {
  const p = layout('refresh-always', {
    'Pulumi.yaml': 'name: layouts\nruntime: nodejs\noptions:\n  refresh: always\n',
    'package.json': PACKAGE_JSON,
    'index.ts':
      "import * as pulumi from '@pulumi/pulumi';\nimport * as oci from '@pulumi/oci';\n" +
      'const config = new pulumi.Config();\n' +
      "export const endpointId = new oci.ailanguage.Endpoint('classifier', {\n" +
      "  compartmentId: config.require('compartmentId'), modelId: config.require('modelId'), inferenceUnits: 1,\n" +
      '}).id;\n',
  });
  p.setConfig({ ...cloud.ociConfig, compartmentId: cloud.sandbox.compartmentId, modelId: cloud.sandbox.textModelId });
  ok(await p.run(['up', '--yes']), 'up');
  const { endpointId } = JSON.parse(ok(await p.run(['stack', 'output', '--json'])).stdout) as { endpointId: string };
  const language = cloud.t.language();
  await language.updateEndpoint({ endpointId, updateEndpointDetails: { inferenceUnits: 2 } });
  await cloud.t.advance(5);
  ok(
    await p.run(['preview', '--refresh=false', '--expect-no-changes']),
    'no refresh: the state says 1, as the program',
  );
  const plan = ok(await p.run(['preview'])).stdout;
  assert.match(plan, /^ ~ +oci:AiLanguage\/endpoint:Endpoint classifier update\n +~ inferenceUnits: 2 => 1$/m);
  ok(await p.run(['up', '--yes']), 'up');
  assert.equal((await language.getEndpoint({ endpointId })).endpoint.inferenceUnits, 1, 'undone');
});
