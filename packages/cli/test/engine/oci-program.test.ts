// Boundary tests: unmodified TypeScript programs written for @pulumi/oci run through runEngine,
// with the real pulumi-resource-oci plugin against a real emulator; effects checked with the
// official OCI SDK clients.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startCloud, type Cloud } from './support/cloud';
import { diagnostics, makeProgram, steps, type TestProgram } from './support/harness';
import { isDefaultProvider } from '../../src/engine/default-provider';

const program = (o: {
  planName: string;
  planType?: string;
  units?: number;
  extraEndpoint?: boolean;
  importId?: string;
  importUnits?: number;
}) => `
import * as pulumi from '@pulumi/pulumi';
import * as oci from '@pulumi/oci';
const cfg = new pulumi.Config();
const standby = new oci.Provider('standby', { region: cfg.require('standbyRegion') });
const groups = oci.disasterrecovery.getDrProtectionGroupsOutput({ compartmentId: cfg.require('compartmentId'), role: 'STANDBY' }, { provider: standby });
const group = groups.drProtectionGroupCollections.apply((c) => c[0].items[0]);
const plan = new oci.disasterrecovery.DrPlan('plan', {
  displayName: '${o.planName}',
  drProtectionGroupId: group.apply((g) => g.id),
  type: '${o.planType ?? 'SWITCHOVER'}',
}, { provider: standby });
const ep = new oci.ailanguage.Endpoint('ep', {
  compartmentId: cfg.require('compartmentId'),
  modelId: cfg.require('modelId'),
  inferenceUnits: ${o.units ?? 1},
  displayName: cfg.requireSecret('endpointName'),
}, { dependsOn: [plan] });
${o.extraEndpoint ? `new oci.ailanguage.Endpoint('ep2', { compartmentId: cfg.require('compartmentId'), modelId: cfg.require('modelId'), displayName: 'second' });` : ''}
${o.importId ? `new oci.ailanguage.Endpoint('imported', { compartmentId: cfg.require('compartmentId'), modelId: cfg.require('modelId'), displayName: 'made-outside'${o.importUnits === undefined ? '' : `, inferenceUnits: ${o.importUnits}`} }, { import: '${o.importId}' });` : ''}
const again = oci.disasterrecovery.DrPlan.get('again', plan.id, undefined, { provider: standby });
export const planId = plan.id;
export const planState = plan.state;
export const planGroups = plan.planGroups.apply((g) => g.length);
export const readName = again.displayName;
export const readTrigger = again.refreshTrigger.apply((t) => t ?? 'none');
export const groupRole = group.apply((g) => g.role);
export const endpointId = ep.id;
export const endpointName = ep.displayName;
`;

describe('engine with pulumi-resource-oci and the emulator', () => {
  let cloud: Cloud;
  let prog: TestProgram;
  const secretName = 'endpoint-secret-name-7f3a';
  const stateText = () => readFileSync(join(prog.dir, '.ocikit/stacks/dev.json'), 'utf8');
  const standby = () => cloud.sandbox.disasterRecovery.standbyRegion;
  const livePlans = () => cloud.livePlans();
  const liveEndpoints = async (displayName?: string) =>
    (
      await cloud
        .language(cloud.sandbox.homeRegion)
        .listEndpoints({ compartmentId: cloud.sandbox.compartmentId, displayName })
    ).endpointCollection.items.filter((e) => !['DELETED', 'DELETING'].includes(e.lifecycleState));

  /** An endpoint made with the OCI SDK, outside the program (for the import tests). */
  const endpointMadeOutside = (displayName: string) =>
    cloud.language(cloud.sandbox.homeRegion).createEndpoint({
      createEndpointDetails: {
        compartmentId: cloud.sandbox.compartmentId,
        modelId: cloud.sandbox.aiLanguage.pretrainedModelIds.sentimentAnalysis,
        displayName,
      },
    });

  before(async () => {
    cloud = await startCloud();
    const s = cloud.sandbox;
    prog = makeProgram(program({ planName: 'plan-a' }), {
      providerEnv: cloud.providerEnv,
      config: {
        'enginetest:standbyRegion': s.disasterRecovery.standbyRegion,
        'enginetest:compartmentId': s.compartmentId,
        'enginetest:modelId': s.aiLanguage.pretrainedModelIds.sentimentAnalysis,
        'enginetest:endpointName': secretName,
      },
      secretKeys: ['enginetest:endpointName'],
    });
  });
  after(async () => {
    prog?.remove();
    await cloud?.close();
  });

  it('previews, then creates with invokes, get and outputs; secrets stay out of the state', async () => {
    let r = await prog.run({ preview: true });
    assert.equal(r.ok, true, r.error);
    assert.deepEqual(await livePlans(), []);
    r = await prog.run();
    assert.equal(r.ok, true, r.error);
    const plans = await livePlans();
    assert.equal(plans.length, 1);
    assert.equal(r.outputs.planId, plans[0].id);
    assert.equal(r.outputs.planState, 'ACTIVE');
    assert.equal(r.outputs.readName, 'plan-a');
    assert.equal(r.outputs.groupRole, 'STANDBY');
    assert.ok((r.outputs.planGroups as number) > 0);
    const eps = await liveEndpoints(secretName);
    assert.equal(eps.length, 1);
    assert.ok(!stateText().includes(secretName), 'the secret endpoint name is not in the state in plain text');
    assert.ok(!stateText().includes('PRIVATE KEY'));
    assert.equal(r.outputs.readTrigger, 'none');
    // A `.get` read in a preview: what OCI does not report (a trigger) is known, and null, as
    // pulumi-oci reads it, not unknown.
    r = await prog.run({ preview: true });
    assert.equal(r.ok, true, r.error);
    assert.equal(r.outputs.readTrigger, 'none');
    r = await prog.run();
    assert.equal(r.ok, true, r.error);
    assert.deepEqual(
      steps(r.events).filter((s) => !s.startsWith('same') && !s.startsWith('read')),
      [],
      'an unchanged program is all same steps',
    );
  });

  it('updates in place, replaces on a replace-on-change property, deletes what was removed', async () => {
    const before = (await livePlans())[0].id;
    prog.write(program({ planName: 'plan-b', units: 2, extraEndpoint: true }));
    let r = await prog.run();
    assert.equal(r.ok, true, r.error);
    assert.ok(steps(r.events).includes('update plan'));
    assert.ok(steps(r.events).includes('update ep'));
    const plans = await livePlans();
    assert.deepEqual(
      plans.map((p) => [p.id, p.displayName]),
      [[before, 'plan-b']],
    );
    assert.equal((await liveEndpoints(secretName))[0].inferenceUnits, 2);
    assert.equal((await liveEndpoints('second')).length, 1);
    prog.write(program({ planName: 'plan-b', planType: 'FAILOVER', units: 2 }));
    r = await prog.run();
    assert.equal(r.ok, true, r.error);
    assert.ok(steps(r.events).includes('create-replacement plan'));
    assert.ok(steps(r.events).includes('delete-replaced plan'));
    assert.ok(steps(r.events).includes('delete ep2'));
    const after = await livePlans();
    assert.equal(after.length, 1);
    assert.notEqual(after[0].id, before);
    assert.equal(after[0].type, 'FAILOVER');
    assert.equal((await liveEndpoints('second')).length, 0);
  });

  it('refresh records drift without writing to the cloud; the next up repairs it', async () => {
    const plan = (await livePlans())[0];
    await cloud
      .dr(standby())
      .updateDrPlan({ drPlanId: plan.id, updateDrPlanDetails: { displayName: 'changed-outside' } });
    let r = await prog.run({ operation: 'refresh' });
    assert.equal(r.ok, true, r.error);
    assert.equal((await livePlans())[0].displayName, 'changed-outside');
    // As Pulumi counts a refresh: every resource but the default providers (internal); the stack
    // and the explicit provider unchanged, the drifted plan and its `.get` ('again') updated.
    const counted = prog.resources().filter((s) => !isDefaultProvider(s.urn));
    assert.ok(counted.some((s) => s.urn.includes('::pulumi:pulumi:Stack::')));
    assert.deepEqual(r.changes, { update: 2, same: counted.length - 2 });
    r = await prog.run({ preview: true });
    assert.ok(steps(r.events).includes('update plan'), steps(r.events).join(','));
    r = await prog.run();
    assert.equal(r.ok, true, r.error);
    assert.equal((await livePlans())[0].displayName, 'plan-b');
  });

  it("refuses to import by option a resource whose inputs differ, with Pulumi's words; a preview warns", async () => {
    const made = await endpointMadeOutside('named-otherwise');
    prog.write(program({ planName: 'plan-b', planType: 'FAILOVER', units: 2, importId: made.endpoint.id }));
    const preview = await prog.run({ preview: true });
    assert.equal(preview.ok, true, preview.error);
    assert.deepEqual(
      diagnostics(preview.events, 'warning').filter((m) => m.includes('import')),
      ['inputs to import do not match the existing resource: [displayName]; importing this resource will fail'],
    );
    const r = await prog.run();
    assert.equal(r.ok, false);
    assert.match(r.error!, /::imported: inputs to import do not match the existing resource: \[displayName\]$/);
    assert.equal(
      prog.resources().some((x) => x.urn.endsWith('::imported')),
      false,
      'nothing imported',
    );
    await cloud.language(cloud.sandbox.homeRegion).deleteEndpoint({ endpointId: made.endpoint.id });
  });

  for (const continueOnError of [false, true])
    it(`an import by option whose inputs its Check refuses fails once, in Pulumi's words (ImportStep)${continueOnError ? '; with continueOnError a failed step the run goes on from' : ''}`, async () => {
      const made = await endpointMadeOutside('made-outside');
      prog.write(
        program({ planName: 'plan-b', planType: 'FAILOVER', units: 2, importId: made.endpoint.id, importUnits: 0 }),
      );
      const r = await prog.run({ continueOnError });
      assert.equal(r.ok, false);
      const problem =
        "oci:AiLanguage/endpoint:Endpoint resource 'imported's property 'inferenceUnits' value {0} has a problem: inferenceUnits must be between 1 and 10, got 0";
      // With continueOnError the step fails as any step does (cancelDueToError): the run goes on
      // and fails at its end.
      assert.equal(r.error, continueOnError ? 'update failed' : problem);
      const errors = diagnostics(r.events, 'error');
      assert.equal(errors.filter((m) => m === problem).length, 1, errors.join('\n'));
      assert.ok(
        errors.some((m) => m.endsWith('::imported: one or more inputs failed to validate')),
        errors.join('\n'),
      );
      assert.equal(
        prog.resources().some((x) => x.urn.endsWith('::imported')),
        false,
        'nothing imported',
      );
      await cloud.language(cloud.sandbox.homeRegion).deleteEndpoint({ endpointId: made.endpoint.id });
    });

  it('imports an existing resource by option; the next run shows no change', async () => {
    const lang = cloud.language(cloud.sandbox.homeRegion);
    const made = await lang.createEndpoint({
      createEndpointDetails: {
        compartmentId: cloud.sandbox.compartmentId,
        modelId: cloud.sandbox.aiLanguage.pretrainedModelIds.sentimentAnalysis,
        displayName: 'made-outside',
        // Values the program does not set: as with pulumi-oci (Optional+Computed), they are kept.
        inferenceUnits: 2,
        freeformTags: { owner: 'ops' },
      },
    });
    const id = made.endpoint.id;
    prog.write(program({ planName: 'plan-b', planType: 'FAILOVER', units: 2, importId: id }));
    let r = await prog.run();
    assert.equal(r.ok, true, r.error);
    assert.ok(steps(r.events).includes('import imported'));
    r = await prog.run();
    assert.equal(r.ok, true, r.error);
    assert.ok(steps(r.events).includes('same imported'), steps(r.events).join(','));
    const [adopted] = await liveEndpoints('made-outside');
    assert.deepEqual([adopted.inferenceUnits, adopted.freeformTags], [2, { owner: 'ops' }]);
  });

  it('imports by command without running the program', async () => {
    const lang = cloud.language(cloud.sandbox.homeRegion);
    const made = await lang.createEndpoint({
      createEndpointDetails: {
        compartmentId: cloud.sandbox.compartmentId,
        modelId: cloud.sandbox.aiLanguage.pretrainedModelIds.sentimentAnalysis,
        displayName: 'by-command',
      },
    });
    const r = await prog.run({
      imports: [{ type: 'oci:AiLanguage/endpoint:Endpoint', name: 'cmd', id: made.endpoint.id }],
    });
    assert.equal(r.ok, true, r.error);
    assert.equal(r.changes.import, 1);
    const res = JSON.parse(stateText()).checkpoint.latest.resources as Array<{
      urn: string;
      id: string;
      inputs: Record<string, unknown>;
    }>;
    const cmd = res.find((x) => x.urn === 'urn:pulumi:dev::enginetest::oci:AiLanguage/endpoint:Endpoint::cmd')!;
    assert.equal(cmd.id, made.endpoint.id);
    assert.equal(cmd.inputs.displayName, 'by-command');
    assert.ok(
      res.some((x) => x.urn.endsWith('::plan')),
      'the rest of the stack is untouched',
    );
  });

  it('a fault injected half-way fails the run; the next up converges with no duplicate', async () => {
    await cloud.emulator.admin.injectFault({
      operation: 'CreateEndpoint',
      status: 400,
      code: 'InvalidParameter',
      count: 1,
    });
    prog.write(program({ planName: 'plan-b', planType: 'FAILOVER', units: 2, extraEndpoint: true }));
    let r = await prog.run();
    assert.equal(r.ok, false);
    assert.match(r.error!, /ep2/);
    assert.equal(JSON.parse(stateText()).checkpoint.latest.pending_operations, undefined);
    r = await prog.run();
    assert.equal(r.ok, true, r.error);
    assert.equal((await liveEndpoints('second')).length, 1);
  });

  it('destroy deletes everything it manages', async () => {
    const r = await prog.run({ operation: 'destroy' });
    assert.equal(r.ok, true, r.error);
    assert.deepEqual(await livePlans(), []);
    assert.deepEqual(await liveEndpoints(), []);
    // Nothing left, no list (DeploymentV3 `resources,omitempty`).
    assert.equal(JSON.parse(stateText()).checkpoint.latest.resources, undefined);
  });
});
