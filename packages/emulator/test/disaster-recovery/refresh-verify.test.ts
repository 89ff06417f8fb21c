import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { models, type DisasterRecoveryClient } from 'oci-disasterrecovery';
import { newOcid } from '../../src/core/ids';
import { ociError, startTestEmulator, type TestEmulator } from '../support/emulator';
import { HOME_REGION, PEER_REGION, createPair, createPlan, finished, type Pair } from './fixtures';

const member = (fields: Record<string, unknown>) => fields as unknown as models.CreateDrProtectionGroupMemberDetails;

async function setMembers(
  client: DisasterRecoveryClient,
  groupId: string,
  members: models.CreateDrProtectionGroupMemberDetails[],
) {
  const updated = await client.updateDrProtectionGroup({
    drProtectionGroupId: groupId,
    updateDrProtectionGroupDetails: { members },
  });
  await finished(client, updated.opcWorkRequestId);
}

const getPlan = async (client: DisasterRecoveryClient, id: string) => (await client.getDrPlan({ drPlanId: id })).drPlan;
const state = (plan: models.DrPlan) => [plan.lifecycleState, plan.lifecycleSubState];
const refresh = (client: DisasterRecoveryClient, id: string) =>
  client.refreshDrPlan({ drPlanId: id, refreshDrPlanDetails: { type: 'DEFAULT' } });
const verify = (client: DisasterRecoveryClient, id: string) =>
  client.verifyDrPlan({ drPlanId: id, verifyDrPlanDetails: { type: 'DEFAULT' } });
const labels = (plan: models.DrPlan) => ({
  groups: plan.planGroups.filter((g) => g.refreshStatus).map((g) => `${g.refreshStatus}:${g.displayName}`),
  steps: plan.planGroups.flatMap((g) =>
    g.steps.filter((s) => s.refreshStatus).map((s) => `${s.refreshStatus}:${s.type}`),
  ),
});

describe('DR plan refresh and verify', () => {
  let t: TestEmulator;
  before(async () => {
    t = await startTestEmulator();
  });
  after(() => t.close());

  it('member changes → NEEDS_ATTENTION/NEEDS_REFRESH → refresh labels the differences → verify → ACTIVE', async () => {
    const movable = member({ memberId: newOcid('instance', HOME_REGION), memberType: 'COMPUTE_INSTANCE_MOVABLE' });
    const volumeGroup = member({ memberId: newOcid('volumegroup', HOME_REGION), memberType: 'VOLUME_GROUP' });
    const database = member({ memberId: newOcid('database', PEER_REGION), memberType: 'DATABASE' });
    const pair = await createPair(t, { primaryMembers: [movable, volumeGroup], standbyMembers: [database] });
    const plan = await createPlan(pair);
    const other = await createPlan(pair, { type: 'FAILOVER' as models.DrPlanType });
    assert.deepEqual(state(plan), ['ACTIVE', undefined]);

    // Nothing to refresh or verify yet: lasting states answer 409 Conflict (not retried).
    for (const call of [() => refresh(pair.peer, plan.id), () => verify(pair.peer, plan.id)]) {
      const err = await ociError(call);
      assert.deepEqual([err.statusCode, err.serviceCode], [409, 'Conflict']);
    }

    // The primary (peer) group loses its volume group; the standby gains a start/stop instance.
    await setMembers(pair.home, pair.primary.id, [movable]);
    const afterPrimary = await getPlan(pair.peer, plan.id);
    assert.deepEqual(state(afterPrimary), ['NEEDS_ATTENTION', 'NEEDS_REFRESH']);
    assert.ok(afterPrimary.lifeCycleDetails);
    assert.deepEqual(afterPrimary.planGroups, plan.planGroups, 'a member change alone does not touch the groups');
    const standbyInstance = member({
      memberId: newOcid('instance', PEER_REGION),
      memberType: 'COMPUTE_INSTANCE_NON_MOVABLE',
      isStartStopEnabled: true,
    });
    await setMembers(pair.peer, pair.standby.id, [database, standbyInstance]);

    const needing = await pair.peer.listDrPlans({
      drProtectionGroupId: pair.standby.id,
      lifecycleSubState: models.DrPlanLifecycleSubState.NeedsRefresh,
    });
    assert.deepEqual(new Set(needing.drPlanCollection.items.map((p) => p.id)), new Set([plan.id, other.id]));
    const early = await ociError(() => verify(pair.peer, plan.id));
    assert.deepEqual([early.statusCode, early.serviceCode], [409, 'Conflict']);

    const refreshed = await refresh(pair.peer, plan.id);
    const refreshWr = await finished(pair.peer, refreshed.opcWorkRequestId);
    assert.equal(refreshWr.operationType, 'REFRESH_DR_PLAN');
    assert.deepEqual(
      refreshWr.resources.map((r) => [r.entityType, r.actionType, r.identifier]),
      [['DrPlan', 'UPDATED', plan.id]],
    );
    const labelled = await getPlan(pair.peer, plan.id);
    assert.deepEqual(state(labelled), ['NEEDS_ATTENTION', 'NEEDS_VERIFICATION']);
    const seen = labels(labelled);
    assert.ok(seen.groups.includes('GROUP_ADDED:Compute Instances - Start'), seen.groups.join(', '));
    assert.ok(seen.groups.includes('GROUP_DELETED:Volume Groups - Switchover'), seen.groups.join(', '));
    assert.ok(seen.groups.includes('GROUP_MODIFIED:Prechecks - Built In'), seen.groups.join(', '));
    assert.ok(seen.steps.includes('STEP_ADDED:COMPUTE_INSTANCE_START'), seen.steps.join(', '));
    assert.ok(seen.steps.includes('STEP_DELETED:VOLUME_GROUP_RESTORE_SWITCHOVER'), seen.steps.join(', '));
    // Unchanged steps keep their ids.
    const dbStep = (p: models.DrPlan) => p.planGroups.find((g) => g.displayName === 'Databases - Switchover')!.steps[0];
    assert.equal(dbStep(labelled).id, dbStep(plan).id);
    assert.equal(dbStep(labelled).refreshStatus, undefined);

    const twice = await ociError(() => refresh(pair.peer, plan.id));
    assert.deepEqual([twice.statusCode, twice.serviceCode], [409, 'Conflict']);

    const verified = await verify(pair.peer, plan.id);
    assert.equal((await finished(pair.peer, verified.opcWorkRequestId)).operationType, 'VERIFY_DR_PLAN');
    const done = await getPlan(pair.peer, plan.id);
    assert.deepEqual(state(done), ['ACTIVE', undefined]);
    assert.equal(done.lifeCycleDetails, undefined);
    assert.deepEqual(labels(done), { groups: [], steps: [] });
    const names = done.planGroups.map((g) => g.displayName);
    assert.ok(!names.some((n) => n.startsWith('Volume Groups')), 'deleted groups are removed by the verify');
    const startGroup = done.planGroups.find((g) => g.displayName === 'Compute Instances - Start')!;
    assert.equal(startGroup.id, labelled.planGroups.find((g) => g.displayName === 'Compute Instances - Start')!.id);
    assert.equal(startGroup.steps[0].memberId, standbyInstance.memberId);
    // The other plan still waits for its own refresh.
    assert.deepEqual(state(await getPlan(pair.peer, other.id)), ['NEEDS_ATTENTION', 'NEEDS_REFRESH']);
  });

  it('a member change after a refresh makes the plan need a refresh again', async () => {
    const pair = await createPair(t);
    const plan = await createPlan(pair);
    const database = pair.standby.members![0] as unknown as models.CreateDrProtectionGroupMemberDetails;
    const extra = member({ memberId: newOcid('database', PEER_REGION), memberType: 'DATABASE' });
    await setMembers(pair.peer, pair.standby.id, [database, extra]);
    await finished(pair.peer, (await refresh(pair.peer, plan.id)).opcWorkRequestId);
    assert.deepEqual(state(await getPlan(pair.peer, plan.id)), ['NEEDS_ATTENTION', 'NEEDS_VERIFICATION']);
    await setMembers(pair.peer, pair.standby.id, [database]);
    assert.deepEqual(state(await getPlan(pair.peer, plan.id)), ['NEEDS_ATTENTION', 'NEEDS_REFRESH']);
    // Refreshing again: the step added by the first refresh and removed again leaves no trace.
    await finished(pair.peer, (await refresh(pair.peer, plan.id)).opcWorkRequestId);
    await finished(pair.peer, (await verify(pair.peer, plan.id)).opcWorkRequestId);
    const done = await getPlan(pair.peer, plan.id);
    assert.deepEqual(state(done), ['ACTIVE', undefined]);
    assert.deepEqual(
      done.planGroups.map((g) => [g.id, g.steps.map((s) => s.id)]),
      plan.planGroups.map((g) => [g.id, g.steps.map((s) => s.id)]),
    );
  });

  it('role flips: plans of the group that is no longer STANDBY are INACTIVE; they come back when it is STANDBY again', async () => {
    const pair: Pair = await createPair(t);
    const plan = await createPlan(pair);

    const flip = await pair.peer.updateDrProtectionGroupRole({
      drProtectionGroupId: pair.standby.id,
      updateDrProtectionGroupRoleDetails: { role: models.DrProtectionGroupRole.Primary },
    });
    await finished(pair.peer, flip.opcWorkRequestId);
    const inactive = await getPlan(pair.peer, plan.id);
    assert.deepEqual(state(inactive), ['INACTIVE', undefined]);
    assert.ok(inactive.lifeCycleDetails);
    const refused = await ociError(() => refresh(pair.peer, plan.id));
    assert.deepEqual([refused.statusCode, refused.serviceCode], [409, 'Conflict']);
    const inNewPrimary = await ociError(() =>
      pair.peer.createDrPlan({
        createDrPlanDetails: {
          displayName: 'x',
          type: models.DrPlanType.Switchover,
          drProtectionGroupId: pair.standby.id,
        },
      }),
    );
    assert.deepEqual([inNewPrimary.statusCode, inNewPrimary.serviceCode], [400, 'InvalidParameter']);

    // The former primary is now the STANDBY: plans go there.
    const homePlan = (
      await pair.home.createDrPlan({
        createDrPlanDetails: {
          displayName: 'reverse',
          type: models.DrPlanType.Switchover,
          drProtectionGroupId: pair.primary.id,
        },
      })
    ).drPlan;
    assert.equal(homePlan.peerDrProtectionGroupId, pair.standby.id);
    assert.equal(homePlan.peerRegion, PEER_REGION);
    assert.equal((await getPlan(pair.home, homePlan.id)).lifecycleState, 'ACTIVE');

    // Members change while the first plan is INACTIVE: it remembers that it needs a refresh.
    await setMembers(pair.home, pair.primary.id, []);
    assert.deepEqual(state(await getPlan(pair.peer, plan.id)), ['INACTIVE', 'NEEDS_REFRESH']);
    assert.deepEqual(state(await getPlan(pair.home, homePlan.id)), ['NEEDS_ATTENTION', 'NEEDS_REFRESH']);

    // Flip back: the first plan is usable again but must be refreshed; the other one is INACTIVE.
    const back = await pair.home.updateDrProtectionGroupRole({
      drProtectionGroupId: pair.primary.id,
      updateDrProtectionGroupRoleDetails: { role: models.DrProtectionGroupRole.Primary },
    });
    await finished(pair.home, back.opcWorkRequestId);
    assert.deepEqual(state(await getPlan(pair.peer, plan.id)), ['NEEDS_ATTENTION', 'NEEDS_REFRESH']);
    assert.deepEqual(state(await getPlan(pair.home, homePlan.id)), ['INACTIVE', 'NEEDS_REFRESH']);
    await finished(pair.peer, (await refresh(pair.peer, plan.id)).opcWorkRequestId);
    await finished(pair.peer, (await verify(pair.peer, plan.id)).opcWorkRequestId);
    const active = await getPlan(pair.peer, plan.id);
    assert.deepEqual(state(active), ['ACTIVE', undefined]);
    assert.ok(
      !active.planGroups.some((g) => g.displayName === 'Compute Instances - Launch'),
      'the primary has no members left',
    );
  });

  it('disassociation makes the plans INACTIVE; associating the same pair again makes them ACTIVE', async () => {
    const pair = await createPair(t);
    const plan = await createPlan(pair);
    const dis = await pair.home.disassociateDrProtectionGroup({
      drProtectionGroupId: pair.primary.id,
      disassociateDrProtectionGroupDetails: { type: 'DEFAULT' },
    });
    await finished(pair.home, dis.opcWorkRequestId);
    const inactive = await getPlan(pair.peer, plan.id);
    assert.deepEqual(state(inactive), ['INACTIVE', undefined]);
    assert.equal(inactive.peerDrProtectionGroupId, pair.primary.id, 'the plan keeps naming its last peer');

    const again = await pair.peer.associateDrProtectionGroup({
      drProtectionGroupId: pair.standby.id,
      associateDrProtectionGroupDetails: {
        role: models.DrProtectionGroupRole.Standby,
        peerId: pair.primary.id,
        peerRegion: HOME_REGION,
      },
    });
    await finished(pair.peer, again.opcWorkRequestId);
    assert.deepEqual(state(await getPlan(pair.peer, plan.id)), ['ACTIVE', undefined]);
  });
});
