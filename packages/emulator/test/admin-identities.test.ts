import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AdminClient, AdminError, startEmulator } from '../src';
import { startTestEmulator, type TestEmulator } from './support/emulator';
import { signedFetch } from './support/signed-fetch';

describe('admin API token', () => {
  let t: TestEmulator;
  before(async () => {
    t = await startTestEmulator({ adminToken: 'secret-token' });
  });
  after(() => t.close());

  it('leaves only GET /_ocikit/health open; a missing or wrong token is 401', async () => {
    assert.equal(t.emulator.adminToken, 'secret-token');
    assert.deepEqual(await new AdminClient(t.url).health(), { status: 'ok' });
    for (const client of [new AdminClient(t.url), new AdminClient(t.url, 'wrong')]) {
      for (const call of [() => client.sandbox(), () => client.reset(), () => client.createTenancy()]) {
        await assert.rejects(call(), (error: AdminError) => error.status === 401);
      }
    }
    assert.deepEqual(await t.emulator.admin.createTenancy().then((x) => typeof x.tenancyId), 'string');
  });

  it('writes the token to <data>/admin-token; a random one when not given', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'ocikit-token-'));
    try {
      const emulator = await startEmulator({ dataDir });
      try {
        assert.ok(emulator.adminToken.length >= 20);
        assert.equal(readFileSync(join(dataDir, 'admin-token'), 'utf8').trim(), emulator.adminToken);
        assert.deepEqual(await new AdminClient(emulator.url, emulator.adminToken).health(), { status: 'ok' });
      } finally {
        await emulator.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('tenancies, users, keys and compartments', () => {
  let t: TestEmulator;
  before(async () => {
    t = await startTestEmulator({ seed: 'sandbox' });
  });
  after(() => t.close());

  const canList = async (identity: { tenancyId: string; userId: string; fingerprint: string; privateKeyPem: string }) =>
    (await signedFetch(identity, `${t.url}/20220125/drProtectionGroups?compartmentId=${identity.tenancyId}`)).status;

  it('creates a tenancy whose user signs at once, in the home region', async () => {
    const tenancy = await t.emulator.admin.createTenancy('team-b');
    assert.deepEqual(Object.keys(tenancy).sort(), ['fingerprint', 'privateKeyPem', 'region', 'tenancyId', 'userId']);
    assert.match(tenancy.tenancyId, /^ocid1\.tenancy\.oc1\.\./);
    assert.match(tenancy.userId, /^ocid1\.user\.oc1\.\./);
    assert.match(tenancy.fingerprint, /^([0-9a-f]{2}:){15}[0-9a-f]{2}$/);
    assert.equal(tenancy.region, t.emulator.region);
    assert.equal(await canList(tenancy), 200);
  });

  it('adds users to any tenancy, the first start one included', async () => {
    const user = await t.emulator.admin.createUser(t.identity.tenancyId);
    assert.deepEqual(Object.keys(user).sort(), ['fingerprint', 'privateKeyPem', 'userId']);
    assert.equal(await canList({ tenancyId: t.identity.tenancyId, ...user }), 200);
    await assert.rejects(t.emulator.admin.createUser('ocid1.tenancy.oc1..nope'), (e: AdminError) => e.status === 404);
    // The first start's user keeps working.
    assert.equal(await canList(t.identity), 200);
  });

  it('adds a given public key or a generated one', async () => {
    const tenancy = await t.emulator.admin.createTenancy();
    const generated = await t.emulator.admin.addApiKey(tenancy.userId);
    assert.ok(generated.privateKeyPem);
    assert.equal(await canList({ ...tenancy, ...generated, privateKeyPem: generated.privateKeyPem! }), 200);

    const pair = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const publicKeyPem = pair.publicKey.export({ type: 'spki', format: 'pem' }).toString();
    const given = await t.emulator.admin.addApiKey(tenancy.userId, publicKeyPem);
    assert.deepEqual(Object.keys(given), ['fingerprint']);
    const privateKeyPem = pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    assert.equal(await canList({ ...tenancy, fingerprint: given.fingerprint, privateKeyPem }), 200);
    await assert.rejects(t.emulator.admin.addApiKey(tenancy.userId, 'not a key'), (e: AdminError) => e.status === 400);
    await assert.rejects(t.emulator.admin.addApiKey('ocid1.user.oc1..nope'), (e: AdminError) => e.status === 404);
  });

  it('creates compartments in a tenancy', async () => {
    const tenancy = await t.emulator.admin.createTenancy();
    const { compartmentId } = await t.emulator.admin.createCompartment(tenancy.tenancyId, 'apps');
    assert.match(compartmentId, /^ocid1\.compartment\.oc1\.\./);
    const response = await signedFetch(tenancy, `${t.url}/20221001/projects`, {
      method: 'POST',
      body: JSON.stringify({ compartmentId, displayName: 'in-b' }),
    });
    assert.equal(response.status, 200, await response.clone().text());
  });
});
