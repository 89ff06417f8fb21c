import { test } from 'node:test';
import assert from 'node:assert/strict';
import { importCode } from './import-code';

test('the printed code names the resource and its provider as TypeScript variables', () => {
  const code = importCode({
    pkg: '@pulumi/oci',
    type: 'oci:DisasterRecovery/drPlan:DrPlan',
    name: 'from-standby',
    inputs: { displayName: 'p', type: 'FAILOVER' },
    protect: true,
    provider: 'dr-standby',
  });
  assert.match(code, /\nconst from_standby = new oci\.disasterrecovery\.DrPlan\("from-standby", \{\n/);
  assert.match(code, /\}, \{\n {4}provider: dr_standby,\n {4}protect: true,\n\}\);\n$/);
  const plain = importCode({
    pkg: '@ocikit/oci',
    type: 'oci:AiLanguage/endpoint:Endpoint',
    name: 'e',
    inputs: {},
    protect: false,
  });
  assert.match(plain, /const e = new oci\.ailanguage\.Endpoint\("e", \{\n\}\);\n$/);
});

test("the resource options come in the order Pulumi's code generator writes them: parent, provider, protect", () => {
  const code = importCode({
    pkg: '@pulumi/oci',
    type: 'oci:AiLanguage/endpoint:Endpoint',
    name: 'child',
    inputs: {},
    protect: true,
    provider: 'standby',
    parent: 'my-group',
  });
  assert.match(code, /\}, \{\n {4}parent: my_group,\n {4}provider: standby,\n {4}protect: true,\n\}\);\n$/);
});
