import { models, requests } from 'oci-disasterrecovery';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { newOcid } from '../../src/core/ids';
import { ociError, startTestEmulator, type TestEmulator } from '../support/emulator';
import { PEER_REGION, createPair, logLocation, newCompartmentId } from './fixtures';

const json = <T>(value: T): T => JSON.parse(JSON.stringify(value));

/** Work requests take 10 s here (IN_PROGRESS from 5 s); time only moves with t.advance. */
describe('DR work requests over time', () => {
  let t: TestEmulator;
  before(async () => {
    t = await startTestEmulator({ transitionDelaySeconds: 10 });
  });
  after(() => t.close());

  const settle = () => t.advance(10);

  /** A pair with a plan being created: the plan and its work request's id. */
  const creatingPlan = async (displayName: string) => {
    const pair = await createPair(t, { settle });
    const created = await pair.peer.createDrPlan({
      createDrPlanDetails: { displayName, type: models.DrPlanType.Switchover, drProtectionGroupId: pair.standby.id },
    });
    return { pair, created, workRequestId: created.opcWorkRequestId };
  };
  /** The first word of each log entry of a work request, oldest first. */
  const logWords = async (client: ReturnType<TestEmulator['dr']>, workRequestId: string) =>
    (
      await client.listWorkRequestLogs({ workRequestId, sortOrder: models.SortOrder.Asc })
    ).workRequestLogEntryCollection.items.map((l) => l.message.split(' ')[0]);

  it('go ACCEPTED → IN_PROGRESS → SUCCEEDED with timeFinished, while the group goes CREATING → ACTIVE', async () => {
    const client = t.dr();
    const compartmentId = await newCompartmentId();
    const created = await client.createDrProtectionGroup({
      createDrProtectionGroupDetails: { compartmentId, displayName: 'timed', logLocation },
    });
    const workRequestId = created.opcWorkRequestId;
    const groupId = created.drProtectionGroup.id;

    const first = await client.getWorkRequest({ workRequestId });
    let wr = first.workRequest;
    assert.equal(wr.status, 'ACCEPTED');
    // When to look again (decimal seconds, at most 1 s), as DR's GetWorkRequest answers.
    assert.equal(first.retryAfter, 1);
    assert.equal(wr.percentComplete, 0);
    assert.equal(wr.compartmentId, compartmentId);
    assert.equal(wr.timeStarted, undefined);
    assert.equal(wr.timeFinished, undefined);
    assert.deepEqual(
      json(wr.resources).map((r) => [r.entityType, r.actionType, r.identifier]),
      [['DrProtectionGroup', 'IN_PROGRESS', groupId]],
    );
    assert.equal(
      (await client.getDrProtectionGroup({ drProtectionGroupId: groupId })).drProtectionGroup.lifecycleState,
      'CREATING',
    );
    // A group being created cannot be changed yet; the state ends by itself, so the code is the retryable one.
    const busy = await ociError(() =>
      client.updateDrProtectionGroup({
        drProtectionGroupId: groupId,
        updateDrProtectionGroupDetails: { displayName: 'x' },
      }),
    );
    assert.deepEqual([busy.statusCode, busy.serviceCode], [409, 'IncorrectState']);

    await t.advance(5);
    wr = (await client.getWorkRequest({ workRequestId })).workRequest;
    assert.equal(wr.status, 'IN_PROGRESS');
    assert.equal(wr.percentComplete, 50);
    assert.ok(wr.timeStarted);
    assert.equal(wr.timeFinished, undefined);

    await t.advance(5);
    const got = await client.getWorkRequest({ workRequestId });
    wr = got.workRequest;
    assert.ok(got.etag);
    assert.equal(got.retryAfter, undefined, 'finished: nothing to wait for');
    assert.equal(wr.status, 'SUCCEEDED');
    assert.equal(wr.percentComplete, 100);
    assert.ok(wr.timeFinished);
    assert.ok(new Date(wr.timeFinished!).getTime() >= new Date(wr.timeStarted!).getTime());
    assert.deepEqual(
      json(wr.resources).map((r) => r.actionType),
      ['CREATED'],
    );
    assert.equal(
      (await client.getDrProtectionGroup({ drProtectionGroupId: groupId })).drProtectionGroup.lifecycleState,
      'ACTIVE',
    );

    // Logs follow the progress; errors are empty for work that succeeded.
    const logs = (await client.listWorkRequestLogs({ workRequestId, sortOrder: models.SortOrder.Asc }))
      .workRequestLogEntryCollection.items;
    assert.deepEqual(
      logs.map((l) => l.message.split(' ')[0]),
      ['Accepted', 'Started', 'Succeeded:'],
    );
    const newestFirst = (await client.listWorkRequestLogs({ workRequestId })).workRequestLogEntryCollection.items;
    assert.equal(newestFirst[0].message, logs[2].message);
    const paged = await client.listWorkRequestLogs({ workRequestId, limit: 2 });
    assert.equal(paged.workRequestLogEntryCollection.items.length, 2);
    assert.ok(paged.opcNextPage);
    const rest = await client.listWorkRequestLogs({ workRequestId, limit: 2, page: paged.opcNextPage });
    assert.equal(rest.workRequestLogEntryCollection.items.length, 1);
    assert.equal(rest.opcNextPage, undefined);
    const errors = await client.listWorkRequestErrors({ workRequestId });
    assert.deepEqual(errors.workRequestErrorCollection.items, []);

    // Listing: by resource, by status, by compartment; other regions do not see it.
    const byResource = await client.listWorkRequests({ resourceId: groupId });
    assert.deepEqual(
      byResource.workRequestSummaryCollection.items.map((w) => w.id),
      [workRequestId],
    );
    const succeeded = await client.listWorkRequests({ compartmentId, status: models.OperationStatus.Succeeded });
    assert.deepEqual(
      succeeded.workRequestSummaryCollection.items.map((w) => w.id),
      [workRequestId],
    );
    assert.equal(
      (await client.listWorkRequests({ compartmentId, status: models.OperationStatus.Accepted }))
        .workRequestSummaryCollection.items.length,
      0,
    );
    assert.equal(
      (await t.dr(PEER_REGION).listWorkRequests({ resourceId: groupId })).workRequestSummaryCollection.items.length,
      0,
    );
    const elsewhere = await ociError(() => t.dr(PEER_REGION).getWorkRequest({ workRequestId }));
    assert.deepEqual([elsewhere.statusCode, elsewhere.serviceCode], [404, 'NotAuthorizedOrNotFound']);
  });

  it("pages a running work request's logs newest first without repeating one when an entry is logged between pages", async () => {
    const client = t.dr();
    const { opcWorkRequestId: workRequestId } = await client.createDrProtectionGroup({
      createDrProtectionGroupDetails: { compartmentId: await newCompartmentId(), displayName: 'paged', logLocation },
    });
    const words = (items: models.WorkRequestLogEntry[]) => items.map((l) => l.message.split(' ')[0]);
    await t.advance(5);
    const first = await client.listWorkRequestLogs({ workRequestId, limit: 1 });
    await settle(); // the work ends: "Succeeded" is logged before the next page is read
    const messages = words(first.workRequestLogEntryCollection.items);
    for (let page = first.opcNextPage; page;) {
      const next = await client.listWorkRequestLogs({ workRequestId, limit: 1, page });
      messages.push(...words(next.workRequestLogEntryCollection.items));
      page = next.opcNextPage;
    }
    assert.deepEqual(messages, ['Started', 'Accepted']);
    const oldestFirst = await client.listWorkRequestLogs({ workRequestId, sortOrder: models.SortOrder.Asc, limit: 2 });
    assert.deepEqual(words(oldestFirst.workRequestLogEntryCollection.items), ['Accepted', 'Started']);
    const last = await client.listWorkRequestLogs({
      workRequestId,
      sortOrder: models.SortOrder.Asc,
      page: oldestFirst.opcNextPage,
    });
    assert.deepEqual(words(last.workRequestLogEntryCollection.items), ['Succeeded:']);
    assert.equal(last.opcNextPage, undefined);
  });

  it('lists a work request under every resource it touches (associating names both groups)', async () => {
    const pair = await createPair(t, { settle: () => settle() });
    const associations = await pair.home.listWorkRequests({ resourceId: pair.standby.id });
    const items = associations.workRequestSummaryCollection.items;
    assert.ok(items.length >= 1, 'the association of the primary is listed under its peer');
    for (const wr of items) assert.ok(wr.resources.some((r) => r.identifier === pair.standby.id));
    assert.ok(items.every((wr) => wr.resources.some((r) => r.identifier === pair.primary.id)));
  });

  it('pages through work requests newest first, or oldest first on request', async () => {
    const client = t.dr();
    const compartmentId = await newCompartmentId();
    const ids: string[] = [];
    for (const name of ['one', 'two', 'three']) {
      const created = await client.createDrProtectionGroup({
        createDrProtectionGroupDetails: { compartmentId, displayName: name, logLocation },
      });
      ids.push(created.opcWorkRequestId);
      await t.advance(1);
    }
    const first = await client.listWorkRequests({ compartmentId, limit: 2 });
    assert.deepEqual(
      first.workRequestSummaryCollection.items.map((w) => w.id),
      [ids[2], ids[1]],
    );
    assert.ok(first.opcNextPage);
    const second = await client.listWorkRequests({ compartmentId, limit: 2, page: first.opcNextPage });
    assert.deepEqual(
      second.workRequestSummaryCollection.items.map((w) => w.id),
      [ids[0]],
    );
    assert.equal(second.opcNextPage, undefined);
    const oldest = await client.listWorkRequests({
      compartmentId,
      sortOrder: models.SortOrder.Asc,
      sortBy: requests.ListWorkRequestsRequest.SortBy.TimeAccepted,
    });
    assert.deepEqual(
      oldest.workRequestSummaryCollection.items.map((w) => w.id),
      ids,
    );
    await settle();
  });

  it('cancels an ACCEPTED plan creation: the work request ends CANCELED and the plan FAILED; finished work cannot be cancelled', async () => {
    const { pair, created, workRequestId } = await creatingPlan('canceled');
    assert.equal((await pair.peer.getWorkRequest({ workRequestId })).workRequest.status, 'ACCEPTED');

    const stale = await ociError(() => pair.peer.cancelWorkRequest({ workRequestId, ifMatch: 'stale' }));
    assert.deepEqual([stale.statusCode, stale.serviceCode], [412, 'NoEtagMatch']);
    await pair.peer.cancelWorkRequest({ workRequestId });
    const wr = (await pair.peer.getWorkRequest({ workRequestId })).workRequest;
    assert.equal(wr.status, 'CANCELED');
    assert.ok(wr.timeFinished);
    // It never went ACCEPTED → IN_PROGRESS, so it has no start time and no "Started" log.
    assert.equal(wr.timeStarted, undefined);
    assert.deepEqual(await logWords(pair.peer, workRequestId), ['Accepted', 'Canceled:']);

    await settle();
    assert.equal(
      (await pair.peer.getWorkRequest({ workRequestId })).workRequest.status,
      'CANCELED',
      'the scheduled end was dropped',
    );
    const plan = (await pair.peer.getDrPlan({ drPlanId: created.drPlan.id })).drPlan;
    assert.equal(plan.lifecycleState, 'FAILED');
    assert.ok(plan.lifeCycleDetails);

    const again = await ociError(() => pair.peer.cancelWorkRequest({ workRequestId }));
    assert.deepEqual([again.statusCode, again.serviceCode], [409, 'Conflict']);
    const unknown = await ociError(() =>
      pair.peer.cancelWorkRequest({ workRequestId: newOcid('drworkrequest', PEER_REGION) }),
    );
    assert.deepEqual([unknown.statusCode, unknown.serviceCode], [404, 'NotAuthorizedOrNotFound']);
  });

  it('cancelling IN_PROGRESS work keeps its start: timeStarted and the Started log stay', async () => {
    const { pair, workRequestId } = await creatingPlan('started');
    await t.advance(5);
    const started = (await pair.peer.getWorkRequest({ workRequestId })).workRequest;
    assert.equal(started.status, 'IN_PROGRESS');

    await pair.peer.cancelWorkRequest({ workRequestId });
    const wr = (await pair.peer.getWorkRequest({ workRequestId })).workRequest;
    assert.deepEqual([wr.status, json(wr.timeStarted)], ['CANCELED', json(started.timeStarted)]);
    assert.deepEqual(await logWords(pair.peer, workRequestId), ['Accepted', 'Started', 'Canceled:']);
    await settle();
  });

  it('cancelling a protection-group update restores the group and the plans it had moved', async () => {
    const pair = await createPair(t, { settle });
    const plan = await pair.peer.createDrPlan({
      createDrPlanDetails: {
        displayName: 'kept',
        type: models.DrPlanType.Switchover,
        drProtectionGroupId: pair.standby.id,
      },
    });
    await settle();
    const before = (await pair.home.getDrProtectionGroup({ drProtectionGroupId: pair.primary.id })).drProtectionGroup;

    const updated = await pair.home.updateDrProtectionGroup({
      drProtectionGroupId: pair.primary.id,
      updateDrProtectionGroupDetails: { displayName: 'renamed', members: [] },
    });
    const during = (await pair.home.getDrProtectionGroup({ drProtectionGroupId: pair.primary.id })).drProtectionGroup;
    assert.equal(during.lifecycleState, 'UPDATING');
    assert.equal(during.displayName, 'renamed');
    assert.deepEqual(
      (await pair.peer.getDrPlan({ drPlanId: plan.drPlan.id })).drPlan.lifecycleSubState,
      'NEEDS_REFRESH',
    );

    await pair.home.cancelWorkRequest({ workRequestId: updated.opcWorkRequestId });
    const restored = (await pair.home.getDrProtectionGroup({ drProtectionGroupId: pair.primary.id })).drProtectionGroup;
    assert.equal(restored.lifecycleState, 'ACTIVE');
    assert.equal(restored.displayName, before.displayName);
    assert.deepEqual(json(restored.members), json(before.members));
    const planNow = (await pair.peer.getDrPlan({ drPlanId: plan.drPlan.id })).drPlan;
    assert.deepEqual([planNow.lifecycleState, planNow.lifecycleSubState], ['ACTIVE', undefined]);
    await settle();
    assert.equal(
      (await pair.home.getDrProtectionGroup({ drProtectionGroupId: pair.primary.id })).drProtectionGroup.displayName,
      before.displayName,
    );
  });

  it('refuses changes while a plan or its group is busy, with the retryable 409 IncorrectState', async () => {
    const pair = await createPair(t, { settle });
    const created = await pair.peer.createDrPlan({
      createDrPlanDetails: {
        displayName: 'busy',
        type: models.DrPlanType.Switchover,
        drProtectionGroupId: pair.standby.id,
      },
    });
    const planId = created.drPlan.id;
    // While the plan is CREATING, its groups' members cannot change (the plan would miss it).
    const groupBusy = await ociError(() =>
      pair.peer.updateDrProtectionGroup({
        drProtectionGroupId: pair.standby.id,
        updateDrProtectionGroupDetails: { members: [] },
      }),
    );
    assert.deepEqual([groupBusy.statusCode, groupBusy.serviceCode], [409, 'IncorrectState']);
    await settle();

    await pair.peer.updateDrPlan({ drPlanId: planId, updateDrPlanDetails: { displayName: 'renamed' } });
    const updating = (await pair.peer.getDrPlan({ drPlanId: planId })).drPlan;
    assert.deepEqual([updating.lifecycleState, updating.displayName], ['UPDATING', 'renamed']);
    for (const call of [
      () => pair.peer.updateDrPlan({ drPlanId: planId, updateDrPlanDetails: { displayName: 'again' } }),
      () => pair.peer.deleteDrPlan({ drPlanId: planId }),
      () => pair.peer.refreshDrPlan({ drPlanId: planId, refreshDrPlanDetails: { type: 'DEFAULT' } }),
      () => pair.peer.verifyDrPlan({ drPlanId: planId, verifyDrPlanDetails: { type: 'DEFAULT' } }),
      () => pair.peer.deleteDrProtectionGroup({ drProtectionGroupId: pair.standby.id }).then(() => undefined),
    ]) {
      const err = await ociError(call);
      assert.equal(err.statusCode, 409);
    }
    const refreshing = await ociError(() =>
      pair.peer.refreshDrPlan({ drPlanId: planId, refreshDrPlanDetails: { type: 'DEFAULT' } }),
    );
    assert.equal(refreshing.serviceCode, 'IncorrectState');
    await settle();
    assert.equal((await pair.peer.getDrPlan({ drPlanId: planId })).drPlan.lifecycleState, 'ACTIVE');

    // A refresh runs as UPDATING/REFRESHING, then settles to NEEDS_ATTENTION/NEEDS_VERIFICATION.
    const update = await pair.peer.updateDrProtectionGroup({
      drProtectionGroupId: pair.standby.id,
      updateDrProtectionGroupDetails: { members: [] },
    });
    const planBusy = await ociError(() =>
      pair.peer.refreshDrPlan({ drPlanId: planId, refreshDrPlanDetails: { type: 'DEFAULT' } }),
    );
    assert.deepEqual([planBusy.statusCode, planBusy.serviceCode], [409, 'IncorrectState'], 'its group is UPDATING');
    assert.ok(update.opcWorkRequestId);
    await settle();
    await pair.peer.refreshDrPlan({ drPlanId: planId, refreshDrPlanDetails: { type: 'DEFAULT' } });
    const during = (await pair.peer.getDrPlan({ drPlanId: planId })).drPlan;
    assert.deepEqual([during.lifecycleState, during.lifecycleSubState], ['UPDATING', 'REFRESHING']);
    await settle();
    const after = (await pair.peer.getDrPlan({ drPlanId: planId })).drPlan;
    assert.deepEqual([after.lifecycleState, after.lifecycleSubState], ['NEEDS_ATTENTION', 'NEEDS_VERIFICATION']);
    await pair.peer.verifyDrPlan({ drPlanId: planId, verifyDrPlanDetails: { type: 'DEFAULT' } });
    const verifying = (await pair.peer.getDrPlan({ drPlanId: planId })).drPlan;
    assert.deepEqual([verifying.lifecycleState, verifying.lifecycleSubState], ['UPDATING', 'VERIFYING']);
    await settle();
    const verified = (await pair.peer.getDrPlan({ drPlanId: planId })).drPlan;
    assert.deepEqual([verified.lifecycleState, verified.lifecycleSubState], ['ACTIVE', undefined]);
  });
});
