// Requests as the official OCI SDKs shape them, beyond any one service's rules: an empty details
// object (which oci-common sends as no body at all) and retry tokens across services and regions.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { models } from 'oci-disasterrecovery';
import type { SandboxIds } from '../src';
import { ociError, startTestEmulator, type TestEmulator } from './support/emulator';

describe('requests as the OCI SDKs send them', () => {
  let t: TestEmulator;
  let sandbox: SandboxIds;
  before(async () => {
    t = await startTestEmulator({ seed: 'sandbox', transitionDelaySeconds: 0 });
    sandbox = t.emulator.sandbox!;
  });
  after(() => t.close());

  it('empty details (no body on the wire) are the empty object: an update changes nothing, a create names what it lacks', async () => {
    const ai = t.language();
    const { project } = await ai.createProject({ createProjectDetails: { compartmentId: sandbox.compartmentId } });
    const updated = await ai.updateProject({ projectId: project.id, updateProjectDetails: {} });
    assert.ok(updated.opcWorkRequestId);
    assert.equal((await ai.getProject({ projectId: project.id })).project.displayName, project.displayName);
    const plan = (
      await t.dr(sandbox.disasterRecovery.standbyRegion).createDrPlan({
        createDrPlanDetails: {
          displayName: 'empty-update',
          type: models.DrPlanType.Switchover,
          drProtectionGroupId: sandbox.disasterRecovery.standbyProtectionGroupId,
        },
      })
    ).drPlan;
    await t.dr(sandbox.disasterRecovery.standbyRegion).updateDrPlan({ drPlanId: plan.id, updateDrPlanDetails: {} });
    for (const [what, call] of [
      ['CreateProject', () => ai.createProject({ createProjectDetails: {} as never })],
      ['CreateEndpoint', () => ai.createEndpoint({ createEndpointDetails: {} as never })],
      ['CreateDrPlan', () => t.dr().createDrPlan({ createDrPlanDetails: {} as never })],
    ] as const) {
      const e = await ociError(call);
      assert.deepEqual([e.statusCode, e.serviceCode], [400, 'MissingParameter'], what);
      assert.match(e.message, /'(compartmentId|displayName|drProtectionGroupId|type)'/, `${what}: ${e.message}`);
    }
  });

  it('a retry token belongs to one service in one region: the same token elsewhere is a new request', async () => {
    const token = 'shared-token-1';
    const details = {
      displayName: 'token-plan',
      type: models.DrPlanType.Switchover,
      drProtectionGroupId: sandbox.disasterRecovery.standbyProtectionGroupId,
    };
    const dr = t.dr(sandbox.disasterRecovery.standbyRegion);
    const plan = await dr.createDrPlan({ opcRetryToken: token, createDrPlanDetails: details });
    const project = await t.language().createProject({
      opcRetryToken: token,
      createProjectDetails: { compartmentId: sandbox.compartmentId },
    });
    assert.ok(project.project.id.startsWith('ocid1.ailanguageproject.'));
    // The same service in another region: a new request too (a protection group in the home region).
    const group = await t.dr().createDrProtectionGroup({
      opcRetryToken: token,
      createDrProtectionGroupDetails: {
        compartmentId: sandbox.compartmentId,
        displayName: 'token-group',
        logLocation: { namespace: 'ns', bucket: 'logs' },
      },
    });
    assert.ok(group.drProtectionGroup.id.startsWith('ocid1.drprotectiongroup.'));
    // In its own service and region the token still replays the first answer.
    const again = await dr.createDrPlan({ opcRetryToken: token, createDrPlanDetails: details });
    assert.equal(again.drPlan.id, plan.drPlan.id);
  });
});
