import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { models } from 'oci-disasterrecovery';
import { newOcid } from '../../src/core/ids';
import { fastWaiter, ociError, startTestEmulator, type TestEmulator } from '../support/emulator';
import { PEER_REGION, createPair, createPlan, finished, logLocation, raw, type Pair } from './fixtures';

/** Every step id in a plan, and every step's groupId, must match the structure. */
function assertWellFormed(plan: models.DrPlan): void {
  const ids = new Set<string>();
  for (const group of plan.planGroups) {
    assert.ok(!ids.has(group.id), `duplicate id ${group.id}`);
    ids.add(group.id);
    for (const step of group.steps) {
      assert.ok(!ids.has(step.id), `duplicate id ${step.id}`);
      ids.add(step.id);
      assert.equal(step.groupId, group.id);
    }
  }
}

const groupNames = (plan: models.DrPlan) => plan.planGroups.map((g) => g.displayName);
const json = <T>(value: T): T => JSON.parse(JSON.stringify(value));

describe('DR plans', () => {
  let t: TestEmulator;
  let pair: Pair;
  before(async () => {
    t = await startTestEmulator();
    pair = await createPair(t);
  });
  after(() => t.close());

  it('creates a plan in the STANDBY group: 200 CREATING with etag, location and work request, then ACTIVE', async () => {
    const created = await pair.peer.createDrPlan({
      createDrPlanDetails: {
        displayName: 'switchover',
        type: 'SWITCHOVER' as models.DrPlanType,
        drProtectionGroupId: pair.standby.id,
        freeformTags: { app: 'shop' },
      },
    });
    const plan = created.drPlan;
    assert.match(plan.id, /^ocid1\.drplan\.oc1\.phx\./);
    assert.equal(plan.lifecycleState, 'CREATING');
    assert.ok(created.etag);
    assert.equal(created.location, `/r/${PEER_REGION}/20220125/drPlans/${plan.id}`);
    // Copied from the protection group, not inputs.
    assert.equal(plan.compartmentId, pair.compartmentId);
    assert.equal(plan.peerDrProtectionGroupId, pair.primary.id);
    assert.equal(plan.peerRegion, 'us-ashburn-1');
    assert.equal(plan.drProtectionGroupId, pair.standby.id);
    assert.ok(!('sourcePlanId' in json(plan)), 'absent optional fields are left out');
    assert.ok(!('lifecycleSubState' in json(plan)));

    const wr = await finished(pair.peer, created.opcWorkRequestId);
    assert.equal(wr.status, 'SUCCEEDED');
    assert.equal(wr.operationType, 'CREATE_DR_PLAN');
    assert.ok(wr.timeFinished);
    assert.deepEqual(json(wr.resources), [
      { entityType: 'DrPlan', actionType: 'CREATED', identifier: plan.id, entityUri: `/20220125/drPlans/${plan.id}` },
    ]);

    const active = await pair.peer
      .createWaiters(fastWaiter())
      .forDrPlan({ drPlanId: plan.id }, models.DrPlanLifecycleState.Active);
    assert.equal(active!.drPlan.lifecycleState, 'ACTIVE');
    const got = await pair.peer.getDrPlan({ drPlanId: plan.id });
    assert.ok(got.etag);
    assert.notEqual(got.etag, created.etag, 'the etag follows the body, which changed from CREATING to ACTIVE');
    assert.deepEqual(got.drPlan.freeformTags, { app: 'shop' });
    assert.equal(got.drPlan.displayName, 'switchover');
    assert.deepEqual(json(got.drPlan.planGroups), json(plan.planGroups), 'the groups are generated once, at creation');

    // On the wire: OCI's field names (lifeCycleDetails with a capital C) and no null values.
    for (const path of [
      `/drPlans/${plan.id}`,
      `/drPlans?drProtectionGroupId=${pair.standby.id}`,
      `/drProtectionGroups/${pair.standby.id}`,
    ]) {
      const response = await raw(t, 'GET', `/r/${PEER_REGION}/20220125${path}`);
      assert.equal(response.status, 200);
      assert.ok(!JSON.stringify(response.body).includes('null'), `${path} has no null values`);
    }
    const wire = (await raw(t, 'GET', `/r/${PEER_REGION}/20220125/drPlans/${plan.id}`)).body;
    assert.deepEqual(Object.keys(wire).sort(), [
      'compartmentId',
      'definedTags',
      'displayName',
      'drProtectionGroupId',
      'freeformTags',
      'id',
      'lifecycleState',
      'peerDrProtectionGroupId',
      'peerRegion',
      'planGroups',
      'timeCreated',
      'timeUpdated',
      'type',
    ]);
  });

  it('generates groups and steps from the members of both groups, in the default order of the plan type', async () => {
    const switchover = await createPlan(pair, { type: 'SWITCHOVER' as models.DrPlanType });
    assertWellFormed(switchover);
    const names = groupNames(switchover);
    assert.equal(names[0], 'Prechecks - Built In');
    assert.equal(switchover.planGroups[0].type, 'BUILT_IN_PRECHECK');
    // Documented default order: stop at the primary before switching storage and databases over, launch after.
    const order = [
      'Compute Instances - Stop',
      'Volume Groups - Switchover',
      'Databases - Switchover',
      'Compute Instances - Launch',
    ];
    const positions = order.map((name) => names.indexOf(name));
    assert.ok(
      positions.every((p) => p > 0),
      `expected ${order.join(', ')} in ${names.join(' | ')}`,
    );
    assert.deepEqual(
      [...positions].sort((a, b) => a - b),
      positions,
    );
    // Steps act on the members of both groups.
    const memberIds = new Set(switchover.planGroups.flatMap((g) => g.steps.map((s) => s.memberId)));
    for (const m of [...pair.primary.members!, ...pair.standby.members!])
      assert.ok(memberIds.has(m.memberId), m.memberId);
    const dbStep = switchover.planGroups.find((g) => g.displayName === 'Databases - Switchover')!.steps[0];
    assert.equal(dbStep.type, 'DATABASE_SWITCHOVER');
    assert.equal(dbStep.errorMode, 'STOP_ON_ERROR');
    assert.equal(dbStep.isEnabled, true);
    assert.ok(dbStep.typeDisplayName);

    const failover = await createPlan(pair, { type: 'FAILOVER' as models.DrPlanType });
    assert.ok(groupNames(failover).includes('Databases - Failover'));
    assert.ok(!groupNames(failover).includes('Compute Instances - Stop'), 'a failover does not stop the lost primary');
  });

  it('refuses plans outside the ACTIVE STANDBY group of an associated pair', async () => {
    const inPrimary = await ociError(() =>
      pair.home.createDrPlan({
        createDrPlanDetails: {
          displayName: 'p',
          type: models.DrPlanType.Switchover,
          drProtectionGroupId: pair.primary.id,
        },
      }),
    );
    assert.deepEqual([inPrimary.statusCode, inPrimary.serviceCode], [400, 'InvalidParameter']);
    assert.match(inPrimary.message, /STANDBY/);

    const lonely = await pair.home.createDrProtectionGroup({
      createDrProtectionGroupDetails: { compartmentId: pair.compartmentId, displayName: 'lonely', logLocation },
    });
    await finished(pair.home, lonely.opcWorkRequestId);
    const unassociated = await ociError(() =>
      pair.home.createDrPlan({
        createDrPlanDetails: {
          displayName: 'p',
          type: models.DrPlanType.Switchover,
          drProtectionGroupId: lonely.drProtectionGroup.id,
        },
      }),
    );
    assert.deepEqual([unassociated.statusCode, unassociated.serviceCode], [400, 'InvalidParameter']);

    const unknown = await ociError(() =>
      pair.peer.createDrPlan({
        createDrPlanDetails: {
          displayName: 'p',
          type: models.DrPlanType.Switchover,
          drProtectionGroupId: newOcid('drprotectiongroup', PEER_REGION),
        },
      }),
    );
    assert.deepEqual([unknown.statusCode, unknown.serviceCode], [400, 'RelatedResourceNotAuthorizedOrNotFound']);
    // The group lives in the peer region: from the home region it does not exist.
    const otherRegion = await ociError(() =>
      pair.home.createDrPlan({
        createDrPlanDetails: {
          displayName: 'p',
          type: models.DrPlanType.Switchover,
          drProtectionGroupId: pair.standby.id,
        },
      }),
    );
    assert.deepEqual(
      [otherRegion.statusCode, otherRegion.serviceCode],
      [400, 'RelatedResourceNotAuthorizedOrNotFound'],
    );

    const badType = await ociError(() =>
      pair.peer.createDrPlan({
        createDrPlanDetails: { displayName: 'p', type: 'SIDEWAYS' as never, drProtectionGroupId: pair.standby.id },
      }),
    );
    assert.deepEqual([badType.statusCode, badType.serviceCode], [400, 'InvalidParameter']);
    const noName = await ociError(() =>
      pair.peer.createDrPlan({
        createDrPlanDetails: { type: models.DrPlanType.Switchover, drProtectionGroupId: pair.standby.id } as never,
      }),
    );
    assert.deepEqual([noName.statusCode, noName.serviceCode], [400, 'MissingParameter']);
    assert.match(noName.message, /displayName/);
  });

  it('clones a plan from sourcePlanId: same structure, new ids', async () => {
    const source = await createPlan(pair, { displayName: 'source' });
    const clone = await createPlan(pair, { displayName: 'clone', sourcePlanId: source.id });
    assert.equal(clone.sourcePlanId, source.id);
    assert.equal(clone.lifecycleState, 'ACTIVE');
    assertWellFormed(clone);
    const shape = (plan: models.DrPlan) =>
      plan.planGroups.map((g) => [
        g.type,
        g.displayName,
        g.steps.map((s) => [s.type, s.memberId, s.displayName, s.timeout]),
      ]);
    assert.deepEqual(shape(clone), shape(source));
    const sourceIds = new Set(source.planGroups.flatMap((g) => [g.id, ...g.steps.map((s) => s.id)]));
    for (const id of clone.planGroups.flatMap((g) => [g.id, ...g.steps.map((s) => s.id)]))
      assert.ok(!sourceIds.has(id), `reused id ${id}`);

    const missing = await ociError(() =>
      pair.peer.createDrPlan({
        createDrPlanDetails: {
          displayName: 'c',
          type: models.DrPlanType.Switchover,
          drProtectionGroupId: pair.standby.id,
          sourcePlanId: newOcid('drplan', PEER_REGION),
        },
      }),
    );
    assert.deepEqual([missing.statusCode, missing.serviceCode], [400, 'RelatedResourceNotAuthorizedOrNotFound']);
    const otherType = await ociError(() =>
      pair.peer.createDrPlan({
        createDrPlanDetails: {
          displayName: 'c',
          type: models.DrPlanType.Failover,
          drProtectionGroupId: pair.standby.id,
          sourcePlanId: source.id,
        },
      }),
    );
    assert.deepEqual([otherType.statusCode, otherType.serviceCode], [400, 'InvalidParameter']);
  });

  it('lists the plans of a group with filters, both sort orders and pages of summaries', async () => {
    const own = await createPair(t);
    const specs: Array<[string, string]> = [
      ['delta', 'SWITCHOVER'],
      ['alpha', 'FAILOVER'],
      ['echo', 'SWITCHOVER'],
      ['charlie', 'START_DRILL'],
      ['bravo', 'STOP_DRILL'],
    ];
    const ids: string[] = [];
    for (const [displayName, type] of specs)
      ids.push((await createPlan(own, { displayName, type: type as models.DrPlanType })).id);

    const seen: string[] = [];
    let page: string | undefined;
    let pages = 0;
    do {
      const response = await own.peer.listDrPlans({ drProtectionGroupId: own.standby.id, limit: 2, page });
      pages += 1;
      for (const item of response.drPlanCollection.items) {
        assert.ok(!('planGroups' in json(item)) && !('sourcePlanId' in json(item)), 'list items are DrPlanSummary');
        assert.equal(item.drProtectionGroupId, own.standby.id);
      }
      seen.push(...response.drPlanCollection.items.map((p) => p.id));
      page = response.opcNextPage;
    } while (page);
    assert.equal(pages, 3);
    assert.deepEqual([...seen].sort(), [...ids].sort());

    const list = (query: Record<string, unknown>) =>
      own.peer.listDrPlans({ drProtectionGroupId: own.standby.id, ...query }).then((r) => r.drPlanCollection.items);
    assert.deepEqual(
      (await list({ sortBy: 'displayName' })).map((p) => p.displayName),
      ['alpha', 'bravo', 'charlie', 'delta', 'echo'],
    );
    assert.deepEqual(
      (await list({ sortBy: 'displayName', sortOrder: 'DESC' })).map((p) => p.displayName),
      ['echo', 'delta', 'charlie', 'bravo', 'alpha'],
    );
    const newestFirst = (await list({})).map((p) => String(p.timeCreated));
    assert.deepEqual(newestFirst, [...newestFirst].sort().reverse());
    const oldestFirst = (await list({ sortOrder: 'ASC' })).map((p) => String(p.timeCreated));
    assert.deepEqual(oldestFirst, [...oldestFirst].sort());

    assert.deepEqual(
      (await list({ drPlanType: 'SWITCHOVER', sortBy: 'displayName' })).map((p) => p.displayName),
      ['delta', 'echo'],
    );
    assert.deepEqual(
      (await list({ displayName: 'charlie' })).map((p) => p.id),
      [ids[3]],
    );
    assert.deepEqual(
      (await list({ drPlanId: ids[1] })).map((p) => p.displayName),
      ['alpha'],
    );
    assert.equal((await list({ lifecycleState: 'ACTIVE' })).length, 5);
    assert.equal((await list({ lifecycleState: 'DELETED' })).length, 0);
    assert.equal((await list({ lifecycleSubState: 'NEEDS_REFRESH' })).length, 0);
    // Plans are listed per protection group.
    const others = await pair.peer.listDrPlans({ drProtectionGroupId: pair.standby.id });
    assert.ok(others.drPlanCollection.items.every((p) => !ids.includes(p.id)));

    const missing = await raw(t, 'GET', `/r/${PEER_REGION}/20220125/drPlans`);
    assert.deepEqual([missing.status, missing.body.code], [400, 'MissingParameter']);
    assert.match(missing.body.message, /drProtectionGroupId/);
  });

  it('updates display name and tags, accepts a round-trip of its own planGroups, and reorders and adds user-defined groups', async () => {
    const plan = await createPlan(pair, { displayName: 'before' });
    const { etag } = await pair.peer.getDrPlan({ drPlanId: plan.id });
    // Terraform sends the whole planGroups list back with every update, exactly as read.
    const roundTrip = await pair.peer.updateDrPlan({
      drPlanId: plan.id,
      ifMatch: etag,
      updateDrPlanDetails: {
        displayName: 'after',
        freeformTags: { k: 'v' },
        planGroups: plan.planGroups as unknown as models.UpdateDrPlanGroupDetails[],
      },
    });
    assert.ok(roundTrip.opcWorkRequestId);
    const wr = await finished(pair.peer, roundTrip.opcWorkRequestId);
    assert.equal(wr.operationType, 'UPDATE_DR_PLAN');
    assert.deepEqual(
      json(wr.resources).map((r) => [r.entityType, r.actionType, r.identifier]),
      [['DrPlan', 'UPDATED', plan.id]],
    );
    const updated = (await pair.peer.getDrPlan({ drPlanId: plan.id })).drPlan;
    assert.equal(updated.displayName, 'after');
    assert.equal(updated.lifecycleState, 'ACTIVE');
    assert.deepEqual(updated.freeformTags, { k: 'v' });
    assert.deepEqual(json(updated.planGroups), json(plan.planGroups));

    // A user-defined group with a script step, added between the built-in groups, and a step tuned.
    const [first, ...rest] = updated.planGroups;
    const tuned = { ...first, steps: [{ id: first.steps[0].id, timeout: 120, isEnabled: false }] };
    const custom = {
      displayName: 'Warm caches',
      type: 'USER_DEFINED',
      steps: [
        {
          displayName: 'warm',
          userDefinedStep: {
            stepType: 'RUN_LOCAL_SCRIPT',
            runOnInstanceId: newOcid('instance', PEER_REGION),
            scriptCommand: '/opt/warm.sh',
          },
        },
      ],
    };
    const changed = await pair.peer.updateDrPlan({
      drPlanId: plan.id,
      updateDrPlanDetails: { planGroups: [tuned, custom, ...rest] as unknown as models.UpdateDrPlanGroupDetails[] },
    });
    await finished(pair.peer, changed.opcWorkRequestId);
    const now = (await pair.peer.getDrPlan({ drPlanId: plan.id })).drPlan;
    assertWellFormed(now);
    assert.equal(now.planGroups.length, plan.planGroups.length + 1);
    assert.equal(now.planGroups[0].id, first.id);
    assert.equal(now.planGroups[0].steps[0].timeout, 120);
    assert.equal(now.planGroups[0].steps[0].isEnabled, false);
    // Omitted built-in steps stay; the service adds the precheck of the new script step after them.
    assert.deepEqual(
      now.planGroups[0].steps.slice(0, first.steps.length).map((s) => s.id),
      first.steps.map((s) => s.id),
    );
    assert.deepEqual(
      now.planGroups[0].steps.slice(first.steps.length).map((s) => [s.type, s.userDefinedStep?.stepType]),
      [['USER_DEFINED_PRECHECK', 'RUN_LOCAL_SCRIPT_PRECHECK']],
    );
    const added = now.planGroups[1];
    assert.deepEqual([added.type, added.displayName], ['USER_DEFINED', 'Warm caches']);
    assert.match(added.id, /^sgid1\.group\.\./);
    assert.equal(added.steps[0].type, 'USER_DEFINED');
    assert.equal(added.steps[0].userDefinedStep!.stepType, 'RUN_LOCAL_SCRIPT');
    assert.equal(
      (added.steps[0].userDefinedStep as models.RunLocalScriptUserDefinedStep).runOnInstanceRegion,
      PEER_REGION,
    );

    // Removing a built-in group is refused and changes nothing.
    const dropped = await ociError(() =>
      pair.peer.updateDrPlan({
        drPlanId: plan.id,
        updateDrPlanDetails: { planGroups: now.planGroups.slice(1) as unknown as models.UpdateDrPlanGroupDetails[] },
      }),
    );
    assert.deepEqual([dropped.statusCode, dropped.serviceCode], [400, 'InvalidParameter']);
    assert.equal((await pair.peer.getDrPlan({ drPlanId: plan.id })).drPlan.planGroups.length, now.planGroups.length);

    // An empty update (the SDK then sends no body) is accepted.
    await finished(
      pair.peer,
      (await pair.peer.updateDrPlan({ drPlanId: plan.id, updateDrPlanDetails: {} })).opcWorkRequestId,
    );

    const stale = await ociError(() =>
      pair.peer.updateDrPlan({ drPlanId: plan.id, ifMatch: etag, updateDrPlanDetails: { displayName: 'x' } }),
    );
    assert.deepEqual([stale.statusCode, stale.serviceCode], [412, 'NoEtagMatch']);
  });

  it('replays a create with the same opc-retry-token, and refuses the token for a different request', async () => {
    const details = {
      displayName: 'idempotent',
      type: 'SWITCHOVER' as models.DrPlanType,
      drProtectionGroupId: pair.standby.id,
    };
    const first = await pair.peer.createDrPlan({ createDrPlanDetails: details, opcRetryToken: 'token-1' });
    const second = await pair.peer.createDrPlan({ createDrPlanDetails: details, opcRetryToken: 'token-1' });
    assert.equal(second.drPlan.id, first.drPlan.id);
    assert.equal(second.opcWorkRequestId, first.opcWorkRequestId);
    const plans = await pair.peer.listDrPlans({ drProtectionGroupId: pair.standby.id, displayName: 'idempotent' });
    assert.equal(plans.drPlanCollection.items.length, 1);

    const reused = await ociError(() =>
      pair.peer.createDrPlan({ createDrPlanDetails: { ...details, displayName: 'other' }, opcRetryToken: 'token-1' }),
    );
    assert.equal(reused.statusCode, 409);
    assert.equal(reused.serviceCode, 'InvalidatedRetryToken');
  });

  it('answers 404 NotAuthorizedOrNotFound for unknown plans and for plans of another region', async () => {
    const plan = await createPlan(pair);
    const unknown = newOcid('drplan', PEER_REGION);
    for (const call of [
      () => pair.peer.getDrPlan({ drPlanId: unknown }),
      () => pair.peer.updateDrPlan({ drPlanId: unknown, updateDrPlanDetails: { displayName: 'x' } }),
      () => pair.peer.deleteDrPlan({ drPlanId: unknown }),
      () => pair.peer.refreshDrPlan({ drPlanId: unknown, refreshDrPlanDetails: { type: 'DEFAULT' } }),
      () => pair.peer.verifyDrPlan({ drPlanId: unknown, verifyDrPlanDetails: { type: 'DEFAULT' } }),
      () => pair.home.getDrPlan({ drPlanId: plan.id }),
    ]) {
      const err = await ociError(call);
      assert.deepEqual([err.statusCode, err.serviceCode], [404, 'NotAuthorizedOrNotFound']);
    }
  });
});

describe('DR plan deletion over time', () => {
  let t: TestEmulator;
  before(async () => {
    t = await startTestEmulator({ transitionDelaySeconds: 5, deletedRetentionSeconds: 60 });
  });
  after(() => t.close());

  it('reads DELETING at once, DELETED when the work is done, then 404; 204 without a work request', async () => {
    const pair = await createPair(t, { settle: () => t.advance(5) });
    const created = await pair.peer.createDrPlan({
      createDrPlanDetails: {
        displayName: 'doomed',
        type: models.DrPlanType.Switchover,
        drProtectionGroupId: pair.standby.id,
      },
    });
    const planId = created.drPlan.id;
    assert.equal((await pair.peer.getDrPlan({ drPlanId: planId })).drPlan.lifecycleState, 'CREATING');
    // Deleting a plan that is still being created has to wait (transient, so SDKs retry).
    const early = await ociError(() => pair.peer.deleteDrPlan({ drPlanId: planId }));
    assert.deepEqual([early.statusCode, early.serviceCode], [409, 'IncorrectState']);
    await t.advance(5);
    assert.equal((await pair.peer.getDrPlan({ drPlanId: planId })).drPlan.lifecycleState, 'ACTIVE');

    // DeleteDrPlan answers 204 with no opc-work-request-id (the SDK's response has no such field).
    const deleted = await raw(t, 'DELETE', `/r/${PEER_REGION}/20220125/drPlans/${planId}`);
    assert.equal(deleted.status, 204);
    assert.equal(deleted.headers.get('opc-work-request-id'), null);
    assert.ok(deleted.headers.get('opc-request-id'));
    const deleting = (await pair.peer.getDrPlan({ drPlanId: planId })).drPlan;
    assert.equal(deleting.lifecycleState, 'DELETING');
    // Deleting again while it is being deleted is harmless.
    await pair.peer.deleteDrPlan({ drPlanId: planId });
    // The deletion is still recorded as a work request.
    const wrs = await pair.peer.listWorkRequests({ resourceId: planId });
    const deletion = wrs.workRequestSummaryCollection.items.find((w) => w.operationType === 'DELETE_DR_PLAN');
    assert.ok(deletion, 'a DELETE_DR_PLAN work request is listed');
    assert.equal(wrs.workRequestSummaryCollection.items.filter((w) => w.operationType === 'DELETE_DR_PLAN').length, 1);

    await t.advance(5);
    assert.equal((await pair.peer.getDrPlan({ drPlanId: planId })).drPlan.lifecycleState, 'DELETED');
    const listed = await pair.peer.listDrPlans({
      drProtectionGroupId: pair.standby.id,
      lifecycleState: models.DrPlanLifecycleState.Deleted,
    });
    assert.deepEqual(
      listed.drPlanCollection.items.map((p) => p.id),
      [planId],
    );
    const wr = (await pair.peer.getWorkRequest({ workRequestId: deletion!.id })).workRequest;
    assert.equal(wr.status, 'SUCCEEDED');
    assert.deepEqual(
      json(wr.resources).map((r) => [r.entityType, r.actionType]),
      [['DrPlan', 'DELETED']],
    );

    await t.advance(60);
    const gone = await ociError(() => pair.peer.getDrPlan({ drPlanId: planId }));
    assert.deepEqual([gone.statusCode, gone.serviceCode], [404, 'NotAuthorizedOrNotFound']);
    assert.equal(
      (await pair.peer.listDrPlans({ drProtectionGroupId: pair.standby.id })).drPlanCollection.items.length,
      0,
    );
  });

  it('serves the SDK waiter forDrPlan(DELETED) through DELETING', async () => {
    const pair = await createPair(t, { settle: () => t.advance(5) });
    const created = await pair.peer.createDrPlan({
      createDrPlanDetails: {
        displayName: 'waited',
        type: models.DrPlanType.Failover,
        drProtectionGroupId: pair.standby.id,
      },
    });
    await t.advance(5);
    await pair.peer.deleteDrPlan({ drPlanId: created.drPlan.id });
    const waiting = pair.peer
      .createWaiters(fastWaiter(500))
      .forDrPlan({ drPlanId: created.drPlan.id }, models.DrPlanLifecycleState.Deleted);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await t.advance(5);
    const result = await waiting;
    assert.equal(result?.drPlan.lifecycleState, 'DELETED');
  });
});
