import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { models } from 'oci-disasterrecovery';
import { assertIntegrity, FIXTURES, ok, program, startCloud, type Cloud, type Program } from '../support/programs';

// One program taken through the steps of a stack's life, each checked through the official OCI
// SDK and ocikit's own output and exit codes. The engine's own tests cover the step generator
// rule by rule; this file checks that a user sees those rules work end to end.
const ENDPOINT = 'oci:AiLanguage/endpoint:Endpoint';
let cloud: Cloud;
let p: Program;
let config: Record<string, string | number | boolean>;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- JSON read back from ocikit's output
const out = async () => JSON.parse(ok(await p.run(['stack', 'output', '--json'])).stdout) as Record<string, any>;
const urns = async () => {
  const deployment = JSON.parse(ok(await p.run(['stack', 'export'])).stdout).deployment;
  assertIntegrity(deployment);
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the exported checkpoint's resources
  return new Map<string, any>((deployment.resources ?? []).map((r: any) => [r.urn.split('::').pop(), r]));
};
const language = () => cloud.t.language();
const endpointState = (endpointId: string) =>
  language()
    .getEndpoint({ endpointId })
    .then(
      (r) => r.endpoint.lifecycleState as string,
      () => 'GONE',
    );
const gone = (state: string) => state === 'DELETED' || state === 'GONE' || state === 'DELETING';
async function createEndpoint(displayName: string): Promise<string> {
  const { endpoint } = await language().createEndpoint({
    createEndpointDetails: {
      compartmentId: cloud.sandbox.compartmentId,
      modelId: cloud.sandbox.textModelId,
      displayName,
      inferenceUnits: 1,
    },
  });
  for (let i = 0; i < 100 && (await endpointState(endpoint.id)) !== 'ACTIVE'; i++) await cloud.t.advance(1);
  return endpoint.id;
}
const step = async (n: number, extra: Record<string, string | boolean> = {}) => {
  config = { ...config, 'scenario:step': n, ...extra };
  p.setConfig(config);
};

before(async () => {
  cloud = await startCloud();
  p = program(join(FIXTURES, 'scenario'), { PULUMI_NODEJS_TRANSPILE_ONLY: 'true', ...cloud.env });
  config = {
    ...cloud.ociConfig,
    'scenario:compartmentId': cloud.sandbox.compartmentId,
    'scenario:standbyRegion': cloud.sandbox.peerRegion,
    'scenario:standbyGroupId': cloud.sandbox.standbyGroupId,
    'scenario:textModelId': cloud.sandbox.textModelId,
    'scenario:nerModelId': cloud.sandbox.nerModelId,
  };
});
after(() => cloud?.close());

test('step 1 creates everything; dependsOn orders the plan after its endpoint', async () => {
  await step(1);
  const up = ok(await p.run(['up', '--yes', '--json']));
  const events = up.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  const at = (kind: string, name: string) =>
    events.findIndex((e) => e[kind]?.metadata?.urn?.endsWith(`::${name}`) && e[kind].metadata.op === 'create');
  assert.ok(at('resOutputsEvent', 'ep') >= 0 && at('resourcePreEvent', 'plan') > at('resOutputsEvent', 'ep'));
  const state = await urns();
  for (const name of ['ep', 'swapped', 'plan', 'kept', 'guarded', 'ignored']) assert.ok(state.has(name), name);
  assert.equal(await endpointState(state.get('ep').id), 'ACTIVE');
});

test('step 2 updates in place, replaces (replaceOnChanges), and ignores the ignored change', async () => {
  const before = await out();
  await step(2);
  const preview = ok(await p.run(['preview']));
  assert.match(preview.stdout, new RegExp(`~ +${ENDPOINT} ep update\\n +~ inferenceUnits: 1 => 2`));
  assert.match(preview.stdout, new RegExp(`\\+- +${ENDPOINT} swapped replace`));
  assert.doesNotMatch(preview.stdout, / ignored /);
  ok(await p.run(['up', '--yes']));
  const after = await out();
  assert.equal(after.epId, before.epId, 'updated in place');
  assert.equal(after.epUnits, 2);
  assert.equal((await language().getEndpoint({ endpointId: after.epId })).endpoint.inferenceUnits, 2);
  assert.notEqual(after.swappedId, before.swappedId, 'replaced');
  assert.ok(gone(await endpointState(before.swappedId)), 'the replaced endpoint is deleted');
  assert.equal(
    (await language().getEndpoint({ endpointId: after.swappedId })).endpoint.modelId,
    cloud.sandbox.nerModelId,
  );
  const ignored = (await urns()).get('ignored');
  assert.equal((await language().getEndpoint({ endpointId: ignored.id })).endpoint.displayName, 'ignored-1');
});

test('step 3 deletes a removed resource and keeps the one with retainOnDelete', async () => {
  const state = await urns();
  await step(3);
  ok(await p.run(['up', '--yes']));
  const planId = state.get('plan').id;
  const plan = await cloud.t
    .dr(cloud.sandbox.peerRegion)
    .getDrPlan({ drPlanId: planId })
    .then(
      (r) => r.drPlan.lifecycleState as string,
      () => 'GONE',
    );
  assert.ok(gone(plan), plan);
  assert.equal(await endpointState(state.get('kept').id), 'ACTIVE', 'retainOnDelete keeps it in the cloud');
  const now = await urns();
  assert.ok(!now.has('plan') && !now.has('kept'));
});

test('refresh records an out-of-band change and a deletion; preview shows the drift; up repairs it', async () => {
  const state = await urns();
  await language().updateEndpoint({
    endpointId: state.get('ep').id,
    updateEndpointDetails: { displayName: 'changed' },
  });
  await language().deleteEndpoint({ endpointId: state.get('ignored').id });
  await cloud.t.advance(5);
  const refresh = ok(await p.run(['refresh', '--yes']));
  // The drift it read, under the step (its preview and the refresh itself), whose row ends as
  // what the refresh found: update, updated (Ns).
  assert.equal(
    refresh.stdout.match(new RegExp(`${ENDPOINT} ep update.*\n +~ displayName: "ep" => "changed"`, 'g'))?.length,
    2,
    refresh.stdout,
  );
  // The resource found gone shows as deleted, as Pulumi shows it (preview, then the refresh).
  assert.equal(refresh.stdout.match(new RegExp(`^ - +${ENDPOINT} ignored delete$`, 'gm'))?.length, 1, refresh.stdout);
  assert.match(refresh.stdout, new RegExp(`^ - +${ENDPOINT} ignored deleted \\([\\d.]+s\\)$`, 'm'));
  assert.doesNotMatch(refresh.stdout, /id: undefined/);
  assert.equal((await language().getEndpoint({ endpointId: state.get('ep').id })).endpoint.displayName, 'changed');
  const refreshed = await urns();
  assert.ok(!refreshed.has('ignored'), 'the deleted resource left the state');
  const preview = ok(await p.run(['preview']));
  assert.match(preview.stdout, new RegExp(`~ +${ENDPOINT} ep update\\n +~ displayName: "changed" => "ep"`));
  assert.match(preview.stdout, new RegExp(`\\+ +${ENDPOINT} ignored create`));
  ok(await p.run(['up', '--yes']));
  assert.equal((await language().getEndpoint({ endpointId: state.get('ep').id })).endpoint.displayName, 'ep');
  assert.equal(await endpointState((await urns()).get('ignored').id), 'ACTIVE');
});

test('refresh leaves alone an ignoreChanges property changed outside: no drift, nothing to repair', async () => {
  const ignored = (await urns()).get('ignored');
  await language().updateEndpoint({ endpointId: ignored.id, updateEndpointDetails: { displayName: 'renamed' } });
  await cloud.t.advance(5);
  // As Pulumi with pulumi-oci: the refresh's Diff is sent the state's ignoreChanges, and the
  // provider leaves those paths out; what was read is recorded all the same.
  const refresh = ok(await p.run(['refresh', '--yes', '--expect-no-changes']));
  assert.doesNotMatch(refresh.stdout, /displayName/, refresh.stdout);
  assert.equal((await urns()).get('ignored').outputs.displayName, 'renamed');
  ok(await p.run(['preview', '--expect-no-changes']));
});

test('get reads a resource; import adopts one by option and one by command', async () => {
  const seenId = await createEndpoint('seen-from-outside');
  const adoptId = await createEndpoint('adopt-me');
  await step(3, { 'scenario:seenId': seenId, 'scenario:adoptId': adoptId });
  ok(await p.run(['up', '--yes']));
  assert.equal((await out()).seenName, 'seen-from-outside');
  const state = await urns();
  assert.equal(state.get('adopted').id, adoptId);
  assert.equal(state.get('seen').external, true);

  const commandId = await createEndpoint('by-command');
  const imported = ok(await p.run(['import', ENDPOINT, 'byCommand', commandId]));
  assert.match(imported.stdout, /byCommand/);
  assert.equal((await urns()).get('byCommand').id, commandId);
  assert.equal(await endpointState(commandId), 'ACTIVE');

  // Protected, as `pulumi import` leaves it: an `up` of a program that does not declare it yet
  // refuses to delete it rather than deleting what was just adopted.
  assert.equal((await urns()).get('byCommand').protect, true);
  const refused = await p.run(['up', '--yes']);
  assert.equal(refused.code, 1);
  // Refused by up's preview as Pulumi's preview refuses it: the delete step shown, its error
  // reported as "Preview failed: …".
  assert.match(
    refused.stderr,
    /^error: Preview failed: resource "\S+::byCommand" cannot be deleted because it is protected/m,
  );
  assert.match(refused.stdout, /^ - +oci:AiLanguage\/endpoint:Endpoint byCommand delete$/m);
  // The diagnostic has Pulumi's line breaks (the one-line error above folds them).
  assert.match(
    refused.stdout,
    /cannot be deleted\nbecause it is protected\. .*or use the command:\n`ocikit state unprotect '/,
  );
  assert.equal(await endpointState(commandId), 'ACTIVE');
  // The code it printed, pasted into the program, declares the resource as it is: no change.
  assert.match(imported.stdout, /\nPlease copy the following code into your Pulumi application\./);
  assert.match(imported.stdout, /\nimport \* as oci from "@pulumi\/oci";\n/, 'the package pulumi-oci users have');
  const code = imported.stdout.slice(
    imported.stdout.indexOf('const byCommand = new oci.ailanguage.Endpoint("byCommand", {'),
  );
  assert.match(code, /^ {4}compartmentId: "ocid1\.compartment\.[^"]+",$/m);
  assert.match(code, /\}, \{\n {4}protect: true,\n\}\);\n$/);
  const index = join(p.dir, 'index.ts');
  const program = readFileSync(index, 'utf8');
  writeFileSync(index, `${program}\n${code}`);
  const declared = ok(await p.run(['preview'])).stdout;
  assert.doesNotMatch(declared, /byCommand/, 'declared as imported: nothing to do');
  writeFileSync(index, program);
  // Unprotected through Pulumi's repair path (stack export, edit, stack import).
  const exported = JSON.parse(ok(await p.run(['stack', 'export'])).stdout);
  for (const r of exported.deployment.resources) if (r.urn.endsWith('::byCommand')) delete r.protect;
  const file = join(p.dir, 'unprotected.json');
  writeFileSync(file, JSON.stringify(exported));
  ok(await p.run(['stack', 'import', '--file', file]));
  assert.equal((await urns()).get('byCommand').protect, undefined);
});

test("import --provider name=urn adopts a DR plan of the standby region with the program's provider", async () => {
  const dr = cloud.t.dr(cloud.sandbox.peerRegion);
  const { drPlan } = await dr.createDrPlan({
    createDrPlanDetails: {
      displayName: 'made-in-standby',
      type: models.DrPlanType.Failover,
      drProtectionGroupId: cloud.sandbox.standbyGroupId,
    },
  });
  const DRPLAN = 'oci:DisasterRecovery/drPlan:DrPlan';
  // The default provider reads the home region, where the plan is not: one line with the way out.
  const missed = await p.run(['import', DRPLAN, 'fromStandby', drPlan.id]);
  assert.equal(missed.code, 1);
  assert.match(missed.stderr, /does not exist \(read with the default provider; .*use --provider name=urn\)\n$/);
  const standbyUrn = [...(await urns()).values()].find((r) => r.urn.endsWith('::pulumi:providers:oci::standby')).urn;
  // Pulumi's form is name=urn, naming a provider.
  const unparsed = await p.run(['import', DRPLAN, 'fromStandby', drPlan.id, '--provider', 'standby']);
  assert.equal(unparsed.stderr, "error: could not parse --provider 'standby': expected name=urn\n");
  const endpointUrn = [...(await urns()).values()].find((r) => r.type === ENDPOINT).urn;
  const notProvider = await p.run(['import', DRPLAN, 'fromStandby', drPlan.id, '--provider', `x=${endpointUrn}`]);
  assert.match(notProvider.stderr, /is not a provider\n$/);
  // A component (here the stack itself: no id) is no provider either, not "not in the stack".
  const stackUrn = [...(await urns()).values()].find((r) => r.type === 'pulumi:pulumi:Stack').urn;
  const component = await p.run(['import', DRPLAN, 'fromStandby', drPlan.id, '--provider', `x=${stackUrn}`]);
  assert.match(component.stderr, /is not a provider\n$/);
  const imported = ok(
    await p.run(['import', DRPLAN, 'fromStandby', drPlan.id, '--provider', `standby=${standbyUrn}`, '--protect=false']),
  );
  const adopted = (await urns()).get('fromStandby');
  assert.equal(adopted.id, drPlan.id);
  assert.ok(adopted.provider.startsWith(`${standbyUrn}::`), adopted.provider);
  assert.match(imported.stdout, /\}, \{\n {4}provider: standby,\n\}\);\n$/);
  ok(await p.run(['state', 'delete', adopted.urn, '--yes']));
  // A bare URN is taken as Pulumi's makeImportFile takes it: the variable is `provider`.
  const bare = ok(
    await p.run(['import', DRPLAN, 'fromStandby', drPlan.id, '--provider', standbyUrn, '--protect=false']),
  );
  assert.match(bare.stdout, /\}, \{\n {4}provider: provider,\n\}\);\n$/);
  ok(await p.run(['state', 'delete', adopted.urn, '--yes']));
  const badParent = await p.run(['import', DRPLAN, 'fromStandby', drPlan.id, '--parent', 'standby']);
  assert.equal(badParent.stderr, "error: invalid parent URN: 'standby'\n");
  await dr.deleteDrPlan({ drPlanId: drPlan.id });
});

test('protect refuses destroy with a one-line reason until the program unprotects', async () => {
  const guarded = (await urns()).get('guarded').id;
  const refused = await p.run(['destroy', '--yes']);
  assert.notEqual(refused.code, 0);
  assert.match(refused.stderr.trim().split('\n').pop()!, /protect/);
  assert.doesNotMatch(refused.stderr, /\n\s+at /);
  assert.equal(await endpointState(guarded), 'ACTIVE');
  await step(3, { 'scenario:protect': false });
  ok(await p.run(['up', '--yes']));
  const seen = (await urns()).get('seen').id;
  const destroyed = ok(await p.run(['destroy', '--yes']));
  assert.ok(gone(await endpointState(guarded)));
  // What the program only read (`Endpoint.get`) is discarded from the state, as Pulumi's
  // read-discard step, and left in the cloud.
  assert.match(destroyed.stdout, /^ - +oci:AiLanguage\/endpoint:Endpoint seen discarded \(/m);
  assert.doesNotMatch(destroyed.stdout, /Endpoint seen delet/);
  assert.equal(await endpointState(seen), 'ACTIVE');
  assert.equal((await urns()).size, 0);
});
