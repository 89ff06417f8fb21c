import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseImportFile, type ImportFile } from './import-file';

const EP = 'oci:AiLanguage/endpoint:Endpoint';
const context = { stack: 'dev', project: 'proj', protect: true };
const parse = (file: ImportFile) => parseImportFile(file, context);
const refused = (file: ImportFile) => {
  try {
    parse(file);
  } catch (error) {
    return (error as Error).message;
  }
  assert.fail('accepted');
};

test('each bad entry is named with its reason, in pulumi import --file words, all at once', () => {
  assert.equal(
    refused({
      resources: [
        { type: EP, name: 'a' },
        { name: 'b', id: 'x' },
        { type: 'T', name: 'c', component: true, id: 'i' },
      ],
    }),
    [
      `resource 'a' of type '${EP}' has no ID`,
      "resource 'b' has no type",
      "resource 'c' of type 'T' has an ID, but is marked as a component",
    ].join('; '),
  );
  assert.equal(refused({ resources: [{ type: EP, id: 'x' }] }), `resource 'x' of type '${EP}' has no name`);
  assert.equal(
    refused({ resources: [{ type: EP, name: 'a', id: 'x', remote: true }] }),
    `resource 'a' of type '${EP}' is marked as remote, but not as a component`,
  );
  assert.equal(
    refused({ resources: [{ type: EP, name: 'a', id: 'x', parent: 'p' }] }),
    `the parent 'p' for resource 'a' of type '${EP}' has no entry in 'nameTable'`,
  );
  assert.equal(
    refused({ resources: [{ type: EP, name: 'a', id: 'x', provider: 'p' }] }),
    `the provider 'p' for resource 'a' of type '${EP}' has no entry in 'nameTable'`,
  );
  assert.equal(
    refused({
      resources: [
        { type: EP, name: 'a', id: 'x' },
        { type: EP, name: 'a', id: 'y' },
      ],
    }),
    `resource 'a' of type '${EP}' has an ambiguous URN, set name (or logical name) to be unique`,
  );
  assert.match(
    refused({ resources: [{ type: 'endpoint', name: 'a', id: 'x' }] }),
    /is not a valid resource type token/,
  );
  assert.match(
    refused({ resources: [{ type: EP, name: 'a', id: 'x', version: 'one' }] }),
    /could not parse version 'one'/,
  );
  assert.match(
    refused({
      resources: [
        { type: EP, name: 'a', id: 'x', parent: 'b' },
        { type: EP, name: 'b', id: 'y', parent: 'a' },
      ],
    }),
    /form a cycle/,
  );
});

test('parents come first, named by nameTable or by another entry; URNs are qualified by the parent type', () => {
  const group = 'urn:pulumi:dev::proj::my:index:Group::g';
  const provider = 'urn:pulumi:dev::proj::pulumi:providers:oci::standby';
  const planned = parse({
    nameTable: { g: group, standby: provider },
    resources: [
      { type: EP, name: 'child', id: 'c', parent: 'comp', provider: 'standby', version: 'v2.31' },
      { type: 'my:index:Box', name: 'comp', component: true, parent: 'g' },
      { type: EP, name: 'g', logicalName: 'other', id: 'o', properties: ['displayName'] },
    ],
  });
  assert.deepEqual(
    planned.map((p) => [p.spec.name, p.spec.parent, p.variable, p.parentVariable]),
    [
      ['comp', group, 'comp', 'g'],
      ['other', undefined, 'gEndpoint', undefined],
      ['child', `urn:pulumi:dev::proj::my:index:Group$my:index:Box::comp`, 'child', 'comp'],
    ],
  );
  const child = planned[2];
  assert.equal(child.spec.provider, provider);
  assert.equal(child.providerVariable, 'standby');
  assert.equal(child.spec.version, '2.31.0');
  assert.deepEqual(planned[1].spec.properties, ['displayName']);
  assert.equal(planned[0].spec.component, true);
  // The stack resource as a parent qualifies nothing, as the engine names its children.
  const [top] = parse({
    nameTable: { stack: 'urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev' },
    resources: [{ type: EP, name: 'top', id: 't', parent: 'stack' }],
  });
  assert.equal(top.spec.parent, 'urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev');
  assert.deepEqual(
    refused({
      nameTable: { stack: 'urn:pulumi:dev::proj::pulumi:pulumi:Stack::proj-dev' },
      resources: [
        { type: EP, name: 'top', id: 't', parent: 'stack' },
        { type: EP, name: 'top2', logicalName: 'top', id: 'u' },
      ],
    }),
    `resource 'top2' of type '${EP}' has an ambiguous URN, set name (or logical name) to be unique`,
  );
});
