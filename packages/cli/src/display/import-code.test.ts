import { test } from 'node:test';
import assert from 'node:assert/strict';
import { importCode, importNotice } from './import-code';

test('the code names the resource and its provider as TypeScript variables', () => {
  const code = importCode({
    pkg: '@pulumi/oci',
    protect: true,
    resources: [
      {
        type: 'oci:DisasterRecovery/drPlan:DrPlan',
        name: 'from-standby',
        inputs: { displayName: 'p', type: 'FAILOVER' },
        provider: 'dr-standby',
      },
    ],
  });
  assert.match(code, /\nconst from_standby = new oci\.disasterrecovery\.DrPlan\("from-standby", \{\n/);
  assert.match(code, /\}, \{\n {4}provider: dr_standby,\n {4}protect: true,\n\}\);\n$/);
  const plain = importCode({
    pkg: '@ocikit/oci',
    protect: false,
    resources: [{ type: 'oci:AiLanguage/endpoint:Endpoint', name: 'e', inputs: {} }],
  });
  assert.match(plain, /const e = new oci\.ailanguage\.Endpoint\("e", \{\n\}\);\n$/);
});

test("the resource options come in the order Pulumi's code generator writes them: parent, provider, protect", () => {
  const code = importCode({
    pkg: '@pulumi/oci',
    protect: true,
    resources: [
      { type: 'oci:AiLanguage/endpoint:Endpoint', name: 'child', inputs: {}, provider: 'standby', parent: 'my-group' },
    ],
  });
  assert.match(code, /\}, \{\n {4}parent: my_group,\n {4}provider: standby,\n {4}protect: true,\n\}\);\n$/);
});

test('several resources: the imports once, then each declaration in order; a component as a ComponentResource', () => {
  const code = importCode({
    pkg: '@pulumi/oci',
    protect: false,
    resources: [
      { type: 'my:index:Group', name: 'group', inputs: {}, component: true },
      {
        type: 'oci:AiLanguage/endpoint:Endpoint',
        name: 'first',
        logicalName: 'first-endpoint',
        inputs: {},
        parent: 'group',
      },
    ],
  });
  assert.equal(
    code,
    [
      'import * as pulumi from "@pulumi/pulumi";',
      'import * as oci from "@pulumi/oci";',
      '',
      'const group = new pulumi.ComponentResource("my:index:Group", "group", {});',
      '',
      'const first = new oci.ailanguage.Endpoint("first-endpoint", {',
      '}, {',
      '    parent: group,',
      '});',
      '',
    ].join('\n'),
  );
  assert.doesNotMatch(importNotice(false), /protected/);
  assert.match(importNotice(true), /marked as protected/);
});

test("inputs, nested objects and map keys come in byte order, as Pulumi's importer writes them (the schema's sorted properties)", () => {
  const code = importCode({
    pkg: '@pulumi/oci',
    protect: false,
    resources: [
      {
        type: 'oci:DisasterRecovery/drPlan:DrPlan',
        name: 'p',
        // The order a provider's Read may give them in.
        inputs: {
          freeformTags: { team: 'dr', env: 'dev' },
          definedTags: { 'Operations.CostCenter': '42' },
          type: 'SWITCHOVER',
          displayName: 'p',
          drProtectionGroupId: 'g',
        },
      },
    ],
  });
  assert.match(
    code,
    new RegExp(
      [
        'const p = new oci\\.disasterrecovery\\.DrPlan\\("p", \\{',
        ' {4}definedTags: \\{',
        ' {8}"Operations\\.CostCenter": "42",',
        ' {4}\\},',
        ' {4}displayName: "p",',
        ' {4}drProtectionGroupId: "g",',
        ' {4}freeformTags: \\{',
        ' {8}env: "dev",',
        ' {8}team: "dr",',
        ' {4}\\},',
        ' {4}type: "SWITCHOVER",',
        '\\}\\);',
      ].join('\\n'),
    ),
  );
});
