// Requests as the official OCI SDKs shape them, beyond any one service's rules: an empty details
// object (which oci-common sends as no body at all) and retry tokens across services and regions.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { models } from 'oci-disasterrecovery';
import { AdjustableClock, type SandboxIds } from '../src';
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

describe('retry tokens of deleted resources', () => {
  it('a replayed create or action whose resource is DELETING, DELETED or gone answers 409 InvalidatedRetryToken', async () => {
    const clock = new AdjustableClock();
    const t = await startTestEmulator({
      clock,
      seed: 'sandbox',
      transitionDelaySeconds: 10,
      trainingDurationSeconds: 10,
      deletedRetentionSeconds: 60,
    });
    try {
      const { compartmentId, disasterRecovery, aiLanguage } = t.emulator.sandbox!;
      const dr = t.dr();
      const standby = t.dr(disasterRecovery.standbyRegion);
      const ai = t.language();
      // A token belongs to a service in a region: each request below has its own.
      const token = (name: string) => `deleted-later-${name}`;
      // Every create that takes a retry token, and how to delete what it made.
      const creates: Array<{ name: string; create: () => Promise<string>; remove: (id: string) => Promise<unknown> }> =
        [
          {
            name: 'CreateDrProtectionGroup',
            create: async () =>
              (
                await dr.createDrProtectionGroup({
                  opcRetryToken: token('CreateDrProtectionGroup'),
                  createDrProtectionGroupDetails: {
                    compartmentId,
                    displayName: 'token-group',
                    logLocation: { namespace: 'ns', bucket: 'logs' },
                  },
                })
              ).drProtectionGroup.id,
            remove: (drProtectionGroupId) => dr.deleteDrProtectionGroup({ drProtectionGroupId }),
          },
          {
            name: 'CreateDrPlan',
            create: async () =>
              (
                await standby.createDrPlan({
                  opcRetryToken: token('CreateDrPlan'),
                  createDrPlanDetails: {
                    displayName: 'token-plan',
                    type: models.DrPlanType.Switchover,
                    drProtectionGroupId: disasterRecovery.standbyProtectionGroupId,
                  },
                })
              ).drPlan.id,
            remove: (drPlanId) => standby.deleteDrPlan({ drPlanId }),
          },
          {
            name: 'CreateProject',
            create: async () =>
              (
                await ai.createProject({
                  opcRetryToken: token('CreateProject'),
                  createProjectDetails: { compartmentId },
                })
              ).project.id,
            remove: (projectId) => ai.deleteProject({ projectId }),
          },
          {
            name: 'CreateModel',
            create: async () =>
              (
                await ai.createModel({
                  opcRetryToken: token('CreateModel'),
                  createModelDetails: {
                    compartmentId,
                    projectId: aiLanguage.projectId,
                    modelDetails: { modelType: 'PRE_TRAINED_SENTIMENT_ANALYSIS' } as never,
                  },
                })
              ).model.id,
            remove: (modelId) => ai.deleteModel({ modelId }),
          },
          {
            name: 'CreateEndpoint',
            create: async () =>
              (
                await ai.createEndpoint({
                  opcRetryToken: token('CreateEndpoint'),
                  createEndpointDetails: { compartmentId, modelId: aiLanguage.pretrainedModelIds.sentimentAnalysis },
                })
              ).endpoint.id,
            remove: (endpointId) => ai.deleteEndpoint({ endpointId }),
          },
        ];
      const ids: string[] = [];
      for (const { name, create } of creates) {
        const id = await create();
        assert.equal(await create(), id, `${name}: the same token and request replay the first answer`);
        ids.push(id);
      }
      // An action's token follows the same rule for the resource its path names.
      const projectId = ids[2];
      const move = () =>
        ai.changeProjectCompartment({
          projectId,
          opcRetryToken: token('ChangeProjectCompartment'),
          changeProjectCompartmentDetails: { compartmentId: t.identity.tenancyId },
        });
      clock.advance(10_000); // everything ACTIVE
      await move();
      await move();

      const refused = async (stage: string) => {
        for (const [index, { name, create }] of creates.entries()) {
          const error = await ociError(create);
          assert.deepEqual([error.statusCode, error.serviceCode], [409, 'InvalidatedRetryToken'], `${name} ${stage}`);
          assert.match(error.message, new RegExp(`'${token(name)}'.*${ids[index]}.*deleted`), error.message);
        }
        const error = await ociError(move);
        assert.deepEqual([error.statusCode, error.serviceCode], [409, 'InvalidatedRetryToken'], `action ${stage}`);
      };
      // Endpoints before their model, plans before their group, the project once its model is deleting.
      for (const index of [4, 3, 1, 0, 2]) await creates[index].remove(ids[index]);
      await refused('DELETING');
      clock.advance(10_000);
      assert.equal((await ai.getProject({ projectId })).project.lifecycleState, 'DELETED');
      await refused('DELETED');
      clock.advance(60_000);
      assert.equal((await ociError(() => ai.getProject({ projectId }))).statusCode, 404);
      await refused('gone');
    } finally {
      await t.close();
    }
  });
});
