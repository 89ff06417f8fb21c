import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { AdminError } from '../src';
import { ociError, startTestEmulator, type TestEmulator } from './support/emulator';
import { signedFetch } from './support/signed-fetch';

describe('injected faults', () => {
  let t: TestEmulator;
  before(async () => {
    t = await startTestEmulator();
  });
  after(() => t.close());

  const groupsNamed = async (displayName: string) =>
    (
      await t.dr().listDrProtectionGroups({ compartmentId: t.identity.tenancyId, displayName })
    ).drProtectionGroupCollection.items.filter((g) => g.lifecycleState !== 'DELETED');
  const createGroup = (displayName: string) =>
    t.dr().createDrProtectionGroup({
      createDrProtectionGroupDetails: {
        compartmentId: t.identity.tenancyId,
        displayName,
        logLocation: { namespace: 'ns', bucket: 'logs' },
      },
    });
  const getGroupStatus = async (id: string) =>
    (await signedFetch(t.identity, `${t.url}/20220125/drProtectionGroups/${id}`)).status;

  it('lists what is armed with the counts left; DELETE clears; the old body is an error fault', async () => {
    await t.emulator.admin.injectFault({ operation: 'GetDrPlan', status: 500, code: 'InternalServerError', count: 3 });
    await t.emulator.admin.injectFault({ kind: 'latency', resourceKind: 'Endpoint', delayMs: 5, probability: 0.5 });
    const items = await t.emulator.admin.listFaults();
    assert.deepEqual(items[0], {
      operation: 'GetDrPlan',
      kind: 'error',
      status: 500,
      code: 'InternalServerError',
      count: 3,
    });
    assert.equal(items[1].kind, 'latency');
    assert.equal(items[1].probability, 0.5);
    await t.emulator.admin.clearFaults();
    assert.deepEqual(await t.emulator.admin.listFaults(), []);
  });

  it('refuses an invalid fault with 400 naming the field', async () => {
    for (const fault of [
      { kind: 'explode' },
      { kind: 'error', code: 'X' },
      { kind: 'latency' },
      { kind: 'latency', delayMs: 1, probability: 2 },
      { kind: 'drop-response', count: 0 },
      { kind: 'drop-response', surprise: true },
    ]) {
      await assert.rejects(
        t.emulator.admin.request('POST', '/faults', fault),
        (error: AdminError) => error.status === 400,
        JSON.stringify(fault),
      );
    }
  });

  it('answers an error fault with retry-after, before the operation runs, for the matching resource kind only', async () => {
    const created = await createGroup('retry-after');
    await t.emulator.admin.injectFault({
      resourceKind: 'DrProtectionGroup',
      status: 429,
      code: 'TooManyRequests',
      retryAfterSeconds: 7,
    });
    assert.equal(
      (await signedFetch(t.identity, `${t.url}/20221001/projects?compartmentId=${t.identity.tenancyId}`)).status,
      200,
    );
    const response = await signedFetch(
      t.identity,
      `${t.url}/20220125/drProtectionGroups/${created.drProtectionGroup.id}`,
    );
    assert.equal(response.status, 429);
    assert.equal(response.headers.get('retry-after'), '7');
    assert.equal(((await response.json()) as { code: string }).code, 'TooManyRequests');
    assert.equal(await getGroupStatus(created.drProtectionGroup.id), 200);
  });

  it('delays a call with a latency fault and then runs it', async () => {
    const created = await createGroup('slow');
    await t.emulator.admin.injectFault({
      kind: 'latency',
      operation: 'GetDrProtectionGroup',
      minDelayMs: 20,
      maxDelayMs: 40,
    });
    assert.equal(await getGroupStatus(created.drProtectionGroup.id), 200);
    assert.deepEqual(await t.emulator.admin.listFaults(), []);
  });

  it('fires a probability fault on the same calls in every run with the same seed', async () => {
    const created = await createGroup('seeded');
    const run = async () => {
      await t.emulator.admin.clearFaults();
      await t.emulator.admin.injectFault({
        operation: 'GetDrProtectionGroup',
        status: 503,
        code: 'ServiceUnavailable',
        probability: 0.5,
        seed: 42,
      });
      const statuses: number[] = [];
      for (let i = 0; i < 24; i++) statuses.push(await getGroupStatus(created.drProtectionGroup.id));
      return statuses;
    };
    const first = await run();
    assert.deepEqual(await run(), first);
    assert.ok(first.includes(503) && first.includes(200), `statuses: ${first}`);
    await t.emulator.admin.clearFaults();
  });

  describe('the official SDK retries with opc-retry-token and ends with exactly one resource per create', () => {
    for (const [label, fault] of [
      ['429 TooManyRequests', { status: 429, code: 'TooManyRequests', retryAfterSeconds: 0, count: 2 }],
      ['503 ServiceUnavailable', { status: 503, code: 'ServiceUnavailable', count: 2 }],
      ['a response dropped after the create committed', { kind: 'drop-response' as const, count: 2 }],
    ] as const) {
      it(label, async () => {
        const name = `once-${label.split(' ')[0]}`;
        await t.emulator.admin.injectFault({ operation: 'CreateDrProtectionGroup', ...fault });
        const created = await createGroup(name);
        assert.deepEqual(await t.emulator.admin.listFaults(), []);
        const groups = await groupsNamed(name);
        assert.deepEqual(
          groups.map((g) => g.id),
          [created.drProtectionGroup.id],
        );

        await t.emulator.admin.injectFault({ operation: 'CreateProject', ...fault });
        const project = await t.language().createProject({
          createProjectDetails: { compartmentId: t.identity.tenancyId, displayName: name },
        });
        const projects = (await t.language().listProjects({ compartmentId: t.identity.tenancyId, displayName: name }))
          .projectCollection.items;
        assert.deepEqual(
          projects.map((p) => p.id),
          [project.project.id],
        );
      });
    }

    it('gives up after its attempts when every response is dropped, with the create still done once', async () => {
      await t.emulator.admin.injectFault({ operation: 'CreateDrProtectionGroup', kind: 'drop-response', count: 3 });
      await assert.rejects(createGroup('dropped-thrice'));
      assert.equal((await groupsNamed('dropped-thrice')).length, 1);
      const error = await ociError(async () => {
        await t.emulator.admin.injectFault({
          operation: 'GetDrProtectionGroup',
          status: 404,
          code: 'NotAuthorizedOrNotFound',
        });
        await t.dr().getDrProtectionGroup({ drProtectionGroupId: 'ocid1.drprotectiongroup.oc1.iad.x' });
      });
      assert.equal(error.statusCode, 404);
    });
  });
});
