import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { Readable } from 'node:stream';
import * as common from 'oci-common';
import { KeyObjectRequestSigner } from './signer';

// OCI API keys are RSA; the console and `oci setup keys` write PKCS#1 PEM, encrypted or not.
const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const plainPem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
const encryptedPem = privateKey
  .export({ type: 'pkcs1', format: 'pem', cipher: 'aes-128-cbc', passphrase: 'open sesame' })
  .toString();

function auth(pem: string, passphrase: string | null = null): common.SimpleAuthenticationDetailsProvider {
  return new common.SimpleAuthenticationDetailsProvider(
    'ocid1.tenancy.oc1..aaaa',
    'ocid1.user.oc1..bbbb',
    '20:3b:97:13:55:1c:5b:0d:d3:37:d8:50:4e:c5:3a:34',
    pem,
    passphrase,
    common.Region.US_ASHBURN_1,
  );
}

interface Sample {
  method: common.Method;
  uri: string;
  body?: string;
  forceExcludeBody?: boolean;
}

const SAMPLES: Sample[] = [
  {
    method: 'GET',
    uri: 'https://disasterrecovery.us-ashburn-1.oci.oraclecloud.com/20220125/drPlans/ocid1.drplan.oc1..x',
  },
  {
    method: 'GET',
    uri: 'http://127.0.0.1:41234/r/us-ashburn-1/20220125/drPlans?drProtectionGroupId=ocid1.drprotectiongroup.oc1..y&displayName=a%20b&limit=10&page=AAA%3D%3D',
  },
  {
    method: 'POST',
    uri: 'http://127.0.0.1:41234/r/us-ashburn-1/20220125/drPlans',
    body: JSON.stringify({ displayName: 'plan — ünïcode ✓', type: 'SWITCHOVER', freeformTags: { a: 'b' } }),
  },
  {
    method: 'POST',
    uri: 'https://language.us-phoenix-1.oci.oraclecloud.com/20221001/endpoints/ocid1.x/actions/changeCompartment',
    body: '',
  },
  {
    method: 'PUT',
    uri: 'https://disasterrecovery.eu-frankfurt-1.oci.oraclecloud.com/20220125/drPlans/ocid1.p',
    body: '{"displayName":"x"}',
  },
  { method: 'PATCH', uri: 'https://example.com:8443/20220125/x', body: '[]' },
  {
    method: 'DELETE',
    uri: 'https://disasterrecovery.us-ashburn-1.oci.oraclecloud.com/20220125/drPlans/ocid1.drplan.oc1..x',
  },
  {
    method: 'POST',
    uri: 'https://objectstorage.example.com/n/ns/b/bucket/o/name',
    body: 'raw',
    forceExcludeBody: true,
  },
];

async function signBoth(a: common.SimpleAuthenticationDetailsProvider, s: Sample): Promise<[Headers, Headers]> {
  const signed: Headers[] = [];
  for (const signer of [new common.DefaultRequestSigner(a), new KeyObjectRequestSigner(a, common)]) {
    // Both at the same instant: the date headers are part of what is signed.
    const headers = new Headers({ 'x-date': 'Tue, 24 Nov 2026 10:50:34 GMT', date: 'Tue, 24 Nov 2026 10:50:34 GMT' });
    await signer.signHttpRequest({ method: s.method, uri: s.uri, headers, body: s.body }, s.forceExcludeBody);
    signed.push(headers);
  }
  return [signed[0], signed[1]];
}

test('signs every kind of request exactly as the SDK DefaultRequestSigner does, header for header', async () => {
  for (const [name, a] of [
    ['plain key', auth(plainPem)],
    ['passphrase-protected key', auth(encryptedPem, 'open sesame')],
  ] as const) {
    for (const s of SAMPLES) {
      const [official, ours] = await signBoth(a, s);
      assert.deepEqual(Object.fromEntries(ours), Object.fromEntries(official), `${name}: ${s.method} ${s.uri}`);
      assert.match(
        ours.get('authorization')!,
        /^Signature version="1",keyId="ocid1\.tenancy\.oc1\.\.aaaa\/ocid1\.user/,
      );
    }
  }
});

test('fills in the date headers itself when the request has none', async () => {
  const headers = new Headers();
  await new KeyObjectRequestSigner(auth(plainPem), common).signHttpRequest({
    method: 'GET',
    uri: 'https://example.com/20220125/drPlans',
    headers,
  });
  assert.equal(headers.get('host'), 'example.com');
  assert.ok(!Number.isNaN(Date.parse(headers.get('x-date')!)));
  assert.ok(headers.get('date'));
  assert.match(headers.get('authorization')!, /headers="x-date \(request-target\) host"/);
});

test('hands stream bodies to the SDK signer', async () => {
  const headers = new Headers({ 'x-date': 'Tue, 24 Nov 2026 10:50:34 GMT' });
  await new KeyObjectRequestSigner(auth(plainPem), common).signHttpRequest({
    method: 'PUT',
    uri: 'https://example.com/o/name',
    headers,
    body: Readable.from(['streamed']),
  });
  // sha256("streamed") (`printf streamed | openssl dgst -sha256 -binary | base64`): the SDK read the stream.
  assert.equal(headers.get('x-content-sha256'), 'l6eMAIMVVPfMl0Xo9nMu3PtXHPVIqNErSKbj/DHl4+Y=');
  assert.match(
    headers.get('authorization')!,
    /headers="x-date \(request-target\) host Content-Type Content-Length x-content-sha256"/,
  );
});

test('a key that cannot be read fails when the signer is built, with one clear line', () => {
  assert.throws(
    () => new KeyObjectRequestSigner(auth(encryptedPem, 'wrong passphrase'), common),
    /the private key is encrypted and privateKeyPassword does not decrypt it/,
  );
  assert.throws(
    () => new KeyObjectRequestSigner(auth(encryptedPem), common),
    /the private key is encrypted and it needs privateKeyPassword/,
  );
  // Neither node:crypto nor the SDK (sshpk) reads it: the setting named, then the SDK's message.
  assert.throws(
    () => new KeyObjectRequestSigner(auth('not a key'), common),
    /^Error: the private key \(privateKey or privateKeyPath\) is not a private key: Failed to parse/,
  );
});
