import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { models as drModels } from 'oci-disasterrecovery';
import { startTestEmulator, type TestEmulator } from './support/emulator';

describe('fail-work-request fault', () => {
  let t: TestEmulator;
  before(async () => {
    t = await startTestEmulator({ seed: 'sandbox' });
  });
  after(() => t.close());

  it('ends a DR plan creation FAILED with its error listed; the next create succeeds', async () => {
    const ids = t.emulator.sandbox!.disasterRecovery;
    const dr = t.dr(ids.standbyRegion);
    await t.emulator.admin.injectFault({
      kind: 'fail-work-request',
      operation: 'CreateDrPlan',
      code: 'InternalServerError',
      message: 'Plan creation failed on purpose.',
    });
    const create = (displayName: string) =>
      dr.createDrPlan({
        createDrPlanDetails: {
          displayName,
          type: drModels.DrPlanType.Switchover,
          drProtectionGroupId: ids.standbyProtectionGroupId,
        },
      });
    const failed = await create('doomed');
    const workRequest = (await dr.getWorkRequest({ workRequestId: failed.opcWorkRequestId })).workRequest;
    assert.equal(workRequest.status, drModels.OperationStatus.Failed);
    const listed = (await dr.listWorkRequestErrors({ workRequestId: failed.opcWorkRequestId }))
      .workRequestErrorCollection.items;
    assert.deepEqual(
      listed.map((e) => [e.code, e.message]),
      [['InternalServerError', 'Plan creation failed on purpose.']],
    );
    const plan = (await dr.getDrPlan({ drPlanId: failed.drPlan.id })).drPlan;
    assert.equal(plan.lifecycleState, drModels.DrPlanLifecycleState.Failed);
    assert.equal(plan.lifeCycleDetails, 'Plan creation failed on purpose.');

    const ok = await create('fine');
    assert.equal(
      (await dr.getWorkRequest({ workRequestId: ok.opcWorkRequestId })).workRequest.status,
      drModels.OperationStatus.Succeeded,
    );
    assert.notEqual((await dr.getDrPlan({ drPlanId: ok.drPlan.id })).drPlan.lifecycleState, 'FAILED');
  });

  it('ends an endpoint creation FAILED with its error listed; the next create succeeds', async () => {
    const ai = t.emulator.sandbox!.aiLanguage;
    const language = t.language();
    await t.emulator.admin.injectFault({ kind: 'fail-work-request', operation: 'CreateEndpoint' });
    const create = (alias: string) =>
      language.createEndpoint({
        createEndpointDetails: {
          compartmentId: t.emulator.sandbox!.compartmentId,
          modelId: ai.customModelIds.textClassification,
          alias,
        },
      });
    const failed = await create('doomed');
    const workRequest = (await language.getWorkRequest({ workRequestId: failed.opcWorkRequestId! })).workRequest;
    assert.equal(workRequest.status, 'FAILED');
    const listed = (await language.listWorkRequestErrors({ workRequestId: failed.opcWorkRequestId! }))
      .workRequestErrorCollection.items;
    assert.equal(listed.length, 1);
    assert.match(listed[0].message, /CreateEndpoint/);
    const endpoint = (await language.getEndpoint({ endpointId: failed.endpoint.id })).endpoint;
    assert.equal(endpoint.lifecycleState, 'FAILED');
    // AI Language's models spell it lifecycleDetails (DR's lifeCycleDetails): the SDK reads this one.
    assert.equal(endpoint.lifecycleDetails, listed[0].message);
    assert.deepEqual(await t.emulator.admin.listFaults(), []);

    const ok = await create('fine');
    assert.equal(
      (await language.getWorkRequest({ workRequestId: ok.opcWorkRequestId! })).workRequest.status,
      'SUCCEEDED',
    );
    assert.equal((await language.getEndpoint({ endpointId: ok.endpoint.id })).endpoint.lifecycleState, 'ACTIVE');
  });
});
