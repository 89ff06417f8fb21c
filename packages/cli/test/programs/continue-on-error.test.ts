import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  assertIntegrity,
  injectedError,
  inlineProgram,
  liveEndpoints,
  ok,
  program,
  readCheckpoint,
  startCloud,
  type Cloud,
  type Program,
} from '../support/programs';

// `up --continue-on-error` and `destroy --continue-on-error` (or PULUMI_CONTINUE_ON_ERROR), as
// Pulumi's step executor runs them (cancelDueToError, handleSingleEvent, performDeletes): a failed
// step stops only what depends on it, the run fails with "update failed", and the next run converges.

/** The programs' start: config, and endpoints named `coe-<name>`. */
const PRELUDE = `import * as pulumi from '@pulumi/pulumi';
import * as oci from '@ocikit/oci';

const config = new pulumi.Config();
const endpoint = (name: string, opts?: pulumi.CustomResourceOptions) =>
  new oci.ailanguage.Endpoint(name, {
    compartmentId: config.require('compartmentId'),
    modelId: config.require('textModelId'),
    displayName: 'coe-' + name,
  }, opts);
`;

const INDEX = `${PRELUDE}const standby = new oci.Provider('standby', { region: config.require('standbyRegion') });
const first = endpoint('first');
new oci.disasterrecovery.DrPlan(
  'plan',
  { displayName: 'coe-plan', type: 'SWITCHOVER', drProtectionGroupId: config.require('standbyGroupId') },
  { provider: standby },
);
endpoint('third', { dependsOn: [first] });
`;

const coeConfig = (cloud: Cloud, extra: Record<string, string> = {}) => ({
  ...cloud.ociConfig,
  'coe:compartmentId': cloud.sandbox.compartmentId,
  'coe:standbyRegion': cloud.sandbox.peerRegion,
  'coe:standbyGroupId': cloud.sandbox.standbyGroupId,
  'coe:textModelId': cloud.sandbox.textModelId,
  ...extra,
});

function coe(cloud: Cloud, index = INDEX, extra: Record<string, string> = {}): Program {
  const p = program(inlineProgram('coe', index), { PULUMI_NODEJS_TRANSPILE_ONLY: 'true', ...cloud.env });
  p.setConfig(coeConfig(cloud, extra));
  return p;
}

/** The custom resources of the state, by name (providers left out). */
function inState(p: Program): string[] {
  return (readCheckpoint(p).resources ?? [])
    .filter((r) => r.custom && !r.type.startsWith('pulumi:providers:'))
    .map((r) => r.urn.split('::').pop()!)
    .sort();
}

async function live(cloud: Cloud): Promise<{ endpoints: string[]; plans: number }> {
  const alive = (s?: string) => s !== 'DELETED' && s !== 'DELETING';
  const endpoints = (await liveEndpoints(cloud, 'coe-')).map((e) => e.displayName!).sort();
  const plans = (
    await cloud.t
      .dr(cloud.sandbox.peerRegion)
      .listDrPlans({ drProtectionGroupId: cloud.sandbox.standbyGroupId, displayName: 'coe-plan' })
  ).drPlanCollection.items.filter((x) => alive(x.lifecycleState)).length;
  return { endpoints, plans };
}

const fault = injectedError;

for (const how of ['flag', 'environment'] as const) {
  const args = how === 'flag' ? ['--continue-on-error'] : [];
  const env = how === 'flag' ? {} : { PULUMI_CONTINUE_ON_ERROR: 'true' };

  test(`up with continue-on-error (${how}): the independent plan is created, the failed endpoint's dependent is skipped`, async () => {
    const cloud = await startCloud();
    try {
      const p = coe(cloud);
      await cloud.t.emulator.admin.injectFault({ operation: 'CreateEndpoint', ...fault });
      const failed = await p.run(['up', '--yes', ...args], env);
      assert.equal(failed.code, 1, failed.stdout + failed.stderr);
      // The step's own error under the resource, then Pulumi's reportExecResult, which is the run's line.
      assert.match(failed.stdout, /injected by the test/);
      assert.equal(failed.stderr.trim(), 'error: update failed');
      assert.deepEqual(await live(cloud), { endpoints: [], plans: 1 });
      assert.deepEqual(inState(p), ['plan']);
      // The skipped dependent had no step in the update (the preview planned it).
      assert.doesNotMatch(failed.stdout.split('Updating (dev):')[1], /third/);

      ok(await p.run(['up', '--yes']), 'the converging up');
      assert.deepEqual(await live(cloud), { endpoints: ['coe-first', 'coe-third'], plans: 1 });
      assert.deepEqual(inState(p), ['first', 'plan', 'third']);
    } finally {
      await cloud.close();
    }
  });
}

test('destroy --continue-on-error: a failed delete keeps what it depends on, the rest is deleted', async () => {
  const cloud = await startCloud();
  try {
    const p = coe(cloud);
    ok(await p.run(['up', '--yes']));
    // `third` depends on `first`, so it is deleted first, and gets the fault.
    await cloud.t.emulator.admin.injectFault({ operation: 'DeleteEndpoint', ...fault });
    const failed = await p.run(['destroy', '--yes', '--continue-on-error']);
    assert.equal(failed.code, 1, failed.stdout + failed.stderr);
    assert.match(failed.stdout, /injected by the test/);
    assert.equal(failed.stderr.trim(), 'error: update failed');
    assert.deepEqual(await live(cloud), { endpoints: ['coe-first', 'coe-third'], plans: 0 });
    assert.deepEqual(inState(p), ['first', 'third']);

    ok(await p.run(['destroy', '--yes']), 'the converging destroy');
    assert.deepEqual(await live(cloud), { endpoints: [], plans: 0 });
    assert.deepEqual(readCheckpoint(p).resources ?? [], []);
  } finally {
    await cloud.close();
  }
});

test('destroy --continue-on-error: a protected resource fails its delete, what it depends on stays, the rest is deleted', async () => {
  const cloud = await startCloud();
  try {
    const p = coe(cloud);
    ok(await p.run(['up', '--yes']));
    ok(await p.run(['state', 'protect', 'urn:pulumi:dev::coe::oci:AiLanguage/endpoint:Endpoint::third', '--yes']));
    // Without the flag nothing is deleted (the refusal comes first).
    const refused = await p.run(['destroy', '--skip-preview']);
    assert.equal(refused.code, 1);
    assert.deepEqual(await live(cloud), { endpoints: ['coe-first', 'coe-third'], plans: 1 });
    // With it, as Pulumi's DeleteStep.Apply fails for the protected one and the others go on.
    const failed = await p.run(['destroy', '--skip-preview', '--continue-on-error']);
    assert.equal(failed.code, 1, failed.stdout + failed.stderr);
    assert.match(failed.stdout, /cannot be deleted/);
    assert.equal(failed.stderr.trim(), 'error: update failed');
    assert.deepEqual(await live(cloud), { endpoints: ['coe-first', 'coe-third'], plans: 0 });
    assert.deepEqual(inState(p), ['first', 'third']);
    assertIntegrity(readCheckpoint(p));
  } finally {
    await cloud.close();
  }
});

test('up --continue-on-error: a replaced copy whose delete failed stays after its replacement, a state stack import takes', async () => {
  const cloud = await startCloud();
  try {
    const p = coe(cloud);
    ok(await p.run(['up', '--yes']));
    await cloud.t.emulator.admin.injectFault({ operation: 'DeleteEndpoint', ...fault });
    const first = 'urn:pulumi:dev::coe::oci:AiLanguage/endpoint:Endpoint::first';
    const failed = await p.run(['up', '--yes', '--skip-preview', '--continue-on-error', '--replace', first]);
    assert.equal(failed.code, 1, failed.stdout + failed.stderr);
    // The original's delete-replaced row fails as a delete (progress.go getStepDoneDescription).
    assert.match(failed.stdout, /-- +oci:AiLanguage\/endpoint:Endpoint first \*\*deleting failed\*\*/);
    // The replacement, then the original marked for deletion (Pulumi's VerifyIntegrity refuses the other order).
    const copies = (readCheckpoint(p).resources ?? []).filter((r) => r.urn === first);
    assert.deepEqual(
      copies.map((r) => Boolean(r.delete)),
      [false, true],
    );
    assertIntegrity(readCheckpoint(p));
    ok(await p.run(['stack', 'export', '--file', 'state.json']));
    ok(await p.run(['stack', 'import', '--file', 'state.json']), 'stack import of the export');

    ok(await p.run(['up', '--yes']), 'the converging up');
    assert.deepEqual(await live(cloud), { endpoints: ['coe-first', 'coe-third'], plans: 1 });
    assert.deepEqual(inState(p), ['first', 'plan', 'third']);
  } finally {
    await cloud.close();
  }
});

// A `Resource.get` whose read fails and an `import` option whose import fails, as Pulumi's step
// executor treats any failed step (cancelDueToError: ReadStep.Fail, ImportStep.Fail).
const READS = `${PRELUDE}const outside = oci.ailanguage.Endpoint.get('outside', config.require('outsideId'));
const independent = endpoint('independent');
endpoint('reader', { dependsOn: [outside] });
const adoptId = config.get('adoptId');
const adopted = adoptId ? endpoint('adopted', { import: adoptId }) : undefined;
if (adopted) endpoint('adopter', { dependsOn: [adopted] });
oci.ailanguage.Endpoint.get('reread', independent.id, undefined, { dependsOn: adopted ? [adopted] : [] });
export const outsideName = outside.displayName;
export const adoptedState = adopted?.state;
`;

test('up --continue-on-error: a failed read and a failed import skip their dependents, the rest runs, the stack keeps its old outputs', async () => {
  const cloud = await startCloud();
  try {
    const { endpoint } = await cloud.t.language().createEndpoint({
      createEndpointDetails: {
        compartmentId: cloud.sandbox.compartmentId,
        modelId: cloud.sandbox.textModelId,
        displayName: 'coe-outside',
      },
    });
    const p = coe(cloud, READS, { 'coe:outsideId': endpoint.id });
    assert.match(ok(await p.run(['up', '--yes'])).stdout, /^ > +\S+ reread reading$/m);
    const stack = () => (readCheckpoint(p).resources ?? []).find((r) => r.type === 'pulumi:pulumi:Stack')!;
    assert.deepEqual((stack() as { outputs?: object }).outputs, { outsideName: 'coe-outside' });
    const outsideUrn = 'urn:pulumi:dev::coe::oci:AiLanguage/endpoint:Endpoint::outside';
    const readBefore = (readCheckpoint(p).resources ?? []).find((r) => r.urn === outsideUrn);

    const missing = `${endpoint.id.slice(0, -6)}zzzzzz`;
    p.setConfig(coeConfig(cloud, { 'coe:outsideId': missing, 'coe:adoptId': missing }));
    // The preview reads too: its failed read goes on, and it fails as Pulumi's reportExecResult words it.
    const preview = await p.run(['up', '--yes', '--continue-on-error']);
    assert.equal(preview.code, 1, preview.stdout + preview.stderr);
    assert.equal(preview.stderr.trim(), 'error: preview failed');

    const failed = await p.run(['up', '--yes', '--skip-preview', '--continue-on-error']);
    assert.equal(failed.code, 1, failed.stdout + failed.stderr);
    assert.match(failed.stdout, /::outside: resource '[^']+' does not exist/);
    assert.match(failed.stdout, /::adopted: resource '[^']+' does not exist/);
    assert.equal(failed.stderr.trim(), 'error: update failed');
    // A read that depends on the failed import is skipped too: no step.
    assert.doesNotMatch(failed.stdout, /reread/);
    // The reader keeps its old state, the adopter is not created, the failed read keeps what it read before.
    assert.deepEqual(await live(cloud), {
      endpoints: ['coe-independent', 'coe-outside', 'coe-reader'],
      plans: 0,
    });
    assert.deepEqual(inState(p), ['independent', 'outside', 'reader', 'reread']);
    assert.deepEqual(
      (readCheckpoint(p).resources ?? []).find((r) => r.urn === outsideUrn),
      readBefore,
    );
    // The program got no outputs for the failed read (the SDK resolves them undefined, so the
    // output is not registered and the old one stays) and unknowns for the failed import's
    // outputs (saved as Pulumi serializes a computed value).
    assert.deepEqual((stack() as { outputs?: object }).outputs, {
      outsideName: 'coe-outside',
      adoptedState: '04da6b54-80e4-46f7-96ec-b56ff0331ba9',
    });
    // `stack output` prints it as Pulumi's getStackOutputs does: the placeholder the state holds.
    assert.equal(ok(await p.run(['stack', 'output', 'adoptedState'])).stdout, '04da6b54-80e4-46f7-96ec-b56ff0331ba9\n');
    assertIntegrity(readCheckpoint(p));

    p.setConfig(coeConfig(cloud, { 'coe:outsideId': endpoint.id }));
    ok(await p.run(['up', '--yes']), 'the converging up');
    assert.deepEqual((stack() as { outputs?: object }).outputs, { outsideName: 'coe-outside' });
  } finally {
    await cloud.close();
  }
});
