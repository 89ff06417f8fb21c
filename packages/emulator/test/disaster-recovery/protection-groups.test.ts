import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { models, requests, type DisasterRecoveryClient } from 'oci-disasterrecovery';
import { newOcid } from '../../src/core/ids';
import { ociError, startTestEmulator, type TestEmulator } from '../support/emulator';
import {
  PEER_REGION,
  createPair,
  createPlan,
  finished,
  logLocation,
  newCompartmentId,
  primaryMembers,
  raw,
} from './fixtures';

const member = (fields: Record<string, unknown>) => fields as unknown as models.CreateDrProtectionGroupMemberDetails;

async function createGroup(
  client: DisasterRecoveryClient,
  compartmentId: string,
  displayName: string,
  extra: Partial<models.CreateDrProtectionGroupDetails> = {},
): Promise<models.DrProtectionGroup> {
  const created = await client.createDrProtectionGroup({
    createDrProtectionGroupDetails: { compartmentId, displayName, logLocation, ...extra },
  });
  await finished(client, created.opcWorkRequestId);
  return (await client.getDrProtectionGroup({ drProtectionGroupId: created.drProtectionGroup.id })).drProtectionGroup;
}

describe('DR protection groups', () => {
  let t: TestEmulator;
  before(async () => {
    t = await startTestEmulator();
  });
  after(() => t.close());

  it('creates a group: 200 with the CREATING group, etag, location and a work request; ACTIVE and UNCONFIGURED after', async () => {
    const client = t.dr();
    const compartmentId = await newCompartmentId();
    const instanceId = newOcid('instance', 'us-ashburn-1');
    const created = await client.createDrProtectionGroup({
      createDrProtectionGroupDetails: {
        compartmentId,
        displayName: 'app-primary',
        logLocation,
        freeformTags: { team: 'dr' },
        members: [
          member({ memberId: instanceId, memberType: 'COMPUTE_INSTANCE_NON_MOVABLE', isStartStopEnabled: true }),
          // A field of another member type is not part of a DATABASE member and is dropped.
          member({ memberId: newOcid('database', 'us-ashburn-1'), memberType: 'DATABASE', isStartStopEnabled: true }),
          member({
            memberId: newOcid('bucket', 'us-ashburn-1'),
            memberType: 'OBJECT_STORAGE_BUCKET',
            namespaceName: 'ns',
            bucketName: 'b',
          }),
        ],
      },
    });
    const group = created.drProtectionGroup;
    assert.match(group.id, /^ocid1\.drprotectiongroup\.oc1\.iad\./);
    assert.equal(group.lifecycleState, 'CREATING');
    assert.ok(created.etag);
    assert.equal(created.location, `/20220125/drProtectionGroups/${group.id}`);
    assert.ok(created.opcRequestId);

    const wr = await finished(client, created.opcWorkRequestId);
    assert.equal(wr.status, 'SUCCEEDED');
    assert.equal(wr.operationType, 'CREATE_DR_PROTECTION_GROUP');
    assert.deepEqual(
      wr.resources.map((r) => [r.entityType, r.actionType, r.identifier]),
      [['DrProtectionGroup', 'CREATED', group.id]],
    );

    const got = await client.getDrProtectionGroup({ drProtectionGroupId: group.id });
    assert.ok(got.etag);
    const body = got.drProtectionGroup;
    assert.equal(body.lifecycleState, 'ACTIVE');
    assert.equal(body.role, 'UNCONFIGURED');
    assert.equal(body.compartmentId, compartmentId);
    assert.deepEqual(body.logLocation, logLocation);
    assert.deepEqual(body.freeformTags, { team: 'dr' });
    assert.ok(!('peerId' in body) && !('peerRegion' in body), 'an unassociated group has no peer fields');
    // (JSON round trip: the SDK's models carry undefined keys for absent fields.)
    assert.deepEqual(JSON.parse(JSON.stringify(body.members)), [
      { memberId: instanceId, memberType: 'COMPUTE_INSTANCE_NON_MOVABLE', isStartStopEnabled: true },
      { memberId: body.members![1].memberId, memberType: 'DATABASE' },
      {
        memberId: body.members![2].memberId,
        memberType: 'OBJECT_STORAGE_BUCKET',
        namespaceName: 'ns',
        bucketName: 'b',
      },
    ]);
  });

  it('associates groups across regions at creation: the peer takes the other role and both name each other', async () => {
    const pair = await createPair(t);
    assert.equal(pair.primary.role, 'PRIMARY');
    assert.equal(pair.primary.peerId, pair.standby.id);
    assert.equal(pair.primary.peerRegion, PEER_REGION);
    assert.equal(pair.standby.role, 'STANDBY');
    assert.equal(pair.standby.peerId, pair.primary.id);
    assert.equal(pair.standby.peerRegion, 'us-ashburn-1');
    assert.match(pair.standby.id, /^ocid1\.drprotectiongroup\.oc1\.phx\./);
    // A group belongs to its region: the home-region endpoint does not see the standby.
    const err = await ociError(() => pair.home.getDrProtectionGroup({ drProtectionGroupId: pair.standby.id }));
    assert.equal(err.statusCode, 404);
    assert.equal(err.serviceCode, 'NotAuthorizedOrNotFound');
  });

  it('associates, changes roles and disassociates existing groups', async () => {
    const home = t.dr();
    const peer = t.dr(PEER_REGION);
    const compartmentId = await newCompartmentId();
    const a = await createGroup(home, compartmentId, 'a');
    const b = await createGroup(peer, compartmentId, 'b');

    const associated = await home.associateDrProtectionGroup({
      drProtectionGroupId: a.id,
      associateDrProtectionGroupDetails: {
        role: models.DrProtectionGroupRole.Standby,
        peerId: b.id,
        peerRegion: PEER_REGION,
      },
    });
    const wr = await finished(home, associated.opcWorkRequestId);
    assert.equal(wr.operationType, 'ASSOCIATE_DR_PROTECTION_GROUP');
    assert.deepEqual(new Set(wr.resources.map((r) => r.identifier)), new Set([a.id, b.id]));
    let aNow = (await home.getDrProtectionGroup({ drProtectionGroupId: a.id })).drProtectionGroup;
    let bNow = (await peer.getDrProtectionGroup({ drProtectionGroupId: b.id })).drProtectionGroup;
    assert.deepEqual(
      [aNow.role, aNow.peerId, aNow.peerRegion, aNow.lifecycleState],
      ['STANDBY', b.id, PEER_REGION, 'ACTIVE'],
    );
    assert.deepEqual(
      [bNow.role, bNow.peerId, bNow.peerRegion, bNow.lifecycleState],
      ['PRIMARY', a.id, 'us-ashburn-1', 'ACTIVE'],
    );

    const flipped = await peer.updateDrProtectionGroupRole({
      drProtectionGroupId: b.id,
      updateDrProtectionGroupRoleDetails: { role: models.DrProtectionGroupRole.Standby },
    });
    assert.equal((await finished(peer, flipped.opcWorkRequestId)).operationType, 'UPDATE_ROLE_DR_PROTECTION_GROUP');
    aNow = (await home.getDrProtectionGroup({ drProtectionGroupId: a.id })).drProtectionGroup;
    bNow = (await peer.getDrProtectionGroup({ drProtectionGroupId: b.id })).drProtectionGroup;
    assert.deepEqual([aNow.role, bNow.role], ['PRIMARY', 'STANDBY']);

    const roleErr = await ociError(() =>
      peer.updateDrProtectionGroupRole({
        drProtectionGroupId: b.id,
        updateDrProtectionGroupRoleDetails: { role: models.DrProtectionGroupRole.Unconfigured },
      }),
    );
    assert.deepEqual([roleErr.statusCode, roleErr.serviceCode], [400, 'InvalidParameter']);

    const dis = await home.disassociateDrProtectionGroup({
      drProtectionGroupId: a.id,
      disassociateDrProtectionGroupDetails: { type: 'DEFAULT' },
    });
    assert.equal((await finished(home, dis.opcWorkRequestId)).operationType, 'DISASSOCIATE_DR_PROTECTION_GROUP');
    aNow = (await home.getDrProtectionGroup({ drProtectionGroupId: a.id })).drProtectionGroup;
    bNow = (await peer.getDrProtectionGroup({ drProtectionGroupId: b.id })).drProtectionGroup;
    for (const g of [aNow, bNow]) {
      assert.equal(g.role, 'UNCONFIGURED');
      assert.equal(g.peerId, undefined);
      assert.equal(g.peerRegion, undefined);
    }
    const again = await ociError(() =>
      home.disassociateDrProtectionGroup({
        drProtectionGroupId: a.id,
        disassociateDrProtectionGroupDetails: { type: 'DEFAULT' },
      }),
    );
    assert.deepEqual([again.statusCode, again.serviceCode], [409, 'Conflict']);
    const notAssociated = await ociError(() =>
      home.updateDrProtectionGroupRole({
        drProtectionGroupId: a.id,
        updateDrProtectionGroupRoleDetails: { role: models.DrProtectionGroupRole.Primary },
      }),
    );
    assert.deepEqual([notAssociated.statusCode, notAssociated.serviceCode], [409, 'Conflict']);
  });

  it('refuses associations that cannot work', async () => {
    const home = t.dr();
    const peer = t.dr(PEER_REGION);
    const compartmentId = await newCompartmentId();
    const a = await createGroup(home, compartmentId, 'a');
    const b = await createGroup(peer, compartmentId, 'b');
    const associate = (details: Record<string, unknown>) =>
      ociError(() =>
        home.associateDrProtectionGroup({
          drProtectionGroupId: a.id,
          associateDrProtectionGroupDetails: details as never,
        }),
      );

    const wrongRegion = await associate({ role: 'PRIMARY', peerId: b.id, peerRegion: 'us-ashburn-1' });
    assert.deepEqual([wrongRegion.statusCode, wrongRegion.serviceCode], [400, 'InvalidParameter']);
    assert.match(wrongRegion.message, /us-phoenix-1/);
    const unknownPeer = await associate({
      role: 'PRIMARY',
      peerId: newOcid('drprotectiongroup', PEER_REGION),
      peerRegion: PEER_REGION,
    });
    assert.deepEqual(
      [unknownPeer.statusCode, unknownPeer.serviceCode],
      [400, 'RelatedResourceNotAuthorizedOrNotFound'],
    );
    const unconfigured = await associate({ role: 'UNCONFIGURED', peerId: b.id, peerRegion: PEER_REGION });
    assert.deepEqual([unconfigured.statusCode, unconfigured.serviceCode], [400, 'InvalidParameter']);
    const self = await associate({ role: 'PRIMARY', peerId: a.id, peerRegion: 'us-ashburn-1' });
    assert.deepEqual([self.statusCode, self.serviceCode], [400, 'InvalidParameter']);
    const noPeer = await associate({ role: 'PRIMARY' });
    assert.deepEqual([noPeer.statusCode, noPeer.serviceCode], [400, 'MissingParameter']);

    // A group already in a pair cannot join another one (lasting: 409 Conflict, not retried).
    const pair = await createPair(t, { compartmentId });
    const taken = await associate({ role: 'PRIMARY', peerId: pair.standby.id, peerRegion: PEER_REGION });
    assert.deepEqual([taken.statusCode, taken.serviceCode], [409, 'Conflict']);
    const createWithTaken = await ociError(() =>
      home.createDrProtectionGroup({
        createDrProtectionGroupDetails: {
          compartmentId,
          displayName: 'third',
          logLocation,
          association: { role: models.DrProtectionGroupRole.Primary, peerId: pair.standby.id, peerRegion: PEER_REGION },
        },
      }),
    );
    assert.deepEqual([createWithTaken.statusCode, createWithTaken.serviceCode], [409, 'Conflict']);
  });

  it('updates with members as a full replacement list, plus display name, log location and tags', async () => {
    const client = t.dr();
    const initial = primaryMembers();
    const group = await createGroup(client, await newCompartmentId(), 'before', { members: initial });
    const added = member({
      memberId: newOcid('filesystem', 'us-ashburn-1'),
      memberType: 'FILE_SYSTEM',
      destinationAvailabilityDomain: 'AD-1',
    });
    const updated = await client.updateDrProtectionGroup({
      drProtectionGroupId: group.id,
      updateDrProtectionGroupDetails: {
        displayName: 'after',
        logLocation: { namespace: 'ns2', bucket: 'logs2' },
        members: [initial[1], added],
        freeformTags: { stage: 'prod' },
      },
    });
    assert.ok(updated.opcWorkRequestId);
    const wr = await finished(client, updated.opcWorkRequestId);
    assert.equal(wr.operationType, 'UPDATE_DR_PROTECTION_GROUP');
    assert.deepEqual(
      wr.resources.map((r) => r.actionType),
      ['UPDATED'],
    );
    const got = (await client.getDrProtectionGroup({ drProtectionGroupId: group.id })).drProtectionGroup;
    assert.equal(got.displayName, 'after');
    assert.deepEqual(got.logLocation, { namespace: 'ns2', bucket: 'logs2' });
    assert.deepEqual(got.freeformTags, { stage: 'prod' });
    assert.deepEqual(
      got.members!.map((m) => m.memberId),
      [initial[1].memberId, added.memberId],
    );
    assert.equal((got.members![1] as unknown as Record<string, unknown>).destinationAvailabilityDomain, 'AD-1');

    // Omitting members keeps them; an empty list removes them all.
    const update = (details: models.UpdateDrProtectionGroupDetails) =>
      client.updateDrProtectionGroup({ drProtectionGroupId: group.id, updateDrProtectionGroupDetails: details });
    await finished(client, (await update({ displayName: 'x' })).opcWorkRequestId);
    assert.equal(
      (await client.getDrProtectionGroup({ drProtectionGroupId: group.id })).drProtectionGroup.members!.length,
      2,
    );
    await finished(client, (await update({ members: [] })).opcWorkRequestId);
    assert.deepEqual(
      (await client.getDrProtectionGroup({ drProtectionGroupId: group.id })).drProtectionGroup.members,
      [],
    );

    const duplicate = await ociError(() =>
      client.updateDrProtectionGroup({
        drProtectionGroupId: group.id,
        updateDrProtectionGroupDetails: { members: [initial[0], initial[0]] },
      }),
    );
    assert.deepEqual([duplicate.statusCode, duplicate.serviceCode], [400, 'InvalidParameter']);
  });

  it('moves a group, and its plans, to another compartment', async () => {
    const pair = await createPair(t);
    const plan = await createPlan(pair);
    const target = await newCompartmentId();
    const moved = await pair.peer.changeDrProtectionGroupCompartment({
      drProtectionGroupId: pair.standby.id,
      changeDrProtectionGroupCompartmentDetails: { compartmentId: target },
    });
    assert.equal((await finished(pair.peer, moved.opcWorkRequestId)).operationType, 'MOVE_DR_PROTECTION_GROUP');
    assert.equal(
      (await pair.peer.getDrProtectionGroup({ drProtectionGroupId: pair.standby.id })).drProtectionGroup.compartmentId,
      target,
    );
    assert.equal((await pair.peer.getDrPlan({ drPlanId: plan.id })).drPlan.compartmentId, target);
    const listed = await pair.peer.listDrProtectionGroups({ compartmentId: target });
    assert.deepEqual(
      listed.drProtectionGroupCollection.items.map((g) => g.id),
      [pair.standby.id],
    );
  });

  it('lists the groups of a compartment with filters, both sort orders and pages', async () => {
    const client = t.dr();
    const compartmentId = await newCompartmentId();
    const names = ['delta', 'alpha', 'echo', 'charlie', 'bravo'];
    const ids: string[] = [];
    for (const name of names) ids.push((await createGroup(client, compartmentId, name)).id);

    const seen: string[] = [];
    let pageToken: string | undefined;
    let pages = 0;
    do {
      const page = await client.listDrProtectionGroups({ compartmentId, limit: 2, page: pageToken });
      pages += 1;
      assert.ok(page.drProtectionGroupCollection.items.length <= 2);
      seen.push(...page.drProtectionGroupCollection.items.map((g) => g.id));
      pageToken = page.opcNextPage;
    } while (pageToken);
    assert.equal(pages, 3);
    assert.deepEqual(new Set(seen), new Set(ids));
    assert.equal(seen.length, 5);

    const byName = await client.listDrProtectionGroups({
      compartmentId,
      sortBy: requests.ListDrProtectionGroupsRequest.SortBy.DisplayName,
    });
    assert.deepEqual(
      byName.drProtectionGroupCollection.items.map((g) => g.displayName),
      ['alpha', 'bravo', 'charlie', 'delta', 'echo'],
    );
    const byNameDesc = await client.listDrProtectionGroups({
      compartmentId,
      sortBy: requests.ListDrProtectionGroupsRequest.SortBy.DisplayName,
      sortOrder: models.SortOrder.Desc,
    });
    assert.deepEqual(
      byNameDesc.drProtectionGroupCollection.items.map((g) => g.displayName),
      ['echo', 'delta', 'charlie', 'bravo', 'alpha'],
    );
    const newestFirst = await client.listDrProtectionGroups({ compartmentId });
    const times = newestFirst.drProtectionGroupCollection.items.map((g) => String(g.timeCreated));
    assert.deepEqual(times, [...times].sort().reverse());

    const summary = newestFirst.drProtectionGroupCollection.items[0] as Record<string, unknown>;
    assert.ok(!('members' in summary) && !('logLocation' in summary), 'list items are DrProtectionGroupSummary');

    const one = await client.listDrProtectionGroups({ compartmentId, displayName: 'charlie' });
    assert.deepEqual(
      one.drProtectionGroupCollection.items.map((g) => g.id),
      [ids[3]],
    );
    const byId = await client.listDrProtectionGroups({ compartmentId, drProtectionGroupId: ids[0] });
    assert.deepEqual(
      byId.drProtectionGroupCollection.items.map((g) => g.id),
      [ids[0]],
    );
    const active = await client.listDrProtectionGroups({
      compartmentId,
      lifecycleState: models.DrProtectionGroupLifecycleState.Active,
      role: models.DrProtectionGroupRole.Unconfigured,
    });
    assert.equal(active.drProtectionGroupCollection.items.length, 5);
    const primaries = await client.listDrProtectionGroups({
      compartmentId,
      role: models.DrProtectionGroupRole.Primary,
    });
    assert.equal(primaries.drProtectionGroupCollection.items.length, 0);

    const missing = await raw(t, 'GET', '/20220125/drProtectionGroups');
    assert.equal(missing.status, 400);
    assert.equal(missing.body.code, 'MissingParameter');
    assert.match(missing.body.message, /compartmentId/);
  });

  it('deletes a group with a work request; refuses while it still has DR plans', async () => {
    const pair = await createPair(t);
    const plan = await createPlan(pair);
    const blocked = await ociError(() => pair.peer.deleteDrProtectionGroup({ drProtectionGroupId: pair.standby.id }));
    assert.deepEqual([blocked.statusCode, blocked.serviceCode], [409, 'Conflict']);
    assert.match(blocked.message, new RegExp(plan.id.replace(/\./g, '\\.')));

    await pair.peer.deleteDrPlan({ drPlanId: plan.id });
    const deleted = await pair.peer.deleteDrProtectionGroup({ drProtectionGroupId: pair.standby.id });
    const wr = await finished(pair.peer, deleted.opcWorkRequestId);
    assert.equal(wr.operationType, 'DELETE_DR_PROTECTION_GROUP');
    assert.deepEqual(
      wr.resources.map((r) => [r.identifier, r.actionType]),
      [
        [pair.standby.id, 'DELETED'],
        [pair.primary.id, 'UPDATED'],
      ],
    );
    assert.equal(
      (await pair.peer.getDrProtectionGroup({ drProtectionGroupId: pair.standby.id })).drProtectionGroup.lifecycleState,
      'DELETED',
    );
    // The peer is left unassociated.
    const primary = (await pair.home.getDrProtectionGroup({ drProtectionGroupId: pair.primary.id })).drProtectionGroup;
    assert.equal(primary.role, 'UNCONFIGURED');
    assert.equal(primary.peerId, undefined);

    // Deleting a DELETED group again is an idempotent no-op (the one lifecycle rule): 202, no new work request.
    const again = await pair.peer.deleteDrProtectionGroup({ drProtectionGroupId: pair.standby.id });
    assert.equal(again.opcWorkRequestId, undefined);
    const stillDeleted = await pair.peer.getDrProtectionGroup({ drProtectionGroupId: pair.standby.id });
    assert.equal(stillDeleted.drProtectionGroup.lifecycleState, 'DELETED');
    const update = await ociError(() =>
      pair.peer.updateDrProtectionGroup({
        drProtectionGroupId: pair.standby.id,
        updateDrProtectionGroupDetails: { displayName: 'late' },
      }),
    );
    assert.deepEqual([update.statusCode, update.serviceCode], [409, 'Conflict']);
  });

  it('checks if-match against the current etag (412 NoEtagMatch) and answers 404 for unknown ids', async () => {
    const client = t.dr();
    const group = await createGroup(client, await newCompartmentId(), 'etag');
    const { etag } = await client.getDrProtectionGroup({ drProtectionGroupId: group.id });
    const stale = await ociError(() =>
      client.updateDrProtectionGroup({
        drProtectionGroupId: group.id,
        ifMatch: 'not-the-etag',
        updateDrProtectionGroupDetails: { displayName: 'x' },
      }),
    );
    assert.deepEqual([stale.statusCode, stale.serviceCode], [412, 'NoEtagMatch']);
    const ok = await client.updateDrProtectionGroup({
      drProtectionGroupId: group.id,
      ifMatch: etag,
      updateDrProtectionGroupDetails: { displayName: 'y' },
    });
    await finished(client, ok.opcWorkRequestId);
    // The update changed the group, so the old etag no longer matches.
    const after = await ociError(() =>
      client.deleteDrProtectionGroup({ drProtectionGroupId: group.id, ifMatch: etag }),
    );
    assert.equal(after.statusCode, 412);

    const unknown = newOcid('drprotectiongroup', 'us-ashburn-1');
    for (const call of [
      () => client.getDrProtectionGroup({ drProtectionGroupId: unknown }),
      () => client.updateDrProtectionGroup({ drProtectionGroupId: unknown, updateDrProtectionGroupDetails: {} }),
      () => client.deleteDrProtectionGroup({ drProtectionGroupId: unknown }),
      async () =>
        client.changeDrProtectionGroupCompartment({
          drProtectionGroupId: unknown,
          changeDrProtectionGroupCompartmentDetails: { compartmentId: await newCompartmentId() },
        }),
    ]) {
      const err = await ociError(call);
      assert.deepEqual([err.statusCode, err.serviceCode], [404, 'NotAuthorizedOrNotFound']);
    }
  });
});
