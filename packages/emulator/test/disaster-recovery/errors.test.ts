import { models } from 'oci-disasterrecovery';
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { newOcid } from '../../src/core/ids';
import { BODY_LIMIT_BYTES } from '../../src/server';
import { ociError, startTestEmulator, type TestEmulator } from '../support/emulator';
import { PEER_REGION, createPair, createPlan, logLocation, newCompartmentId, raw, type Pair } from './fixtures';

/** Every error answer is OCI's: a status, `{code, message}` and an opc-request-id; never a 500. */
function assertOciError(
  response: { status: number; body: Record<string, string>; headers: Headers },
  status: number,
  code: string,
): void {
  assert.equal(response.status, status, JSON.stringify(response.body));
  assert.equal(response.body.code, code);
  assert.equal(typeof response.body.message, 'string');
  assert.ok(response.headers.get('opc-request-id'));
}

describe('DR error answers', () => {
  let t: TestEmulator;
  let pair: Pair;
  before(async () => {
    t = await startTestEmulator();
    pair = await createPair(t);
  });
  after(() => t.close());

  const peerPath = (path: string) => `/r/${PEER_REGION}/20220125${path}`;
  const post = (path: string, body: unknown) =>
    raw(t, 'POST', peerPath(path), typeof body === 'string' ? body : JSON.stringify(body));

  it('answers 501 MethodNotImplemented for plan executions and automatic DR configurations', async () => {
    const client = t.dr();
    const list = await ociError(() => client.listDrPlanExecutions({ drProtectionGroupId: pair.standby.id }));
    assert.deepEqual([list.statusCode, list.serviceCode], [501, 'MethodNotImplemented']);
    assert.match(list.message, /ListDrPlanExecutions/);
    const create = await ociError(() =>
      client.createDrPlanExecution({
        createDrPlanExecutionDetails: {
          planId: newOcid('drplan'),
          executionOptions: { planExecutionType: 'SWITCHOVER' } as never,
        },
      }),
    );
    assert.deepEqual([create.statusCode, create.serviceCode], [501, 'MethodNotImplemented']);
    const automatic = await ociError(() =>
      client.listAutomaticDrConfigurations({ drProtectionGroupId: pair.standby.id }),
    );
    assert.deepEqual([automatic.statusCode, automatic.serviceCode], [501, 'MethodNotImplemented']);
  });

  it('answers 429 TooManyRequests from the fault injector; the SDK retries it and gives up after its attempts', async () => {
    const plan = await createPlan(pair);
    await t.admin('POST', '/faults', { operation: 'GetDrPlan', status: 429, code: 'TooManyRequests', count: 5 });
    const throttled = await ociError(() => pair.peer.getDrPlan({ drPlanId: plan.id }));
    assert.deepEqual([throttled.statusCode, throttled.serviceCode], [429, 'TooManyRequests']);
    await t.admin('DELETE', '/faults');

    // Fewer faults than the client's 3 attempts: its retries get through.
    await t.admin('POST', '/faults', { operation: 'GetDrPlan', status: 429, code: 'TooManyRequests', count: 2 });
    assert.equal((await pair.peer.getDrPlan({ drPlanId: plan.id })).drPlan.id, plan.id);
    assert.deepEqual((await t.admin<{ items: unknown[] }>('GET', '/faults')).items, []);
  });

  it('refuses malformed and invalid bodies with 400 and the OCI code, never 500', async () => {
    const base = { displayName: 'p', type: 'SWITCHOVER', drProtectionGroupId: pair.standby.id };
    assertOciError(await post('/drPlans', '{"displayName": "p",'), 400, 'CannotParseRequest');
    assertOciError(await post('/drPlans', '"just a string"'), 400, 'InvalidParameter');
    // `null` is a body that is not an object, not an absent body.
    const nulled = await post('/drPlans', 'null');
    assertOciError(nulled, 400, 'InvalidParameter');
    assert.equal(nulled.body.message, 'The request body must be a JSON object.');
    assertOciError(await post('/drPlans', { ...base, displayName: 42 }), 400, 'InvalidParameter');
    assertOciError(await post('/drPlans', { ...base, type: 'SIDEWAYS' }), 400, 'InvalidParameter');
    assertOciError(await post('/drPlans', { ...base, drProtectionGroupId: 'not-an-ocid' }), 400, 'InvalidParameter');
    assertOciError(await post('/drPlans', { ...base, freeformTags: { a: 1 } }), 400, 'InvalidParameter');
    const missing = await post('/drPlans', { type: 'SWITCHOVER', drProtectionGroupId: pair.standby.id });
    assertOciError(missing, 400, 'MissingParameter');
    assert.match(missing.body.message, /displayName/);
    const unknownGroup = await post('/drPlans', {
      ...base,
      drProtectionGroupId: newOcid('drprotectiongroup', PEER_REGION),
    });
    assertOciError(unknownGroup, 400, 'RelatedResourceNotAuthorizedOrNotFound');

    const group = { compartmentId: await newCompartmentId(), displayName: 'g', logLocation };
    const noMemberId = await post('/drProtectionGroups', { ...group, members: [{ memberType: 'DATABASE' }] });
    assertOciError(noMemberId, 400, 'MissingParameter');
    assert.match(noMemberId.body.message, /members\[0\]\.memberId/);
    const mainframe = { memberId: newOcid('database'), memberType: 'MAINFRAME' };
    assertOciError(await post('/drProtectionGroups', { ...group, members: [mainframe] }), 400, 'InvalidParameter');
    const bucket = await post('/drProtectionGroups', {
      ...group,
      members: [{ memberId: newOcid('bucket'), memberType: 'OBJECT_STORAGE_BUCKET', namespaceName: 'ns' }],
    });
    assertOciError(bucket, 400, 'MissingParameter');
    assert.match(bucket.body.message, /bucketName/);
    const wrongFlag = {
      memberId: newOcid('instance'),
      memberType: 'COMPUTE_INSTANCE_NON_MOVABLE',
      isStartStopEnabled: 'yes',
    };
    assertOciError(await post('/drProtectionGroups', { ...group, members: [wrongFlag] }), 400, 'InvalidParameter');
    assertOciError(
      await post('/drProtectionGroups', { ...group, logLocation: { namespace: 'ns' } }),
      400,
      'MissingParameter',
    );
    assertOciError(
      await post('/drProtectionGroups', { ...group, association: { role: 'BOSS' } }),
      400,
      'InvalidParameter',
    );

    const plan = await createPlan(pair);
    assertOciError(await post(`/drPlans/${plan.id}/actions/refresh`, { type: 'FULL' }), 400, 'InvalidParameter');
    assertOciError(await post(`/drPlans/${plan.id}/actions/verify`, {}), 400, 'MissingParameter');
    const put = (body: unknown) => raw(t, 'PUT', peerPath(`/drPlans/${plan.id}`), JSON.stringify(body));
    assertOciError(await put({ planGroups: 'all of them' }), 400, 'InvalidParameter');
    assertOciError(await put({ planGroups: [{ steps: [{ timeout: 'long' }] }] }), 400, 'InvalidParameter');
    const stepWithoutScript = { type: 'USER_DEFINED', displayName: 'no script', steps: [{ displayName: 's' }] };
    assertOciError(await put({ planGroups: [stepWithoutScript] }), 400, 'MissingParameter');
    assertOciError(await put([1, 2]), 400, 'InvalidParameter');

    const query = (path: string) => raw(t, 'GET', peerPath(path));
    // A group the caller cannot read here is one answer, as its GET: one that does not exist, and
    // the primary group, which lives in the other region.
    for (const groupId of ['ocid1.drprotectiongroup.oc1.phx.amaaaaaanosuchgroup', pair.primary.id])
      assertOciError(await query(`/drPlans?drProtectionGroupId=${groupId}`), 404, 'NotAuthorizedOrNotFound');
    assertOciError(await query(`/drPlans?drProtectionGroupId=${pair.standby.id}&limit=0`), 400, 'InvalidParameter');
    assertOciError(await query(`/drPlans?drProtectionGroupId=${pair.standby.id}&limit=abc`), 400, 'InvalidParameter');
    assertOciError(
      await query(`/drPlans?drProtectionGroupId=${pair.standby.id}&page=garbage`),
      400,
      'InvalidParameter',
    );
    assertOciError(
      await query(`/drPlans?drProtectionGroupId=${pair.standby.id}&lifecycleState=SLEEPING`),
      400,
      'InvalidParameter',
    );
    assertOciError(await query(`/drPlans?drProtectionGroupId=${pair.standby.id}&sortBy=size`), 400, 'InvalidParameter');
    assertOciError(await query('/workRequests?status=DONE'), 400, 'InvalidParameter');
  });

  it('refuses bodies over 5 MiB with 413 before parsing them', async () => {
    const huge = JSON.stringify({
      displayName: 'x'.repeat(BODY_LIMIT_BYTES + 1),
      type: 'SWITCHOVER',
      drProtectionGroupId: pair.standby.id,
    });
    assertOciError(await post('/drPlans', huge), 413, 'PayloadTooLarge');
  });

  it('lets the official SDK see the 413 of a body over 5 MiB (read whole, not reset mid-upload)', async () => {
    const error = await t
      .dr(PEER_REGION)
      .createDrPlan({
        createDrPlanDetails: {
          displayName: 'big',
          type: 'SWITCHOVER' as never,
          drProtectionGroupId: pair.standby.id,
          freeformTags: { big: 'x'.repeat(BODY_LIMIT_BYTES + 1) },
        },
      })
      .then(
        () => undefined,
        (e: unknown) => e as { statusCode?: number; serviceCode?: string },
      );
    assert.equal(error?.statusCode, 413, String(error));
    assert.equal(error?.serviceCode, 'PayloadTooLarge');
  });

  it('answers 404 NotAuthorizedOrNotFound for unknown ids in the path, whatever the operation', async () => {
    const planId = newOcid('drplan', PEER_REGION);
    const groupId = newOcid('drprotectiongroup', PEER_REGION);
    const workRequestId = newOcid('drworkrequest', PEER_REGION);
    const calls: Array<[string, string, unknown?]> = [
      ['GET', `/drPlans/${planId}`],
      ['PUT', `/drPlans/${planId}`, { displayName: 'x' }],
      ['DELETE', `/drPlans/${planId}`],
      ['POST', `/drPlans/${planId}/actions/refresh`, { type: 'DEFAULT' }],
      ['POST', `/drPlans/${planId}/actions/verify`, { type: 'DEFAULT' }],
      ['GET', `/drProtectionGroups/${groupId}`],
      ['PUT', `/drProtectionGroups/${groupId}`, { displayName: 'x' }],
      ['DELETE', `/drProtectionGroups/${groupId}`],
      ['POST', `/drProtectionGroups/${groupId}/actions/associate`, { role: 'PRIMARY', peerId: pair.primary.id }],
      ['POST', `/drProtectionGroups/${groupId}/actions/disassociate`, { type: 'DEFAULT' }],
      ['POST', `/drProtectionGroups/${groupId}/actions/updateRole`, { role: 'PRIMARY' }],
      ['POST', `/drProtectionGroups/${groupId}/actions/changeCompartment`, { compartmentId: await newCompartmentId() }],
      ['GET', `/workRequests/${workRequestId}`],
      ['GET', `/workRequests/${workRequestId}/errors`],
      ['GET', `/workRequests/${workRequestId}/logs`],
      ['DELETE', `/workRequests/${workRequestId}`],
      ['GET', '/drPlans/not-even-an-ocid'],
    ];
    for (const [method, path, body] of calls) {
      const response = await raw(t, method, peerPath(path), body === undefined ? undefined : JSON.stringify(body));
      assertOciError(response, 404, 'NotAuthorizedOrNotFound');
    }
  });

  it('checks if-match on plan delete and actions (412 NoEtagMatch); a matching etag passes', async () => {
    const plan = await createPlan(pair);
    const { etag } = await pair.peer.getDrPlan({ drPlanId: plan.id });
    for (const call of [
      () => pair.peer.deleteDrPlan({ drPlanId: plan.id, ifMatch: 'W/"stale"' }),
      () => pair.peer.refreshDrPlan({ drPlanId: plan.id, ifMatch: 'stale', refreshDrPlanDetails: { type: 'DEFAULT' } }),
      () => pair.peer.verifyDrPlan({ drPlanId: plan.id, ifMatch: 'stale', verifyDrPlanDetails: { type: 'DEFAULT' } }),
      () =>
        pair.peer.updateDrProtectionGroupRole({
          drProtectionGroupId: pair.standby.id,
          ifMatch: 'stale',
          updateDrProtectionGroupRoleDetails: { role: models.DrProtectionGroupRole.Primary },
        }),
    ]) {
      const err = await ociError(call);
      assert.deepEqual([err.statusCode, err.serviceCode], [412, 'NoEtagMatch']);
    }
    await pair.peer.deleteDrPlan({ drPlanId: plan.id, ifMatch: etag });
    assert.equal((await pair.peer.getDrPlan({ drPlanId: plan.id })).drPlan.lifecycleState, 'DELETED');
  });
});
