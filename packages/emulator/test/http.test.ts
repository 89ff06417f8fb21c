import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { requests } from 'oci-disasterrecovery';
import { AdjustableClock } from '../src';
import { newCompartmentId, ociError, startTestEmulator, type TestEmulator } from './support/emulator';
import { signedFetch } from './support/signed-fetch';

describe('HTTP conventions shared by every service', () => {
  let t: TestEmulator;
  before(async () => {
    t = await startTestEmulator();
  });
  after(() => t.close());

  it('refuses unsigned requests with 401 NotAuthenticated and an opc-request-id', async () => {
    const response = await fetch(`${t.url}/20220125/drPlans?drProtectionGroupId=x`);
    assert.equal(response.status, 401);
    assert.ok(response.headers.get('opc-request-id'));
    const body = (await response.json()) as { code: string; message: string };
    assert.equal(body.code, 'NotAuthenticated');
    assert.equal(typeof body.message, 'string');
  });

  it('echoes the client opc-request-id', async () => {
    const response = await fetch(`${t.url}/20220125/nothing`, { headers: { 'opc-request-id': 'my-id-1' } });
    assert.equal(response.headers.get('opc-request-id'), 'my-id-1');
  });

  it('answers unknown routes with 404 NotFound in OCI form', async () => {
    const response = await fetch(`${t.url}/_ocikit/nope`);
    assert.equal(response.status, 404);
    assert.equal(((await response.json()) as { code: string }).code, 'NotFound');
  });

  it('serves health and rejects an unknown seed', async () => {
    assert.deepEqual(await t.admin('GET', '/health'), { status: 'ok' });
    await assert.rejects(t.admin('POST', '/seed', { seed: 'nope' }), /400/);
  });
});

describe('throttling', () => {
  it('answers 429 TooManyRequests with retry-after once a tenancy exceeds --rate-limit', async () => {
    // 2 requests a second: a token comes back every 500 ms, far longer than these requests take.
    const t = await startTestEmulator({ rateLimit: 2 });
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) {
        const response = await signedFetch(
          t.identity,
          `${t.url}/20220125/drProtectionGroups?compartmentId=${t.identity.tenancyId}`,
        );
        statuses.push(response.status);
        if (response.status === 429) {
          assert.equal(response.headers.get('retry-after'), '1');
          assert.equal(((await response.json()) as { code: string }).code, 'TooManyRequests');
        } else await response.arrayBuffer();
      }
      assert.deepEqual(statuses.slice(0, 2), [200, 200]);
      assert.ok(
        statuses.slice(2).every((s) => s === 429),
        `statuses: ${statuses}`,
      );
    } finally {
      await t.close();
    }
  });
});

describe('injected clock', () => {
  it('derives lifecycle states from the clock passed to startEmulator', async () => {
    const clock = new AdjustableClock();
    const t = await startTestEmulator({ clock, transitionDelaySeconds: 30 });
    try {
      const client = t.dr();
      const created = await client.createDrProtectionGroup({
        createDrProtectionGroupDetails: {
          compartmentId: t.identity.tenancyId,
          displayName: 'clocked',
          logLocation: { namespace: 'ns', bucket: 'logs' },
        },
      });
      const read = () => client.getDrProtectionGroup({ drProtectionGroupId: created.drProtectionGroup.id });
      assert.equal((await read()).drProtectionGroup.lifecycleState, 'CREATING');
      clock.advance(30_000);
      assert.equal((await read()).drProtectionGroup.lifecycleState, 'ACTIVE');
    } finally {
      await t.close();
    }
  });
});

describe('the admin clock', () => {
  it('refuses an advance past the latest time a date can hold with 400, and keeps serving', async () => {
    const t = await startTestEmulator();
    try {
      const advance = (body: string) =>
        fetch(`${t.url}/_ocikit/clock`, {
          method: 'POST',
          headers: { authorization: `Bearer ${t.emulator.adminToken}`, 'content-type': 'application/json' },
          body,
        });
      // JSON reads 1e400 as Infinity; 1e300 seconds is finite but no date.
      for (const seconds of ['1e400', '1e300']) {
        const refused = await advance(`{"advanceSeconds":${seconds}}`);
        assert.equal(refused.status, 400, seconds);
        assert.deepEqual(await refused.json(), {
          code: 'InvalidParameter',
          message: "Invalid field 'advanceSeconds': time cannot pass +275760-09-13T00:00:00.000Z.",
        });
      }
      // The clock did not move: a resource is created and read with today's times.
      const { drProtectionGroup } = await t.dr().createDrProtectionGroup({
        createDrProtectionGroupDetails: {
          compartmentId: t.identity.tenancyId,
          displayName: 'after',
          logLocation: { namespace: 'ns', bucket: 'logs' },
        },
      });
      assert.ok(Math.abs(new Date(drProtectionGroup.timeCreated!).getTime() - Date.now()) < 60_000);
      const moved = await advance('{"advanceSeconds":60}');
      assert.equal(moved.status, 200);
    } finally {
      await t.close();
    }
  });
});

describe('retry tokens', () => {
  it('replay for 24 hours and are forgotten after that', async () => {
    const clock = new AdjustableClock();
    const t = await startTestEmulator({ clock });
    try {
      const client = t.dr();
      const create = (displayName: string) =>
        client.createDrProtectionGroup({
          opcRetryToken: 'token-1',
          createDrProtectionGroupDetails: {
            compartmentId: t.identity.tenancyId,
            displayName,
            logLocation: { namespace: 'ns', bucket: 'logs' },
          },
        });
      const first = await create('first');
      assert.equal((await create('first')).drProtectionGroup.id, first.drProtectionGroup.id);
      assert.equal((await ociError(() => create('other'))).serviceCode, 'InvalidatedRetryToken');
      clock.advance(24 * 60 * 60 * 1000 + 1);
      const later = await create('other');
      assert.notEqual(later.drProtectionGroup.id, first.drProtectionGroup.id);
      assert.equal(later.drProtectionGroup.displayName, 'other');
    } finally {
      await t.close();
    }
  });
});

describe('request bodies', () => {
  it('treat an explicit null member like an absent optional field', async () => {
    const t = await startTestEmulator();
    try {
      const response = await signedFetch(t.identity, `${t.url}/20220125/drProtectionGroups`, {
        method: 'POST',
        body: JSON.stringify({
          compartmentId: t.identity.tenancyId,
          displayName: 'with-nulls',
          logLocation: { namespace: 'ns', bucket: 'logs', object: null },
          members: null,
          freeformTags: null,
        }),
      });
      assert.equal(response.status, 200, await response.clone().text());
      const body = (await response.json()) as { displayName: string; members?: unknown[] };
      assert.equal(body.displayName, 'with-nulls');
      // A null required field is still missing.
      const missing = await signedFetch(t.identity, `${t.url}/20220125/drProtectionGroups`, {
        method: 'POST',
        body: JSON.stringify({
          compartmentId: t.identity.tenancyId,
          displayName: null,
          logLocation: { namespace: 'ns', bucket: 'logs' },
        }),
      });
      assert.equal(missing.status, 400);
      assert.equal(((await missing.json()) as { code: string }).code, 'MissingParameter');
    } finally {
      await t.close();
    }
  });

  it('must be JSON: a body of any other content type is 400 CannotParseRequest, after the signature', async () => {
    const t = await startTestEmulator();
    try {
      const url = `${t.url}/20220125/drProtectionGroups`;
      const body = JSON.stringify({
        compartmentId: t.identity.tenancyId,
        displayName: 'typed',
        logLocation: { namespace: 'ns', bucket: 'logs' },
      });
      const post = (contentType: string, signedBody?: string) =>
        signedFetch(t.identity, url, { method: 'POST', headers: { 'content-type': contentType }, body, signedBody });
      for (const contentType of [
        'text/plain',
        'text/plain; charset=utf-8',
        'application/octet-stream',
        'application/x-www-form-urlencoded',
      ]) {
        const response = await post(contentType);
        assert.deepEqual(
          [response.status, await response.json()],
          [
            400,
            { code: 'CannotParseRequest', message: 'The request body must be JSON (Content-Type: application/json).' },
          ],
          `content-type '${contentType}'`,
        );
      }
      // A body that is not the one signed is refused for that first, whatever its type.
      const tampered = await post('text/plain', body.replace('typed', 'tyPed'));
      assert.equal(tampered.status, 401);
      assert.match(((await tampered.json()) as { message: string }).message, /x-content-sha256 does not match/);
      const json = await post('application/json; charset=utf-8');
      assert.equal(json.status, 200, await json.clone().text());
      assert.equal(((await json.json()) as { displayName: string }).displayName, 'typed');
    } finally {
      await t.close();
    }
  });
});

describe('list paging', () => {
  it('neither repeats nor skips items when resources are created between pages', async () => {
    const clock = new AdjustableClock();
    const t = await startTestEmulator({ clock });
    try {
      const client = t.dr();
      const compartmentId = await newCompartmentId();
      const create = async (displayName: string) => {
        clock.advance(1000); // distinct timeCreated values, newest first in the default order
        return (
          await client.createDrProtectionGroup({
            createDrProtectionGroupDetails: {
              compartmentId,
              displayName,
              logLocation: { namespace: 'ns', bucket: 'logs' },
            },
          })
        ).drProtectionGroup.id;
      };
      const original: string[] = [];
      for (let i = 0; i < 7; i++) original.push(await create(i % 2 ? 'same-name' : `pg-${i}`));

      for (const sortBy of [undefined, 'displayName'] as const) {
        const seen: string[] = [];
        let page: string | undefined;
        let round = 0;
        do {
          const response = await client.listDrProtectionGroups({
            compartmentId,
            limit: 3,
            page,
            sortBy: sortBy as requests.ListDrProtectionGroupsRequest.SortBy | undefined,
          });
          seen.push(...response.drProtectionGroupCollection.items.map((g) => g.id));
          page = response.opcNextPage;
          if (round++ === 0) await create(`zz-created-between-pages-${sortBy ?? 'time'}`);
        } while (page);
        assert.equal(new Set(seen).size, seen.length, `no item repeats (${sortBy ?? 'timeCreated'})`);
        for (const id of original) assert.ok(seen.includes(id), `${id} is listed (${sortBy ?? 'timeCreated'})`);
      }
    } finally {
      await t.close();
    }
  });

  it('rejects a page token it did not issue', async () => {
    const t = await startTestEmulator();
    try {
      const error = await ociError(() =>
        t.dr().listDrProtectionGroups({ compartmentId: t.identity.tenancyId, page: 'bogus' }),
      );
      assert.equal(error.statusCode, 400);
      assert.equal(error.serviceCode, 'InvalidParameter');
    } finally {
      await t.close();
    }
  });
});
