import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OciError } from 'oci-common';
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
