import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkSnapshot, urnStack } from './snapshot-check';
import type { ResourceState } from './state';

const urn = (type: string, name: string, stack = 'dev') => `urn:pulumi:${stack}::proj::${type}::${name}`;
const STACK = urn('pulumi:pulumi:Stack', 'proj-dev');
const PROVIDER = urn('pulumi:providers:oci', 'default');
const res = (name: string, extra: Partial<ResourceState> = {}): ResourceState => ({
  urn: urn('oci:AiLanguage/endpoint:Endpoint', name),
  custom: true,
  type: 'oci:AiLanguage/endpoint:Endpoint',
  inputs: {},
  outputs: {},
  parent: STACK,
  provider: `${PROVIDER}::p1`,
  ...extra,
});
const base = (): ResourceState[] => [
  { urn: STACK, custom: false, type: 'pulumi:pulumi:Stack', inputs: {}, outputs: {} },
  { urn: PROVIDER, custom: true, id: 'p1', type: 'pulumi:providers:oci', inputs: {}, outputs: {}, parent: STACK },
];

test('a whole snapshot of the stack has no problems', () => {
  const resources = [...base(), res('a'), res('b', { dependencies: [res('a').urn] })];
  assert.deepEqual(checkSnapshot(resources, 'dev'), { otherStack: [], integrity: [] });
  assert.equal(urnStack(STACK), 'dev');
});

test('missing or later parents, dependencies and providers, duplicates and foreign stacks are named', () => {
  const a = res('a');
  const problems = checkSnapshot(
    [
      ...base(),
      res('b', { dependencies: [a.urn] }),
      a,
      res('c', { parent: urn('pulumi:pulumi:Stack', 'gone') }),
      res('d', { provider: `${PROVIDER}::other-id` }),
      res('a'),
      res('a', { delete: true }),
      { ...res('e'), urn: urn('oci:AiLanguage/endpoint:Endpoint', 'e', 'prod') },
    ],
    'dev',
  );
  assert.deepEqual(problems.integrity, [
    `resource ${res('b').urn}'s dependency ${a.urn} comes after it`,
    `resource ${res('c').urn} refers to unknown parent urn:pulumi:dev::proj::pulumi:pulumi:Stack::gone`,
    `resource ${res('d').urn} refers to unknown provider ${PROVIDER}::other-id`,
    `duplicate resource ${a.urn} (not marked for deletion)`,
  ]);
  assert.deepEqual(problems.otherStack, [
    `resource 'urn:pulumi:prod::proj::oci:AiLanguage/endpoint:Endpoint::e' is from a different stack (prod != dev)`,
  ]);
});
