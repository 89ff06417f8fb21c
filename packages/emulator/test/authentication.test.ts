import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { connect } from 'node:net';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import * as common from 'oci-common';
import { DisasterRecoveryClient } from 'oci-disasterrecovery';
import type { NewTenancyIdentity } from '../src';
import { fastRetry, ociError, startTestEmulator, type TestEmulator } from './support/emulator';
import { providerFor, signedFetch, signedHeaders, type SigningIdentity } from './support/signed-fetch';

const otherPrivateKey = (): string =>
  generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

interface ErrorBody {
  code: string;
  message: string;
}

async function expect401(response: Response, check: RegExp): Promise<void> {
  const text = await response.text();
  assert.equal(response.status, 401, text);
  const body = JSON.parse(text) as ErrorBody;
  assert.equal(body.code, 'NotAuthenticated');
  assert.match(body.message, check);
  assert.ok(response.headers.get('opc-request-id'));
}

describe('request signatures (verified by default)', () => {
  let t: TestEmulator;
  let other: NewTenancyIdentity;
  before(async () => {
    t = await startTestEmulator();
    other = await t.emulator.admin.createTenancy('other');
  });
  after(() => t.close());

  const drClient = (identity: SigningIdentity) => {
    const client = new DisasterRecoveryClient(
      { authenticationDetailsProvider: providerFor(identity) },
      {
        retryConfiguration: fastRetry,
        circuitBreaker: new common.CircuitBreaker({ disableClientCircuitBreaker: true } as never),
      },
    );
    client.endpoint = t.url;
    return client;
  };
  const listGroups = async (identity: SigningIdentity) => {
    const client = drClient(identity);
    try {
      return await client.listDrProtectionGroups({ compartmentId: identity.tenancyId });
    } finally {
      client.close();
    }
  };
  const createBody = () =>
    JSON.stringify({
      compartmentId: t.identity.tenancyId,
      displayName: 'signed',
      logLocation: { namespace: 'ns', bucket: 'logs' },
    });

  it('accepts the official SDK with the emulator key, and with a tenancy created through the admin API', async () => {
    const client = t.dr();
    const created = await client.createDrProtectionGroup({
      createDrProtectionGroupDetails: {
        compartmentId: t.identity.tenancyId,
        displayName: 'ok',
        logLocation: { namespace: 'ns', bucket: 'logs' },
      },
    });
    assert.equal(created.drProtectionGroup.displayName, 'ok');
    await client.deleteDrProtectionGroup({ drProtectionGroupId: created.drProtectionGroup.id });
    assert.ok(Array.isArray((await listGroups(other)).drProtectionGroupCollection.items));
  });

  // oci-common signs a query as Node's legacy url.parse writes it and sends it as WHATWG's URL
  // does: for non-ASCII and |^`{}\ they differ, and the official SDK's request must still pass.
  it('accepts the official SDK listing with a filter of non-ASCII and |^`{}\\ characters', async () => {
    const language = t.language();
    for (const displayName of ['projet é', 'a|b^c`d{e}f\\g']) {
      const { project } = await language.createProject({
        createProjectDetails: { compartmentId: t.identity.tenancyId, displayName },
      });
      const listed = await language.listProjects({ compartmentId: t.identity.tenancyId, displayName });
      assert.deepEqual(
        listed.projectCollection.items.map((p) => p.id),
        [project.id],
        displayName,
      );
    }
  });

  it('refuses a signature made with another key (401 NotAuthenticated)', async () => {
    const error = await ociError(() => listGroups({ ...t.identity, privateKeyPem: otherPrivateKey() }));
    assert.equal(error.statusCode, 401);
    assert.equal(error.serviceCode, 'NotAuthenticated');
    assert.match(error.message, /signature does not match/);
  });

  it('refuses an unknown fingerprint', async () => {
    const error = await ociError(() =>
      listGroups({ ...t.identity, fingerprint: '00:11:22:33:44:55:66:77:88:99:aa:bb:cc:dd:ee:ff' }),
    );
    assert.equal(error.statusCode, 401);
    assert.match(error.message, /no API key/);
  });

  it("refuses another tenancy's keyId signed with this key, and this user under another tenancy", async () => {
    const error = await ociError(() => listGroups({ ...other, privateKeyPem: t.identity.privateKeyPem }));
    assert.equal(error.statusCode, 401);
    const mixed = await ociError(() => listGroups({ ...t.identity, tenancyId: other.tenancyId }));
    assert.equal(mixed.statusCode, 401);
    assert.match(mixed.message, /no API key/);
  });

  it('refuses a body changed after signing (x-content-sha256 mismatch)', async () => {
    const body = createBody();
    const tampered = body.replace('signed', 'forged');
    assert.equal(tampered.length, body.length);
    const response = await signedFetch(t.identity, `${t.url}/20220125/drProtectionGroups`, {
      method: 'POST',
      body: tampered,
      signedBody: body,
    });
    await expect401(response, /x-content-sha256 does not match the body/);
  });

  it('refuses a replaced x-content-sha256 header', async () => {
    const url = `${t.url}/20220125/drProtectionGroups`;
    const body = createBody();
    const headers = await signedHeaders(t.identity, url, { method: 'POST', body });
    headers['x-content-sha256'] = '47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=';
    await expect401(await fetch(url, { method: 'POST', headers, body }), /signature does not match/);
  });

  it('refuses a stale or future date (more than 5 minutes off), and accepts one within the window', async () => {
    const url = `${t.url}/20220125/drProtectionGroups?compartmentId=${t.identity.tenancyId}`;
    for (const offsetMinutes of [-6, 6]) {
      const date = new Date(Date.now() + offsetMinutes * 60_000).toUTCString();
      await expect401(await signedFetch(t.identity, url, { headers: { 'x-date': date } }), /more than 5 minutes/);
    }
    const recent = new Date(Date.now() - 2 * 60_000).toUTCString();
    assert.equal((await signedFetch(t.identity, url, { headers: { 'x-date': recent } })).status, 200);
  });

  it('checks the date against the wall clock, not the lifecycle clock moved by the admin API', async () => {
    await t.advance(3600);
    const url = `${t.url}/20220125/drProtectionGroups?compartmentId=${t.identity.tenancyId}`;
    assert.equal((await signedFetch(t.identity, url)).status, 200);
  });

  it('refuses a POST whose signature does not cover the body headers', async () => {
    const url = `${t.url}/20220125/drProtectionGroups`;
    const body = createBody();
    const headers = new Headers({ 'content-type': 'application/json' });
    // The SDK's signer with forceExcludeBody signs only x-date, (request-target) and host.
    await new common.DefaultRequestSigner(providerFor(t.identity)).signHttpRequest(
      { method: 'POST', uri: url, headers, body },
      true,
    );
    const response = await fetch(url, { method: 'POST', headers: Object.fromEntries(headers.entries()), body });
    await expect401(response, /does not cover required header\(s\): x-content-sha256, content-type, content-length/);
  });

  describe('malformed Authorization values are 401 naming the check, never 5xx', () => {
    const url = () => `${t.url}/20220125/drProtectionGroups?compartmentId=x`;
    const withAuthorization = async (value: string | undefined, check: RegExp) => {
      const headers = await signedHeaders(t.identity, url());
      if (value === undefined) delete headers.authorization;
      else headers.authorization = value;
      await expect401(await fetch(url(), { headers }), check);
    };
    const valid = async () => (await signedHeaders(t.identity, url())).authorization;

    it('missing, wrong scheme, garbage', async () => {
      await withAuthorization(undefined, /not signed/);
      await withAuthorization('Basic dXNlcjpwYXNz', /Signature scheme/);
      await withAuthorization('Signature', /Signature scheme/);
      await withAuthorization('Signature ,,,===""', /malformed/);
      await withAuthorization('Signature keyId=unquoted', /malformed/);
      await withAuthorization('Signature keyId="a",keyId="b"', /repeats 'keyId'/);
    });

    it('missing fields, bad keyId, bad base64, unsupported algorithm or version', async () => {
      const signature = await valid();
      await withAuthorization(signature.replace(/keyId="[^"]*",?/, ''), /no 'keyId'/);
      await withAuthorization(signature.replace(/,?signature="[^"]*"/, ''), /no 'signature'/);
      await withAuthorization(signature.replace(/keyId="[^"]*"/, 'keyId="only/two"'), /not of the form/);
      await withAuthorization(signature.replace(/signature="[^"]*"/, 'signature="***not base64***"'), /base64/);
      await withAuthorization(signature.replace(/signature="[^"]*"/, 'signature="abc"'), /base64/);
      await withAuthorization(signature.replace('rsa-sha256', 'hmac-sha256'), /unsupported algorithm/);
      await withAuthorization(signature.replace('version="1"', 'version="2"'), /unsupported signature version/);
    });

    it('a header listed as signed but absent, or too few headers', async () => {
      const signature = await valid();
      await withAuthorization(
        signature.replace(/headers="([^"]*)"/, 'headers="$1 x-absent"'),
        /'x-absent' is listed as signed but absent/,
      );
      await withAuthorization(
        signature.replace(/headers="[^"]*"/, 'headers="x-date"'),
        /does not cover required header\(s\): \(request-target\), host/,
      );
    });

    it('non-ASCII bytes in the header', async () => {
      const port = new URL(t.url).port;
      const answer = await new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), '127.0.0.1', () => {
          socket.write(
            Buffer.concat([
              Buffer.from('GET /20220125/drProtectionGroups?compartmentId=x HTTP/1.1\r\nHost: x\r\n'),
              Buffer.from('Authorization: Signature keyId="\xe9\xff/u/f",signature="YQ=="\r\n', 'latin1'),
              Buffer.from('Connection: close\r\n\r\n'),
            ]),
          );
        });
        let data = '';
        socket.on('data', (chunk) => (data += chunk.toString('latin1')));
        socket.on('end', () => resolve(data));
        socket.on('error', reject);
      });
      assert.match(answer, /^HTTP\/1\.1 401 /);
      assert.match(answer, /non-ASCII/);
    });
  });
});

describe('--auth none', () => {
  it('accepts unsigned requests as the first user', async () => {
    const t = await startTestEmulator({ auth: 'none' });
    try {
      assert.equal(t.emulator.auth, 'none');
      const response = await fetch(`${t.url}/20220125/drProtectionGroups?compartmentId=${t.identity.tenancyId}`);
      assert.equal(response.status, 200, await response.clone().text());
      const client = t.dr();
      const created = await client.createDrProtectionGroup({
        createDrProtectionGroupDetails: {
          compartmentId: t.identity.tenancyId,
          displayName: 'no-auth',
          logLocation: { namespace: 'ns', bucket: 'logs' },
        },
      });
      assert.equal(created.drProtectionGroup.displayName, 'no-auth');
    } finally {
      await t.close();
    }
  });

  it('says so on the second line printed at start; the admin token follows', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(__dirname, '../src/main.ts'), '--in-memory', '--auth', 'none', '--admin-token', 'tok-1'],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      const lines: string[] = [];
      const reader = createInterface({ input: child.stdout! });
      for await (const line of reader) {
        lines.push(line);
        if (lines.length === 3) break;
      }
      assert.match(lines[0], /^ocikit emulator listening on http:\/\//);
      assert.match(lines[1], /authentication: none/);
      assert.match(lines[1], /NOT verified/);
      assert.equal(lines[2], 'admin token: tok-1');
    } finally {
      child.kill('SIGTERM');
    }
  });
});
