import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { models as drModels } from 'oci-disasterrecovery';
import { ociError, startTestEmulator, type TestEmulator } from './support/emulator';

// The one rule of services/common/lifecycle-policy.ts: a DELETED resource stays readable, deleting
// it again is a no-op, and any other change answers 409 Conflict, in both services.
describe('acting on a DELETED resource', () => {
  let t: TestEmulator;
  before(async () => {
    t = await startTestEmulator({ seed: 'sandbox' });
  });
  after(() => t.close());

  it('DR plan: readable, delete again succeeds without a work request, update 409 Conflict', async () => {
    const ids = t.emulator.sandbox!.disasterRecovery;
    const dr = t.dr(ids.standbyRegion);
    const { drPlan } = await dr.createDrPlan({
      createDrPlanDetails: {
        displayName: 'short-lived',
        type: drModels.DrPlanType.Switchover,
        drProtectionGroupId: ids.standbyProtectionGroupId,
      },
    });
    await dr.deleteDrPlan({ drPlanId: drPlan.id });
    assert.equal((await dr.getDrPlan({ drPlanId: drPlan.id })).drPlan.lifecycleState, 'DELETED');
    const wrs = async () =>
      (await dr.listWorkRequests({ compartmentId: drPlan.compartmentId, resourceId: drPlan.id }))
        .workRequestSummaryCollection.items.length;
    const before = await wrs();
    await dr.deleteDrPlan({ drPlanId: drPlan.id });
    assert.equal(await wrs(), before);
    const update = await ociError(() =>
      dr.updateDrPlan({ drPlanId: drPlan.id, updateDrPlanDetails: { displayName: 'late' } }),
    );
    assert.deepEqual([update.statusCode, update.serviceCode], [409, 'Conflict']);
  });

  it('AI Language endpoint: readable, delete again succeeds without a work request, update 409 Conflict', async () => {
    const language = t.language();
    const { endpoint } = await language.createEndpoint({
      createEndpointDetails: {
        compartmentId: t.emulator.sandbox!.compartmentId,
        modelId: t.emulator.sandbox!.aiLanguage.customModelIds.textClassification,
      },
    });
    await language.deleteEndpoint({ endpointId: endpoint.id });
    assert.equal((await language.getEndpoint({ endpointId: endpoint.id })).endpoint.lifecycleState, 'DELETED');
    const again = await language.deleteEndpoint({ endpointId: endpoint.id });
    assert.equal(again.opcWorkRequestId, undefined);
    const update = await ociError(() =>
      language.updateEndpoint({ endpointId: endpoint.id, updateEndpointDetails: { inferenceUnits: 2 } }),
    );
    assert.deepEqual([update.statusCode, update.serviceCode], [409, 'Conflict']);
  });
});
