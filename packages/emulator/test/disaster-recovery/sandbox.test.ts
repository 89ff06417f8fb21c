import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { models } from 'oci-disasterrecovery';
import type { SandboxIds } from '../../src';
import { fastWaiter, startTestEmulator, type TestEmulator } from '../support/emulator';

describe('DR sandbox seed', () => {
  let t: TestEmulator;
  before(async () => {
    t = await startTestEmulator({ seed: 'sandbox' });
  });
  after(() => t.close());

  it('seeds an associated PRIMARY/STANDBY pair, ACTIVE at once, with a realistic set of members', async () => {
    const ids = t.emulator.sandbox!.disasterRecovery;
    assert.deepEqual((await t.admin<SandboxIds>('GET', '/sandbox')).disasterRecovery, ids);
    assert.equal(ids.primaryRegion, t.emulator.region);
    assert.notEqual(ids.standbyRegion, ids.primaryRegion);

    const primary = (await t.dr().getDrProtectionGroup({ drProtectionGroupId: ids.primaryProtectionGroupId }))
      .drProtectionGroup;
    const standby = (
      await t.dr(ids.standbyRegion).getDrProtectionGroup({ drProtectionGroupId: ids.standbyProtectionGroupId })
    ).drProtectionGroup;
    assert.deepEqual(
      [primary.role, primary.lifecycleState, primary.peerId, primary.peerRegion],
      ['PRIMARY', 'ACTIVE', standby.id, ids.standbyRegion],
    );
    assert.deepEqual(
      [standby.role, standby.lifecycleState, standby.peerId, standby.peerRegion],
      ['STANDBY', 'ACTIVE', primary.id, ids.primaryRegion],
    );
    assert.equal(primary.compartmentId, t.emulator.sandbox!.compartmentId);
    assert.deepEqual(primary.logLocation, { namespace: ids.logNamespace, bucket: ids.logBucket });
    assert.deepEqual(primary.members!.map((m) => m.memberType).sort(), [
      'COMPUTE_INSTANCE_MOVABLE',
      'COMPUTE_INSTANCE_NON_MOVABLE',
      'DATABASE',
      'FILE_SYSTEM',
      'LOAD_BALANCER',
      'VOLUME_GROUP',
    ]);
    assert.deepEqual(
      primary.members!.map((m) => m.memberId),
      [
        ids.members.primary.movableInstanceId,
        ids.members.primary.nonMovableInstanceId,
        ids.members.primary.volumeGroupId,
        ids.members.primary.databaseId,
        ids.members.primary.loadBalancerId,
        ids.members.primary.fileSystemId,
      ],
    );
    assert.match(ids.members.primary.volumeGroupId, /^ocid1\.volumegroup\.oc1\.iad\./);
    assert.match(ids.members.standby.databaseId, /^ocid1\.database\.oc1\.phx\./);
    assert.deepEqual(standby.members!.map((m) => m.memberType).sort(), [
      'COMPUTE_INSTANCE_NON_MOVABLE',
      'DATABASE',
      'LOAD_BALANCER',
    ]);
  });

  it("takes a DR plan in the STANDBY group straight away, with groups generated from both groups' members", async () => {
    const ids = t.emulator.sandbox!.disasterRecovery;
    const client = t.dr(ids.standbyRegion);
    const created = await client.createDrPlan({
      createDrPlanDetails: {
        displayName: 'sandbox switchover',
        type: 'SWITCHOVER' as models.DrPlanType,
        drProtectionGroupId: ids.standbyProtectionGroupId,
      },
    });
    const plan = (await client
      .createWaiters(fastWaiter())
      .forDrPlan({ drPlanId: created.drPlan.id }, models.DrPlanLifecycleState.Active))!.drPlan;
    assert.equal(plan.lifecycleState, 'ACTIVE');
    assert.equal(plan.peerDrProtectionGroupId, ids.primaryProtectionGroupId);
    assert.equal(plan.peerRegion, ids.primaryRegion);
    const names = plan.planGroups.map((g) => g.displayName);
    for (const expected of [
      'Prechecks - Built In',
      'Load Balancers - Update Source Backend Sets',
      'Compute Instances - Stop',
      'Volume Groups - Switchover',
      'File Systems - Switchover',
      'Databases - Switchover',
      'Compute Instances - Launch',
      'Compute Instances - Start',
      'Load Balancers - Update Destination Backend Sets',
    ]) {
      assert.ok(names.includes(expected), `${expected} in ${names.join(' | ')}`);
    }
    const stepMembers = new Set(plan.planGroups.flatMap((g) => g.steps.map((s) => s.memberId)));
    assert.ok(stepMembers.has(ids.members.standby.databaseId));
    assert.ok(stepMembers.has(ids.members.primary.movableInstanceId));
    assert.ok(stepMembers.has(ids.members.standby.nonMovableInstanceId));

    for (const type of ['FAILOVER', 'START_DRILL', 'STOP_DRILL']) {
      const other = await client.createDrPlan({
        createDrPlanDetails: {
          displayName: type,
          type: type as models.DrPlanType,
          drProtectionGroupId: ids.standbyProtectionGroupId,
        },
      });
      const ready = (await client
        .createWaiters(fastWaiter())
        .forDrPlan({ drPlanId: other.drPlan.id }, models.DrPlanLifecycleState.Active))!.drPlan;
      assert.ok(ready.planGroups.length > 1, `${type} plan has generated groups`);
    }
  });

  it('seeding again is idempotent', async () => {
    const again = await t.admin<SandboxIds>('POST', '/seed', { seed: 'sandbox' });
    assert.deepEqual(again.disasterRecovery, t.emulator.sandbox!.disasterRecovery);
  });
});
