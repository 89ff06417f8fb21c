import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import {
  assertIntegrity,
  FIXTURES,
  ok,
  program,
  readCheckpoint,
  startCloud,
  type Cloud,
  type Program,
} from '../support/programs';

// `--target`, `--target-dependents` and `--exclude` as a user runs them: the built ocikit on a real
// program, against an emulator of the test's own, effects read back with the official OCI SDK.
// One program goes through the cases in order (each starts from the state the previous left).

const ENDPOINT = 'oci:AiLanguage/endpoint:Endpoint';
const urn = (type: string, name: string) => `urn:pulumi:dev::targets::${type}::${name}`;
const FIRST = urn(ENDPOINT, 'first');
const SECOND = urn(ENDPOINT, 'second');
const PLAN = urn('oci:DisasterRecovery/drPlan:DrPlan', 'plan');

describe('resource targeting through ocikit', () => {
  let cloud: Cloud;
  let p: Program;
  const config = (extra: Record<string, string | boolean> = {}) =>
    p.setConfig({
      ...cloud.ociConfig,
      'targets:compartmentId': cloud.sandbox.compartmentId,
      'targets:standbyRegion': cloud.sandbox.peerRegion,
      'targets:standbyGroupId': cloud.sandbox.standbyGroupId,
      'targets:textModelId': cloud.sandbox.textModelId,
      ...extra,
    });
  const idOf = (u: string) => readCheckpoint(p).resources!.find((r) => r.urn === u && !r.delete)?.id;
  const stateOf = (u: string) =>
    readCheckpoint(p).resources!.find((r) => r.urn === u && !r.delete) as unknown as
      { inputs: Record<string, unknown>; outputs: Record<string, unknown> } | undefined;
  /** What OCI says of a resource: its display name, or undefined once it is deleted. */
  const endpointName = async (id: string) => {
    const { endpoint } = await cloud.t.language().getEndpoint({ endpointId: id });
    return endpoint.lifecycleState === 'DELETED' ? undefined : endpoint.displayName;
  };
  const planName = async (id: string) =>
    (await cloud.t.dr(cloud.sandbox.peerRegion).getDrPlan({ drPlanId: id })).drPlan.displayName;
  let ids: { first: string; second: string; plan: string };

  before(async () => {
    cloud = await startCloud();
    p = program(join(FIXTURES, 'targets'), { PULUMI_NODEJS_TRANSPILE_ONLY: 'true', ...cloud.env });
    config();
    ok(await p.run(['up', '--yes']));
    ids = { first: idOf(FIRST)!, second: idOf(SECOND)!, plan: idOf(PLAN)! };
  });
  after(() => cloud.close());

  it('up --target changes only the target in the cloud; the others keep their old state and outputs', async () => {
    config({ 'targets:generation': '2' });
    const preview = ok(await p.run(['preview', '--target', SECOND]));
    assert.match(preview.stdout, /~ 1 to update/);
    const up = ok(await p.run(['up', '--yes', '-t', SECOND]));
    assert.match(up.stdout, /~ 1 updated/);
    assert.equal(await endpointName(ids.second), 'second-2');
    assert.equal(await endpointName(ids.first), 'first-1');
    assert.equal(await planName(ids.plan), 'plan-1');
    assert.equal(stateOf(FIRST)!.inputs.displayName, 'first-1');
    assert.equal(stateOf(PLAN)!.outputs.displayName, 'plan-1');
    assertIntegrity(readCheckpoint(p));
    // The stack's outputs were computed from the untargeted resources' old outputs.
    assert.deepEqual(JSON.parse(ok(await p.run(['stack', 'output', '--json'])).stdout).names, [
      'first-1',
      'second-2',
      'plan-1',
    ]);
  });

  it('--exclude leaves a resource (and, with --exclude-dependents, what depends on it) as it was; a full up converges', async () => {
    ok(await p.run(['up', '--yes', '--exclude', FIRST, '--exclude-dependents']));
    assert.equal(await endpointName(ids.first), 'first-1');
    assert.equal(await planName(ids.plan), 'plan-1');
    ok(await p.run(['up', '--yes', '--exclude', '**::plan']));
    assert.equal(await endpointName(ids.first), 'first-2');
    assert.equal(await planName(ids.plan), 'plan-1');
    ok(await p.run(['up', '--yes']));
    assert.equal(await planName(ids.plan), 'plan-2');
  });

  it('refresh --target records drift for the target only', async () => {
    for (const id of [ids.first, ids.second])
      await cloud.t
        .language()
        .updateEndpoint({ endpointId: id, updateEndpointDetails: { displayName: `drift-${id}` } });
    ok(await p.run(['refresh', '--yes', '--target', SECOND]));
    assert.equal(stateOf(SECOND)!.outputs.displayName, `drift-${ids.second}`);
    assert.equal(stateOf(FIRST)!.outputs.displayName, 'first-2');
    ok(await p.run(['up', '--yes', '--refresh']));
    assert.equal(await endpointName(ids.first), 'first-2');
    assert.equal(await endpointName(ids.second), 'second-2');
  });

  // Pulumi's refresh checks its targets before any step (deploymentExecutor.refresh: checkTargets),
  // so its display never hears of the stack: no outputs.
  it('refresh with an unknown --target fails before any step: no outputs printed', async () => {
    const nope = urn(ENDPOINT, 'nope');
    for (const flag of ['--target', '--exclude']) {
      const r = await p.run(['refresh', '--yes', '--skip-preview', flag, nope]);
      assert.equal(r.code, 1);
      assert.match(r.stdout, new RegExp(`error: Target '${nope}' could not be found in the stack`));
      assert.doesNotMatch(r.stdout, /Outputs:/, r.stdout);
    }
  });

  // Pulumi's deploymentExecutor.Execute checks ReplaceTargets (--replace and --target-replace)
  // before it runs the program.
  it('--replace or --target-replace with an unknown URN fails before the program runs', async () => {
    const nope = urn(ENDPOINT, 'nope');
    for (const command of [
      ['preview', '--target-replace', nope],
      ['up', '--yes', '--skip-preview', '--replace', nope],
    ]) {
      const r = await p.run(command);
      assert.equal(r.code, 1, command.join(' '));
      assert.match(r.stderr, new RegExp(`^error: Target '${nope}' could not be found in the stack`));
      assert.doesNotMatch(r.stdout, /Outputs:|unchanged/, r.stdout);
    }
  });

  it('refuses to create an untargeted resource that a targeted one depends on, with Pulumi message', async () => {
    config({ 'targets:generation': '2', 'targets:extra': true });
    const reader = urn(ENDPOINT, 'reader');
    const failed = await p.run(['up', '--yes', '--target', reader]);
    assert.equal(failed.code, 1);
    assert.equal(
      failed.stderr.trim(),
      `error: Resource '${reader}' depends on '${urn(ENDPOINT, 'extra')}' which was was not specified in --target list.`,
    );
    const named = await cloud.t
      .language()
      .listEndpoints({ compartmentId: cloud.sandbox.compartmentId, displayName: 'targets-extra' });
    assert.deepEqual(named.endpointCollection.items, []);
    assert.equal(stateOf(reader), undefined);
    config({ 'targets:generation': '2' });
  });

  it('--target-replace replaces the target and updates nothing else', async () => {
    config({ 'targets:generation': '3' });
    ok(await p.run(['up', '--yes', '--target-replace', SECOND]));
    const replaced = idOf(SECOND)!;
    assert.notEqual(replaced, ids.second);
    assert.equal(await endpointName(ids.second), undefined);
    assert.equal(await endpointName(replaced), 'second-3');
    assert.equal(await endpointName(ids.first), 'first-2');
    assert.equal(await planName(ids.plan), 'plan-2');
    ids.second = replaced;
    config({ 'targets:generation': '2' });
  });

  it('destroy --target refuses a target others depend on unless --target-dependents, and deletes only the targets', async () => {
    const refused = await p.run(['destroy', '--yes', '--target', FIRST]);
    assert.equal(refused.code, 1);
    assert.equal(
      refused.stderr.trim(),
      `error: Resource '${PLAN}' will be destroyed but was not specified in --target list. Either include resource in --target list or pass --target-dependents to proceed.`,
    );
    assert.equal(await endpointName(ids.first), 'first-2');

    ok(await p.run(['destroy', '--yes', '--target', SECOND]));
    assert.equal(await endpointName(ids.second), undefined);
    assert.equal(await endpointName(ids.first), 'first-2');
    assert.equal(await planName(ids.plan), 'plan-2');
    assert.equal(idOf(SECOND), undefined);
    assertIntegrity(readCheckpoint(p));

    ok(await p.run(['destroy', '--yes', '--target', FIRST, '--target-dependents']));
    assert.equal(await endpointName(ids.first), undefined);
    const plan = await cloud.t.dr(cloud.sandbox.peerRegion).getDrPlan({ drPlanId: ids.plan });
    assert.match(plan.drPlan.lifecycleState ?? '', /DELET/);
  });

  it('rejects --target with --exclude as Pulumi does', async () => {
    const both = await p.run(['preview', '--target', FIRST, '--exclude', SECOND]);
    assert.equal(both.code, 1);
    assert.match(both.stderr, /if any flags in the group \[target exclude\] are set none of the others can be/);
  });
  it('destroy --exclude-protected destroys all but the protected resources and what they depend on', async () => {
    ok(await p.run(['up', '--yes']));
    ids = { first: idOf(FIRST)!, second: idOf(SECOND)!, plan: idOf(PLAN)! };
    ok(await p.run(['state', 'protect', FIRST, '--yes']));
    const some = ok(await p.run(['destroy', '--yes', '--exclude-protected']));
    // destroy.go's words after it.
    assert.equal(
      some.stdout.trim().split('\n').pop(),
      'All unprotected resources were destroyed. There are still 3 protected resources associated with this stack.',
    );
    assert.equal(await endpointName(ids.second), undefined);
    const plan = await cloud.t.dr(cloud.sandbox.peerRegion).getDrPlan({ drPlanId: ids.plan });
    assert.match(plan.drPlan.lifecycleState ?? '', /DELET/, 'the plan depends on the protected one: it goes');
    assert.equal(await endpointName(ids.first), 'first-2');
    const left = readCheckpoint(p).resources!.map((r) => r.urn.split('::').pop());
    assert.deepEqual(left.sort(), ['default_2_31_0', 'first', 'targets-dev'].sort());
    assertIntegrity(readCheckpoint(p));

    // destroy.go's words when only protected resources are left; nothing runs.
    const none = ok(await p.run(['destroy', '--yes', '--exclude-protected']));
    assert.equal(
      none.stdout.trim().split('\n').pop(),
      'There were no unprotected resources to destroy. There are still 3 protected resources associated with this stack.',
    );
    const both = await p.run(['destroy', '--yes', '--exclude-protected', '--target', FIRST]);
    assert.equal(both.code, 1);
    assert.match(both.stderr, /You cannot specify --target and --exclude-protected/);
  });
  it('import --parent adopts a resource as a child of one of the stack, as pulumi import --parent', async () => {
    const { endpoint } = await cloud.t.language().createEndpoint({
      createEndpointDetails: {
        compartmentId: cloud.sandbox.compartmentId,
        modelId: cloud.sandbox.textModelId,
        displayName: 'adopted-child',
        inferenceUnits: 1,
      },
    });
    for (let i = 0; i < 100 && (await endpointName(endpoint.id)) === undefined; i++) await cloud.t.advance(1);
    const imported = ok(
      await p.run(['import', ENDPOINT, 'child', endpoint.id, '--parent', `first=${FIRST}`, '--protect=false']),
    );
    const child = readCheckpoint(p).resources!.find((r) => r.urn.endsWith('::child'))!;
    // The parent's type qualifies the child's URN, as Pulumi's NewURN does.
    assert.equal(child.urn, `urn:pulumi:dev::targets::${ENDPOINT}$${ENDPOINT}::child`);
    assert.equal(child.parent, FIRST);
    assert.match(imported.stdout, /\}, \{\n {4}parent: first,\n\}\);\n$/);
    const refused = await p.run([
      'import',
      ENDPOINT,
      'other',
      endpoint.id,
      '--parent',
      'nope=urn:pulumi:dev::targets::x::y',
    ]);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /parent urn:pulumi:dev::targets::x::y is not in the stack/);
  });
});
