import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { INSPECT_GUARD } from '../../src/engine/program';
import { cleanEnv, OCIKIT_BIN } from '../support/ocikit';
import { inlineProgram, ok, program, readCheckpoint, startCloud, type Cloud } from '../support/programs';

// The second acceptance audit's checks (issue 9): what a user meets that the first audit missed.
let cloud: Cloud;

before(async () => {
  cloud = await startCloud();
});
after(() => cloud?.close());

/** Three @pulumi/oci endpoints, a, b and c, named `<name>-a`…: the program the interruption tests stop. */
const threeEndpoints = (name: string) =>
  "import * as pulumi from '@pulumi/pulumi';\nimport * as oci from '@pulumi/oci';\n" +
  'const config = new pulumi.Config();\n' +
  "export const ids = ['a', 'b', 'c'].map((n) => new oci.ailanguage.Endpoint(n, {\n" +
  `  compartmentId: config.require('compartmentId'), modelId: config.require('modelId'), displayName: \`${name}-\${n}\`,\n` +
  '}).id);\n';

// An error thrown inside an `apply` has a stack frame at `node_modules/@pulumi/output.ts` (where
// @pulumi/pulumi's source maps point); Pulumi's run.ts formats it with util.inspect(err, {colors:
// true}), which on Node 20.20 loops without end on such a line. In a small heap the loop dies at
// once; without a limit it took minutes and gigabytes before the program failed.
const TRIGGERING_ERROR = `
const e = new Error('gave up in an apply');
e.stack = 'Error: gave up in an apply\\n    at applyHelperAsync (/app/node_modules/@pulumi/output.ts:516:31)';
const text = require('node:util').inspect(e, { colors: true });
process.stdout.write(text.includes('gave up in an apply') ? 'formatted' : 'lost');
`;

test("the program's inspect guard: an error with a scoped package frame is formatted, in a small heap", () => {
  const run = spawnSync(
    process.execPath,
    ['--max-old-space-size=32', '--require', INSPECT_GUARD, '-e', TRIGGERING_ERROR],
    {
      encoding: 'utf8',
    },
  );
  assert.equal(run.stdout, 'formatted', run.stderr.split('\n').slice(0, 3).join('\n'));
  assert.equal(run.status, 0);
  // Everything else util.inspect does is unchanged: colours, its own properties.
  const plain = spawnSync(
    process.execPath,
    [
      '--require',
      INSPECT_GUARD,
      '-e',
      "const u = require('node:util'); process.stdout.write(JSON.stringify([u.inspect(1, { colors: true }), typeof u.inspect.custom, u.inspect.defaultOptions.depth, u.inspect.name]))",
    ],
    { encoding: 'utf8' },
  );
  assert.deepEqual(JSON.parse(plain.stdout), ['\u001b[33m1\u001b[39m', 'symbol', 2, 'inspect']);
});

test('a program that throws inside an apply fails in one line, promptly (no runaway error formatting)', async () => {
  // The heap limit turns the Node bug's runaway formatting into a crash instead of minutes of work.
  const source = inlineProgram(
    'apply-throws',
    "import * as pulumi from '@pulumi/pulumi';\n" +
      "export const value = pulumi.output(1).apply(() => {\n  throw new Error('gave up in an apply');\n});\n",
    'name: apply-throws\nruntime:\n  name: nodejs\n  options:\n    nodeargs: --max-old-space-size=160\n',
  );
  const p = program(source, { ...cloud.env, PULUMI_NODEJS_TRANSPILE_ONLY: 'true' });
  p.setConfig(cloud.ociConfig);
  const result = await p.run(['up', '--yes']);
  assert.equal(result.code, 1, result.stdout + result.stderr);
  assert.equal(result.stderr, 'error: the program failed: gave up in an apply\n');
  assert.doesNotMatch(result.stdout, /heap out of memory|^\s+at \S/m);
});

// Ctrl-C during destroy: as during up, no new step starts once cancelled (Pulumi's first Ctrl-C).
// Deletes waiting for a `--parallel` slot used to start anyway, so the whole stack went.
test('Ctrl-C during destroy starts no new delete: the rest stays in the state and in the cloud', async () => {
  const slow = await startCloud({ transitionDelaySeconds: 2 });
  try {
    const source = inlineProgram('trio', threeEndpoints('trio'));
    const p = program(source, { ...slow.env, PULUMI_NODEJS_TRANSPILE_ONLY: 'true' });
    p.setConfig({
      ...slow.ociConfig,
      'trio:compartmentId': slow.sandbox.compartmentId,
      'trio:modelId': slow.sandbox.textModelId,
    });
    ok(await p.run(['up', '--yes']), 'up');
    const { child, done } = p.spawn(['destroy', '--yes', '--parallel', '1']);
    let seen = '';
    child.stdout!.on('data', (d) => {
      seen += d;
      if (/Endpoint \w+ deleting/.test(seen) && child.exitCode === null && !child.killed) child.kill('SIGINT');
    });
    const cancelled = await done;
    // Pulumi's deployment executor says update for a destroy too (reportExecResult).
    assert.equal(cancelled.code, 1, cancelled.stdout);
    assert.match(cancelled.stderr, /error: update canceled\n$/);
    const started = cancelled.stdout.match(/Endpoint \w+ deleting/g) ?? [];
    assert.equal(started.length, 1, `only the delete in flight ran:\n${cancelled.stdout}`);
    const left = (readCheckpoint(p).resources ?? []).filter((r) => r.type === 'oci:AiLanguage/endpoint:Endpoint');
    assert.ok(left.length >= 2, 'the endpoints not started are still in the state');
    for (const r of left) {
      const { endpoint } = await slow.t.language().getEndpoint({ endpointId: r.id! });
      assert.equal(endpoint.lifecycleState, 'ACTIVE', `${r.urn} is in the cloud as the state says`);
    }
    ok(await p.run(['destroy', '--yes']), 'the next destroy');
    assert.deepEqual(readCheckpoint(p).resources ?? [], []);
  } finally {
    await slow.close();
  }
});

// Pulumi's language host passes the user's environment to the program, NODE_OPTIONS included
// (Pulumi's own advice for "JavaScript heap out of memory" is NODE_OPTIONS=--max-old-space-size).
test("the user's NODE_OPTIONS reach the program, as with Pulumi", async () => {
  const source = inlineProgram(
    'node-options',
    "import * as v8 from 'node:v8';\n" +
      'export const nodeOptions = process.env.NODE_OPTIONS ?? null;\n' +
      'export const heapLimitMb = Math.round(v8.getHeapStatistics().heap_size_limit / 1048576);\n',
  );
  const p = program(source, { ...cloud.env, PULUMI_NODEJS_TRANSPILE_ONLY: 'true' });
  p.setConfig(cloud.ociConfig);
  ok(await p.run(['up', '--yes'], { NODE_OPTIONS: '--max-old-space-size=1536' }), 'up');
  const out = JSON.parse(ok(await p.run(['stack', 'output', '--json'])).stdout) as Record<string, unknown>;
  assert.equal(out.nodeOptions, '--max-old-space-size=1536');
  assert.ok((out.heapLimitMb as number) >= 1536, `the program's heap limit: ${String(out.heapLimitMb)} MB`);
});

// The program's own messages through pulumi.log: info and warnings are shown, as Pulumi shows
// them; debug messages are not (Pulumi shows them with --debug only, which ocikit does not have),
// and the preload does not even send them.
test("the program's log messages: info and warnings are shown, debug ones are not", async () => {
  const source = inlineProgram(
    'log-levels',
    "import * as pulumi from '@pulumi/pulumi';\n" +
      "pulumi.log.info('an info line from the program');\n" +
      "pulumi.log.debug('a debug line from the program');\n" +
      "pulumi.log.warn('a warning from the program');\n" +
      'export const done = true;\n',
  );
  const p = program(source, { ...cloud.env, PULUMI_NODEJS_TRANSPILE_ONLY: 'true' });
  p.setConfig(cloud.ociConfig);
  const shown = ok(await p.run(['up', '--yes']), 'up').stdout;
  assert.match(shown, /an info line from the program/);
  assert.match(shown, /warning: a warning from the program/);
  assert.doesNotMatch(shown, /a debug line/);
  const events = ok(await p.run(['preview', '--json']))
    .stdout.trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  const diagnostics = events.flatMap((e: { diagnosticEvent?: { severity: string; message: string } }) =>
    e.diagnosticEvent && /from the program/.test(e.diagnosticEvent.message) ? [e.diagnosticEvent.severity] : [],
  );
  assert.deepEqual(diagnostics, ['info', 'warning']);
});

// A terminal's Ctrl-C goes to the whole foreground process group, not just to ocikit. The plugins
// (and the program) used to be in ocikit's group, so the plugin died with its creates in flight:
// their ids never came back, the state forgot them, and they were orphans in the cloud. As
// Pulumi starts its plugins in their own process group, only ocikit hears the terminal and runs
// the cancel: the operations in flight finish and are recorded.
test("Ctrl-C at a terminal (SIGINT to ocikit's process group): what was created is in the state", async () => {
  const slow = await startCloud({ transitionDelaySeconds: 2 });
  try {
    const source = inlineProgram('group', threeEndpoints('group'));
    const p = program(source, { ...slow.env, PULUMI_NODEJS_TRANSPILE_ONLY: 'true' });
    p.setConfig({
      ...slow.ociConfig,
      'group:compartmentId': slow.sandbox.compartmentId,
      'group:modelId': slow.sandbox.textModelId,
    });
    // ocikit leads its own process group here, as a shell's foreground job does.
    const child = spawn(process.execPath, [OCIKIT_BIN, '--cwd', p.dir, 'up', '--yes', '--parallel', '2'], {
      env: cleanEnv({ ...slow.env, PULUMI_NODEJS_TRANSPILE_ONLY: 'true' }),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    let sent = false;
    child.stderr!.on('data', (d) => (stderr += d));
    child.stdout!.on('data', (d) => {
      stdout += d;
      // Once a create reached the cloud (the plugin's progress says so).
      if (!sent && /Endpoint \w+: (state CREATING|work request)/.test(stdout)) {
        sent = true;
        process.kill(-child.pid!, 'SIGINT');
      }
    });
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    assert.ok(sent && code !== 0, `cancelled (exit ${code}):\n${stdout}\n${stderr}`);
    assert.match(stderr, /error: update canceled\n$/);
    const state = readCheckpoint(p);
    const recorded = new Set((state.resources ?? []).map((r) => r.id));
    const live = (
      await slow.t.language().listEndpoints({ compartmentId: slow.sandbox.compartmentId })
    ).endpointCollection.items.filter(
      (e) => e.displayName?.startsWith('group-') && e.lifecycleState !== 'DELETED' && e.lifecycleState !== 'DELETING',
    );
    assert.ok(live.length >= 1, 'a create was in flight');
    for (const e of live)
      assert.ok(recorded.has(e.id), `${e.displayName} (${e.id}) is in the cloud but not in the state`);
    ok(await p.run(['up', '--yes']), 'the next up');
    ok(await p.run(['destroy', '--yes']), 'destroy');
    const left = (
      await slow.t.language().listEndpoints({ compartmentId: slow.sandbox.compartmentId })
    ).endpointCollection.items.filter((e) => e.displayName?.startsWith('group-') && e.lifecycleState === 'ACTIVE');
    assert.deepEqual(left, [], 'no orphan after destroy');
  } finally {
    await slow.close();
  }
});

// A secret inside a map (`freeformTags: { team: pulumi.secret(…) }`) changed outside: the refresh
// and the next preview show that entry changed, as Pulumi's diff does (it compares the secrets'
// values and prints `[secret] => [secret]`). ocikit read the map back as one secret and its display
// saw every masked secret as equal, so both printed the map removed and added (`-`/`+`).
test('a secret tag changed outside: refresh and preview show it updated, and the secret shows nowhere', async () => {
  const source = inlineProgram(
    'secret-tag',
    "import * as pulumi from '@pulumi/pulumi';\nimport * as oci from '@pulumi/oci';\n" +
      'const config = new pulumi.Config();\n' +
      "const e = new oci.ailanguage.Endpoint('e', { compartmentId: config.require('compartmentId'),\n" +
      "  modelId: config.require('modelId'), displayName: 'secret-tag', freeformTags: { team: pulumi.secret('tag-one'), env: 'dev' } });\n" +
      'export const id = e.id;\n',
  );
  const p = program(source, { ...cloud.env, PULUMI_NODEJS_TRANSPILE_ONLY: 'true', PULUMI_CONFIG_PASSPHRASE: 'pw' });
  p.setConfig({
    ...cloud.ociConfig,
    'secret-tag:compartmentId': cloud.sandbox.compartmentId,
    'secret-tag:modelId': cloud.sandbox.textModelId,
  });
  ok(await p.run(['up', '--yes']), 'up');
  const { id } = JSON.parse(ok(await p.run(['stack', 'output', '--json'])).stdout) as { id: string };
  await cloud.t.language().updateEndpoint({
    endpointId: id,
    updateEndpointDetails: { freeformTags: { team: 'tag-two', env: 'dev' } },
  });
  await cloud.t.advance(5);
  const changed = / {8}~ freeformTags: \{\n {14}env : "dev"\n {12}~ team: \[secret\] => \[secret\]\n {10}\}\n/;
  const refresh = ok(await p.run(['refresh', '--yes', '--skip-preview']), 'refresh');
  assert.match(refresh.stdout, changed);
  const preview = ok(await p.run(['preview']), 'preview');
  assert.match(preview.stdout, changed);
  const events = ok(await p.run(['preview', '--json']), 'preview --json').stdout;
  for (const [what, text] of [
    ['refresh', refresh.stdout],
    ['preview', preview.stdout],
    ['--json', events],
    ['the state', readFileSync(join(p.dir, '.ocikit', 'stacks', 'dev.json'), 'utf8')],
  ])
    assert.doesNotMatch(text, /tag-(one|two)/, `${what} shows the secret`);
  ok(await p.run(['up', '--yes']), 'the repair');
  const { endpoint } = await cloud.t.language().getEndpoint({ endpointId: id });
  assert.deepEqual(endpoint.freeformTags, { team: 'tag-one', env: 'dev' });
});

// Pulumi prints JSON with Go's encoder, HTML escaping off (ui.MakeJSONString for `stack output`,
// encoding.JSON.Marshal for the checkpoint `stack export` prints, ShowJSONEvents for --json):
// `<a&b>` as it is, but U+2028 and U+2029 escaped in every string, and a map's keys sorted by
// their bytes ("10" before "2"). ocikit wrote the separators raw and "2" first, as JSON.stringify does.
test('stack output, stack export and --json write JSON as Go writes it: <a&b> as is, U+2028 escaped, keys sorted', async () => {
  const source = inlineProgram(
    'go-json',
    "export const s = '<a&b>\\u2028';\nexport const o = { k: '<a&b>\\u2029', 2: 2, 10: 10 };\n",
  );
  const p = program(source, { ...cloud.env, PULUMI_NODEJS_TRANSPILE_ONLY: 'true' });
  p.setConfig(cloud.ociConfig);
  ok(await p.run(['up', '--yes']), 'up');
  assert.equal(
    ok(await p.run(['stack', 'output', '--json'])).stdout,
    '{\n  "o": {\n    "10": 10,\n    "2": 2,\n    "k": "<a&b>\\u2029"\n  },\n  "s": "<a&b>\\u2028"\n}\n',
  );
  assert.equal(ok(await p.run(['stack', 'output', 's', '--json'])).stdout, '"<a&b>\\u2028"\n');
  // The table: a string as it is, another value as one line of the same JSON.
  assert.equal(
    ok(await p.run(['stack', 'output'])).stdout,
    'Current stack outputs (2):\n    OUTPUT  VALUE\n    o       {"10":10,"2":2,"k":"<a&b>\\u2029"}\n    s       <a&b>\u2028\n',
  );
  const exported = ok(await p.run(['stack', 'export'])).stdout;
  assert.match(exported, /"s": "<a&b>\\u2028"/);
  const events = ok(await p.run(['preview', '--json'])).stdout;
  assert.match(events, /"s":"<a&b>\\u2028"/);
  for (const [what, text] of [
    ['stack export', exported],
    ['--json', events],
  ]) {
    assert.doesNotMatch(text, /[\u2028\u2029]/, `${what} holds a raw line separator`);
    JSON.parse(what === '--json' ? text.trim().split('\n')[1] : text);
  }
});

// A negative zero is a float64 -0 all the way in Pulumi: the program sends it, the state keeps it
// (Go's encoder writes `-0`), and `stack output` and the run's Outputs print it so. ocikit's state
// writer (JSON.stringify) turned it into 0, so only the preview showed `-0`.
test('a -0 output stays -0: in the Outputs of up, the state, and stack output (plain and --json)', async () => {
  const source = inlineProgram('negative-zero', 'export const z = -0;\nexport const zs = [-0, 1];\n');
  const p = program(source, { ...cloud.env, PULUMI_NODEJS_TRANSPILE_ONLY: 'true' });
  p.setConfig(cloud.ociConfig);
  const up = ok(await p.run(['up', '--yes']), 'up');
  assert.match(
    up.stdout,
    /Updating \(dev\):[\s\S]*Outputs:\n {4}z : -0\n {4}zs: \[\n {8}\[0\]: -0\n {8}\[1\]: 1\n {4}\]\n/,
  );
  assert.match(readFileSync(join(p.dir, '.ocikit', 'stacks', 'dev.json'), 'utf8'), /"z": -0,/);
  assert.equal(ok(await p.run(['stack', 'output', 'z'])).stdout, '-0\n');
  assert.equal(
    ok(await p.run(['stack', 'output', '--json'])).stdout,
    '{\n  "z": -0,\n  "zs": [\n    -0,\n    1\n  ]\n}\n',
  );
  assert.match(ok(await p.run(['stack', 'output'])).stdout, /\n {4}z {7}-0\n {4}zs {6}\[-0,1\]\n$/);
  assert.match(ok(await p.run(['preview'])).stdout, /Resources:\n {4}1 unchanged\n/);
});

// Pulumi's checkpoint, `stack export` and --json events hold a resource's inputs and outputs as Go
// maps (SerializeProperties' map[string]interface{}; events.go StepEventStateMetadata), which
// Go's encoder writes with their keys sorted by byte, nested objects too, while the structs around
// them keep their fields' order; `stack export --show-secrets` writes a secret's plaintext as
// json.Marshal writes its value (SerializePropertyValue), sorted too. ocikit wrote "2" before "10".
test('the state, stack export and --json write a map as Go does: keys sorted, "10" before "2", a secret too', async () => {
  const source = inlineProgram(
    'go-maps',
    "import * as pulumi from '@pulumi/pulumi';\n" +
      'export const o = { k: 1, 2: 2, 10: 10, n: { b: 1, a: 2 } };\n' +
      'export const h = pulumi.secret({ y: 1, 10: 2, x: 3 });\n',
  );
  const p = program(source, { ...cloud.env, PULUMI_NODEJS_TRANSPILE_ONLY: 'true', PULUMI_CONFIG_PASSPHRASE: 'pw' });
  p.setConfig(cloud.ociConfig);
  ok(await p.run(['up', '--yes']), 'up');
  const sorted = /"o": \{\n\s*"10": 10,\n\s*"2": 2,\n\s*"k": 1,\n\s*"n": \{\n\s*"a": 2,\n\s*"b": 1\n\s*\}\n\s*\}/;
  assert.match(readFileSync(join(p.dir, '.ocikit', 'stacks', 'dev.json'), 'utf8'), sorted);
  const exported = ok(await p.run(['stack', 'export'])).stdout;
  assert.match(exported, sorted);
  // The outputs before the stack's own fields that follow them (a struct's order is kept).
  assert.match(exported, /"type": "pulumi:pulumi:Stack",\n\s*"outputs": \{\n\s*"h": \{/);
  assert.match(
    ok(await p.run(['stack', 'export', '--show-secrets'])).stdout,
    /"plaintext": "\{\\"10\\":2,\\"x\\":3,\\"y\\":1\}"/,
  );
  const events = ok(await p.run(['preview', '--json'])).stdout;
  assert.match(events, /"outputs":\{"h":"\[secret\]","o":\{"10":10,"2":2,"k":1,"n":\{"a":2,"b":1\}\}\}/);
});

// Pulumi makes a DIY stack's secrets manager before every run (SecretsManagerLoader.GetSecretsManager:
// the backend's DefaultSecretManager, passphrase.NewPromptingPassphraseSecretsManager, makes a salt
// for a stack without one, and the config file is saved with it), and every checkpoint names it in
// `secrets_providers` (SerializeDeployment with the snapshot's SecretsManager). ocikit made the salt
// only for a first secret, so a secret-free stack's checkpoint named no secrets provider.
test('a run with the passphrase gives a secret-free stack its salt, and the checkpoint names it', async () => {
  const source = inlineProgram('no-secrets', 'export const x = 1;\n');
  const p = program(source, { ...cloud.env, PULUMI_NODEJS_TRANSPILE_ONLY: 'true' });
  p.setConfig(cloud.ociConfig);
  const salt = () => parseYaml(readFileSync(join(p.dir, 'Pulumi.dev.yaml'), 'utf8')).encryptionsalt as unknown;
  const named = () => (readCheckpoint(p) as { secrets_providers?: unknown }).secrets_providers;
  // Without a passphrase, as before: no salt, none named (Pulumi would ask for the passphrase).
  ok(await p.run(['up', '--yes']), 'up');
  assert.equal(salt(), undefined);
  assert.equal(named(), undefined);
  ok(await p.run(['up', '--yes'], { PULUMI_CONFIG_PASSPHRASE: 'pw' }), 'up with the passphrase');
  assert.match(String(salt()), /^v1:[A-Za-z0-9+/=]+:v1:/);
  assert.deepEqual(named(), { type: 'passphrase', state: { salt: salt() } });
  assert.deepEqual(JSON.parse(ok(await p.run(['stack', 'export'])).stdout).deployment.secrets_providers, named());
});
