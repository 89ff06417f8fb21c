import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES, ok, program, startCloud, type Cloud, type Program } from '../support/programs';
import type { StepEventMetadata } from '../../src/engine';

// A program written for the official @pulumi/oci, run unchanged: its default and explicit `oci`
// providers (whatever version they ask for) go to our plugin. Its endpoint name is a secret.
const SECRET_NAME = 'very-secret-endpoint-name';
const PASSPHRASE = { PULUMI_CONFIG_PASSPHRASE: 'test passphrase' };
let cloud: Cloud;
let p: Program;

before(async () => {
  cloud = await startCloud();
  p = program(join(FIXTURES, 'pulumi-oci'), { ...PASSPHRASE, ...cloud.env, PULUMI_NODEJS_TRANSPILE_ONLY: 'true' });
  p.setConfig({
    ...cloud.ociConfig,
    'legacy:compartmentId': cloud.sandbox.compartmentId,
    'legacy:standbyRegion': cloud.sandbox.peerRegion,
    'legacy:modelId': cloud.sandbox.textModelId,
  });
  ok(await p.run(['config', 'set', '--secret', 'endpointName', SECRET_NAME]));
});
after(() => cloud?.close());

test('a @pulumi/oci program runs unchanged; secrets stay out of the state and the display', async () => {
  const up = ok(await p.run(['up', '--yes']));
  assert.doesNotMatch(up.stdout, /embedded OCI emulator/, 'oci:endpoint is configured: no embedded emulator');
  assert.ok(!up.stdout.includes(SECRET_NAME), 'the secret is not displayed');
  const out = JSON.parse(ok(await p.run(['stack', 'output', '--json'])).stdout);
  assert.equal(out.endpointName, '[secret]');
  assert.equal(out.planType, 'FAILOVER');
  assert.equal(ok(await p.run(['stack', 'output', 'endpointName', '--show-secrets'])).stdout, `${SECRET_NAME}\n`);

  const endpoint = (await cloud.t.language().getEndpoint({ endpointId: out.endpointId })).endpoint;
  assert.equal(endpoint.displayName, SECRET_NAME);
  const plan = (await cloud.t.dr(cloud.sandbox.peerRegion).getDrPlan({ drPlanId: out.planId })).drPlan;
  assert.equal(plan.drProtectionGroupId, cloud.sandbox.standbyGroupId);
  // The program's stack transform tagged both.
  assert.deepEqual(endpoint.freeformTags, { managedBy: 'pulumi' });
  assert.deepEqual(plan.freeformTags, { managedBy: 'pulumi' });

  for (const file of readdirSync(join(p.dir, '.ocikit'), { recursive: true })) {
    const path = join(p.dir, '.ocikit', String(file));
    if (!/\.json/.test(path)) continue;
    const text = readFileSync(path, 'utf8');
    assert.ok(!text.includes(SECRET_NAME), `${file} holds the secret in plain text`);
    assert.ok(!text.includes('PRIVATE KEY'), `${file} holds a private key`);
  }
  const exported = ok(await p.run(['stack', 'export'])).stdout;
  assert.ok(!exported.includes(SECRET_NAME));
  assert.equal(JSON.parse(exported).version, 3);
  // Providers carry the version the SDK registered them with, explicit ones too (as Pulumi's
  // resource monitor records it), so the real Pulumi CLI loads the same plugin from this state.
  const providers = (
    JSON.parse(exported).deployment.resources as Array<{ urn: string; inputs: Record<string, unknown> }>
  ).filter((r) => r.urn.includes('::pulumi:providers:oci::'));
  assert.deepEqual(providers.map((r) => [r.urn.split('::').pop(), r.inputs.version]).sort(), [
    ['default_4_20_0', '4.20.0'],
    ['standby', '4.20.0'],
  ]);
  assert.ok(!readFileSync(join(p.dir, 'Pulumi.dev.yaml'), 'utf8').includes(SECRET_NAME));
});

test('--json prints the engine events, one JSON object a line', async () => {
  const preview = ok(await p.run(['preview', '--json']));
  const events = preview.stdout
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  assert.ok(events.length > 0);
  const kinds = new Set(events.flatMap((e) => Object.keys(e).filter((k) => k.endsWith('Event'))));
  assert.ok(kinds.has('resourcePreEvent'), [...kinds].join());
  assert.ok(kinds.has('summaryEvent'), [...kinds].join());
  // Numbered as Pulumi stamps the engine's events, before it drops the internal ones (display.go
  // ShowEvents): a default provider's steps are not printed but take their numbers.
  const sequences = events.map((e) => e.sequence as number);
  assert.equal(sequences[0], 0);
  assert.ok(
    sequences.every((n, i) => i === 0 || n > sequences[i - 1]),
    sequences.join(),
  );
  assert.ok(sequences.at(-1)! > events.length - 1, `the default provider's numbers are skipped: ${sequences.join()}`);
  const steps = events.flatMap((e) => {
    const step = (e.resourcePreEvent ?? e.resOutputsEvent) as { metadata: Record<string, unknown> } | undefined;
    return step ? [step.metadata] : [];
  });
  assert.ok(!steps.some((m) => String(m.urn).includes('::pulumi:providers:oci::default')));
  // apitype.StepEventMetadata: old and new always (null when none), empty lists left out.
  for (const m of steps) {
    assert.ok('old' in m && 'new' in m, JSON.stringify(m).slice(0, 200));
    assert.ok(!Array.isArray(m.diffs) || m.diffs.length > 0);
  }
  assert.ok(!preview.stdout.includes(SECRET_NAME));
  // As Pulumi's engine: a run that succeeded ends with a cancelEvent, and the steps of the
  // program's registrations are logical.
  assert.deepEqual(
    Object.keys(events.at(-1)!).filter((k) => k.endsWith('Event')),
    ['cancelEvent'],
  );
  const pre = events.flatMap((e) =>
    e.resourcePreEvent ? [e.resourcePreEvent as { metadata: { logical?: boolean } }] : [],
  );
  assert.ok(pre.length > 0 && pre.every((e) => e.metadata.logical === true));
  // apitype.SummaryEvent's PolicyPacks is PascalCase on the wire.
  const summary = events.find((e) => e.summaryEvent)!.summaryEvent as Record<string, unknown>;
  assert.deepEqual([summary.PolicyPacks, summary.isPreview], [{}, true]);
});

test('stack ls lists the stack with its resources', async () => {
  const ls = ok(await p.run(['stack', 'ls']));
  assert.match(ls.stdout, /^NAME +LAST UPDATE +RESOURCE COUNT\ndev\* +(now|\d+ \w+ ago) +\d+\n/);
});

test("refresh reports drift in the cloud's direction, as Pulumi's inverted Diff: a tag added outside is an add", async () => {
  const { endpointId } = JSON.parse(ok(await p.run(['stack', 'output', '--json'])).stdout) as { endpointId: string };
  const language = cloud.t.language();
  await language.updateEndpoint({
    endpointId,
    updateEndpointDetails: { freeformTags: { managedBy: 'pulumi', team: 'dr' } },
  });
  await cloud.t.advance(5);
  const events = ok(await p.run(['refresh', '--yes', '--skip-preview', '--json']))
    .stdout.trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as { resOutputsEvent?: { metadata: StepEventMetadata } });
  const found = events.find((e) => e.resOutputsEvent?.metadata.urn.endsWith('::classifier'))!.resOutputsEvent!;
  // The provider's Diff of what was read against the state's inputs, inverted (RefreshStep.Apply):
  // the tag the cloud has and the state does not is an add; the secret name, unchanged, is no drift.
  assert.equal(found.metadata.op, 'update');
  assert.deepEqual(found.metadata.diffs, ['freeformTags']);
  assert.deepEqual(found.metadata.detailedDiff, { 'freeformTags.team': { diffKind: 'add', inputDiff: true } });
  const plan = ok(await p.run(['preview'])).stdout;
  assert.match(plan, /~ freeformTags: \{\n +- team *: "dr"\n/);
  ok(await p.run(['up', '--yes']));
  assert.deepEqual((await language.getEndpoint({ endpointId })).endpoint.freeformTags, { managedBy: 'pulumi' });
});

// Command lines written for the Pulumi CLI use its display and bookkeeping flags.
test("Pulumi's --diff, --show-sames, --show-replacement-steps, --show-reads, --suppress-outputs, --color, -m and -c flags", async () => {
  const r = ok(
    await p.run([
      'preview',
      '--diff',
      '--show-sames',
      '--show-replacement-steps',
      '--show-reads',
      '--suppress-outputs',
      '--color',
      'always',
      '-m',
      'a message',
      '-c',
      'legacy:note=from the command line',
    ]),
  );
  assert.ok(r.stdout.includes('\x1b[1mResources:'), '--color always colours without a terminal');
  // Every unchanged resource has its line (the default provider stays internal), no outputs.
  // eslint-disable-next-line no-control-regex
  const plain = r.stdout.replace(/\x1b\[[0-9;]*m/g, '');
  assert.match(plain, /^ {5}pulumi:pulumi:Stack legacy-dev$/m);
  assert.match(plain, /^ {5}pulumi:providers:oci standby$/m);
  assert.doesNotMatch(plain, /default_4_20_0|Outputs:/);
  assert.match(plain, /Resources:\n {4}\d+ unchanged\n/);
  // -c saved the value in the stack's file, as Pulumi does.
  assert.match(readFileSync(join(p.dir, 'Pulumi.dev.yaml'), 'utf8'), /^ {2}legacy:note: from the command line$/m);
});

test('destroy deletes every resource', async () => {
  const out = JSON.parse(ok(await p.run(['stack', 'output', '--json'])).stdout);
  ok(await p.run(['destroy', '--yes']));
  const endpoint = await cloud.t
    .language()
    .getEndpoint({ endpointId: out.endpointId })
    .then(
      (r) => r.endpoint.lifecycleState as string,
      () => 'GONE',
    );
  assert.ok(['DELETED', 'GONE'].includes(endpoint), endpoint);
});
