import { test } from 'node:test';
import assert from 'node:assert/strict';
import { upToDeploymentV3 } from './migrate-deployment';

const manifest = { time: '2018-03-01T10:00:00Z', magic: 'm', version: 'v0.11.0' };
const stack = 'urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev';
const bucket = 'urn:pulumi:dev::proj::aws:s3/bucket:Bucket::b';

test('a version 1 deployment (apitype.DeploymentV1) is migrated as UpToDeploymentV2 then UpToDeploymentV3 do', () => {
  // Every field ResourceV1 declares but the deprecated defaults.
  const kept = {
    urn: bucket,
    custom: true,
    id: 'b-1',
    type: 'aws:s3/bucket:Bucket',
    parent: stack,
    protect: true,
    inputs: { acl: 'private', tags: { a: '1' } },
    outputs: { arn: 'arn:b' },
    dependencies: [stack],
    initErrors: ['boom'],
  };
  const v1 = {
    manifest,
    resources: [
      { urn: stack, custom: false, type: 'pulumi:pulumi:Stack', dependencies: null, initErrors: null },
      {
        ...kept,
        // ResourceV1's deprecated defaults are dropped; fields V1 does not declare are not read.
        defaults: { region: 'x' },
        external: true,
        provider: 'urn:pulumi:dev::proj::pulumi:providers:aws::default::1',
        created: '2018-03-01T10:00:00Z',
      },
    ],
    // DeploymentV1 has no pending operations.
    pending_operations: [{ type: 'creating', resource: { urn: bucket, custom: true, type: 'aws:s3/bucket:Bucket' } }],
  };
  assert.deepEqual(upToDeploymentV3(v1, 1), {
    manifest,
    resources: [
      { urn: stack, custom: false, type: 'pulumi:pulumi:Stack', inputs: {}, outputs: {} },
      {
        ...kept,
        // Every input depends on all of the resource's dependencies (UpToResourceV3).
        propertyDependencies: { acl: [stack], tags: [stack] },
      },
    ],
  });
});

test('a version 2 deployment keeps external, provider and its pending operations (OperationV1 to OperationV2)', () => {
  const provider = 'urn:pulumi:dev::proj::pulumi:providers:aws::default::1';
  const kept = { urn: bucket, custom: true, id: 'b-1', type: 'aws:s3/bucket:Bucket', inputs: { acl: 'private' } };
  const v2 = {
    manifest,
    // DeploymentV2 declares no secrets providers, ResourceV2 no aliases: neither is read.
    secrets_providers: { type: 'passphrase', state: { salt: 'x' } },
    resources: [{ ...kept, external: true, provider, aliases: ['urn:pulumi:dev::proj::aws:s3/bucket:Bucket::old'] }],
    pending_operations: [{ type: 'creating', resource: { urn: bucket, custom: true, type: 'aws:s3/bucket:Bucket' } }],
  };
  assert.deepEqual(upToDeploymentV3(v2, 2), {
    manifest,
    // No dependencies: Go's nil slice, which it writes `null`.
    resources: [{ ...kept, external: true, provider, propertyDependencies: { acl: null } }],
    pending_operations: [
      {
        type: 'creating',
        resource: { urn: bucket, custom: true, type: 'aws:s3/bucket:Bucket' },
      },
    ],
  });
});

test("a resource without dependencies gets Go's nil (null) per input; a version 2 `[]` stays `[]`", () => {
  const resource = { urn: bucket, custom: true, id: 'b-1', type: 'aws:s3/bucket:Bucket', inputs: { acl: 'private' } };
  const migrated = (deployment: Record<string, unknown>, version: 1 | 2) =>
    (upToDeploymentV3(deployment, version).resources as Array<Record<string, unknown>>)[0].propertyDependencies;
  // UpToResourceV2 appends V1's dependencies to a nil slice: still nil when there are none.
  assert.deepEqual(migrated({ resources: [{ ...resource, dependencies: [] }] }, 1), { acl: null });
  assert.deepEqual(migrated({ resources: [resource] }, 1), { acl: null });
  // Version 2 is decoded straight into ResourceV2: `[]` is an empty, not a nil, slice.
  assert.deepEqual(migrated({ resources: [{ ...resource, dependencies: [] }] }, 2), { acl: [] });
});
