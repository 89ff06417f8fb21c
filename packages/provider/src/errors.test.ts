import { test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { NoRetryConfigurationDetails, OciError, Region, SimpleAuthenticationDetailsProvider } from 'oci-common';
import { AIServiceLanguageClient } from 'oci-ailanguage';
import { describeError } from './errors';

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

test('a request that got no answer (connection refused) names where it went, not [object Object]', async () => {
  // oci-common throws a plain object, not an Error, when a request gets no answer. Port 1 is
  // privileged and unused: the connection is refused at once.
  const port = 1;
  const key = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' });
  const auth = new SimpleAuthenticationDetailsProvider(
    'ocid1.tenancy.oc1..aaaa',
    'ocid1.user.oc1..aaaa',
    'aa:bb',
    key.toString(),
    null,
    Region.US_ASHBURN_1,
  );
  const client = new AIServiceLanguageClient({ authenticationDetailsProvider: auth });
  client.endpoint = `http://127.0.0.1:${port}`;
  const thrown = await client
    .getEndpoint({ endpointId: 'ocid1.x', retryConfiguration: NoRetryConfigurationDetails })
    .then(
      () => assert.fail('the call should fail'),
      (e: unknown) => e,
    );
  assert.equal(
    describeError('Endpoint "e"', 'GetEndpoint', thrown),
    `Endpoint "e": GetEndpoint failed: fetch failed (GET http://127.0.0.1:${port}/20221001/endpoints/ocid1.x)`,
  );
});
