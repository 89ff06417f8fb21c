import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startTestEmulator, type TestEmulator } from './support/emulator';

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
