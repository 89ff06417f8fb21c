import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import { OciError } from 'oci-common';
import { createClients } from './clients';
import { describeError, withNetworkReason } from './errors';

test('an OCI error names the resource, operation, status, code, first line of the message and request id', () => {
  const e = new OciError(
    409,
    'Conflict',
    'plan is busy\nmore detail',
    'RID-1',
    'DisasterRecovery',
    'UpdateDrPlan',
    '',
    '',
    '',
  );
  assert.equal(
    describeError('DrPlan "p"', 'UpdateDrPlan', e),
    'DrPlan "p": UpdateDrPlan failed: OCI 409 Conflict: plan is busy (opc-request-id: RID-1)',
  );
});

test('without a service code (a proxy answered) there is no dangling space', () => {
  const e = { statusCode: 502, message: 'Bad Gateway', opcRequestId: 'RID-2' };
  assert.equal(
    describeError('Endpoint "e"', 'GetEndpoint', e),
    'Endpoint "e": GetEndpoint failed: OCI 502: Bad Gateway (opc-request-id: RID-2)',
  );
});

test('a request that got no answer names where it went and why (connection refused), not [object Object]', async () => {
  // oci-common throws a plain object, not an Error, when a request gets no answer, and keeps only
  // the message of fetch's error ("fetch failed"); the plugin's clients put fetch's reason in it.
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise((resolve) => server.close(resolve)); // nothing listens there now
  const key = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' });
  const { language, close } = createClients(
    { endpoint: `http://127.0.0.1:${port}`, disableAutoRetries: true, ignoreDefinedTags: [] },
    {
      tenancy: 'ocid1.tenancy.oc1..aaaa',
      user: 'ocid1.user.oc1..aaaa',
      fingerprint: 'aa:bb',
      privateKey: key.toString(),
      region: 'us-ashburn-1',
    },
  );
  const thrown = await language.getEndpoint({ endpointId: 'ocid1.x' }).then(
    () => assert.fail('the call should fail'),
    (e: unknown) => e,
  );
  close();
  assert.equal(
    describeError('Endpoint "e"', 'GetEndpoint', thrown),
    `Endpoint "e": GetEndpoint failed: fetch failed: connect ECONNREFUSED 127.0.0.1:${port} ` +
      `(GET http://127.0.0.1:${port}/r/us-ashburn-1/20221001/endpoints/ocid1.x)`,
  );
});

test('a reason Node keeps in an AggregateError, or as a code alone, is named too', () => {
  const refused = (port: number) =>
    Object.assign(new Error(`connect ECONNREFUSED ::1:${port}`), { code: 'ECONNREFUSED' });
  const both = new TypeError('fetch failed', {
    cause: Object.assign(new AggregateError([refused(1), new Error('connect ECONNREFUSED 127.0.0.1:1')], ''), {
      code: 'ECONNREFUSED',
    }),
  });
  assert.equal(
    (withNetworkReason(both) as Error).message,
    'fetch failed: connect ECONNREFUSED ::1:1; connect ECONNREFUSED 127.0.0.1:1',
  );
  const coded = new TypeError('fetch failed', { cause: { code: 'UND_ERR_SOCKET' } });
  assert.equal((withNetworkReason(coded) as Error).message, 'fetch failed: UND_ERR_SOCKET');
  assert.equal((withNetworkReason(new Error('plain')) as Error).message, 'plain');
});
