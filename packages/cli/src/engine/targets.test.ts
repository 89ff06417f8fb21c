import { test } from 'node:test';
import assert from 'node:assert/strict';
import { separateProtected } from './targets';
import type { ResourceState } from './state';

const urn = (name: string, type = 'oci:AiLanguage/endpoint:Endpoint') => `urn:pulumi:dev::p::${type}::${name}`;
const STACK = urn('p-dev', 'pulumi:pulumi:Stack');
const PROVIDER = urn('default', 'pulumi:providers:oci');
const resource = (name: string, extra: Partial<ResourceState> = {}): ResourceState => ({
  urn: urn(name),
  custom: true,
  type: 'oci:AiLanguage/endpoint:Endpoint',
  inputs: {},
  outputs: {},
  parent: STACK,
  provider: `${PROVIDER}::id`,
  ...extra,
});

test('destroy --exclude-protected keeps the protected resources, what they depend on, and what --exclude keeps', () => {
  const resources: ResourceState[] = [
    { urn: STACK, custom: false, type: 'pulumi:pulumi:Stack', inputs: {}, outputs: {} },
    { urn: PROVIDER, custom: true, type: 'pulumi:providers:oci', inputs: {}, outputs: {}, parent: STACK },
    resource('base'),
    resource('kept', { protect: true, dependencies: [urn('base')] }),
    resource('a'),
    resource('b', { dependencies: [urn('kept')] }),
  ];
  // separateProtected (destroy.go): a protected resource keeps what it depends on, not its dependents.
  assert.deepEqual(separateProtected(resources), { unprotected: [urn('a'), urn('b')], protectedCount: 4 });
  // --exclude still holds beside it (the targets would otherwise override it).
  assert.deepEqual(separateProtected(resources, { patterns: [urn('a')] }).unprotected, [urn('b')]);
  // Nothing protected: everything is a target.
  const none = resources.map((r) => ({ ...r, protect: false }));
  assert.deepEqual(separateProtected(none), { unprotected: none.map((r) => r.urn), protectedCount: 0 });
});
