// Fields of the checkpoint's resources that Pulumi writes and `pulumi stack import` reads back
// (apitype.ResourceV3, sdk/go/common/apitype/core.go), as ocikit writes them after a run.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { sourcePosition } from '../../src/engine/source-position';
import { fakeProviderSuite, testCrypter } from './support/harness';

const header = `import * as pulumi from '@pulumi/pulumi';
class Thing extends pulumi.CustomResource {
  constructor(name: string, args: Record<string, unknown>, opts?: pulumi.CustomResourceOptions) {
    super('oci:Test/thing:Thing', name, args, opts);
  }
}
`;

const program = `class Group extends pulumi.ComponentResource {
  constructor(name: string) {
    super('test:index:Group', name, {});
  }
}
const group = new Group('group');
const made = new Thing('made', { size: 1 }, { parent: group });
new Thing('read', {}, { id: made.id });
`;

interface Entry {
  urn: string;
  id?: string;
  sourcePosition?: string;
  additionalSecretOutputs?: string[];
  created?: string;
  modified?: string;
}

describe('checkpoint fields (fake provider)', () => {
  const suite = fakeProviderSuite(header);
  const recorded = (): Entry[] =>
    JSON.parse(readFileSync(join(suite.prog.dir, '.ocikit/stacks/dev.json'), 'utf8')).checkpoint.latest.resources;

  // Pulumi's resource monitor reads the SDK's source position of each registration and read
  // (source_eval.go RegisterResource and ReadResource: rm.sourcePositions.getFromRequest) and the
  // step generator records it in the resource's state (goal.SourcePosition).
  it("records where the program registered each resource, relative to the project's folder", async () => {
    const result = await suite.run(program);
    assert.equal(result.ok, true, result.error);
    const lines = (header + program).split('\n');
    const lineOf = (text: string) => lines.findIndex((l) => l.includes(text)) + 1;
    const at = (name: string) => recorded().find((r) => r.urn.endsWith(`::${name}`))?.sourcePosition;
    assert.match(at('group') ?? '', new RegExp(`^project:///index\\.ts#${lineOf("new Group('group')")},\\d+$`));
    assert.match(at('made') ?? '', new RegExp(`^project:///index\\.ts#${lineOf("'made'")},\\d+$`));
    assert.match(at('read') ?? '', new RegExp(`^project:///index\\.ts#${lineOf("'read'")},\\d+$`));
    // A default provider is the engine's own registration: no position.
    const provider = recorded().find((r) => r.urn.includes('::pulumi:providers:oci::default'));
    assert.ok(provider, 'a default provider');
    assert.equal(provider.sourcePosition, undefined);
  });

  // Pulumi's step generator records a read's additionalSecretOutputs (GenerateReadSteps:
  // event.AdditionalSecretOutputs()) and no times; ReadStep.Apply keeps the old state's times and
  // gives it a new `modified` when what it read differs from what the state held.
  it("records a read's additional secret outputs, and a new modified time only when what it read changed", async () => {
    const source = `const made = new Thing('made', { size: 1 });
new Thing('read', {}, { id: made.id, additionalSecretOutputs: ['size'] });
`;
    const read = () => recorded().find((r) => r.urn.endsWith('::read'))!;
    for (let i = 0; i < 2; i++) assert.equal((await suite.run(source)).ok, true);
    assert.deepEqual(read().additionalSecretOutputs, ['size']);
    assert.deepEqual([read().created, read().modified], [undefined, undefined]);
    const cloud = suite.files.cloudState();
    cloud[read().id!] = { ...cloud[read().id!], size: 2 };
    writeFileSync(suite.files.cloud, JSON.stringify(cloud));
    assert.equal((await suite.run(source)).ok, true);
    const { created, modified } = read();
    assert.equal(created, undefined);
    assert.match(modified ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/, 'a modified time');
    assert.equal((await suite.run(source)).ok, true);
    assert.equal(read().modified, modified, 'nothing new read: the time stays');
  });

  // Pulumi writes the checkpoint with Go's encoder: a resource's inputs, outputs and
  // propertyDependencies are Go maps (SerializeProperties' map[string]interface{}, objects nested
  // in them too; ResourceV3's map[PropertyKey][]URN), written with their keys sorted by byte, "10"
  // before "2", while ResourceV3's fields keep their declared order; a secret's plaintext is
  // json.Marshal of the serialized value, sorted as well (SerializePropertyValue).
  it("writes a resource's inputs, outputs and property dependencies with their keys in Go's map order", async () => {
    const source = `const first = new Thing('first', { size: 1 });
new Thing('second', { zeta: first.id, alpha: { 10: 1, 2: 2, b: 3 }, hidden: pulumi.secret({ y: 1, 10: 2, x: 3 }), size: first.id });
`;
    assert.equal((await suite.run(source)).ok, true);
    const text = readFileSync(join(suite.prog.dir, '.ocikit/stacks/dev.json'), 'utf8');
    const at = text.indexOf('"urn": "urn:pulumi:dev::enginetest::oci:Test/thing:Thing::second"');
    const second = text.slice(text.lastIndexOf('\n', at) + 1);
    const keys = (object: string) =>
      [...second.slice(second.indexOf(`"${object}": {`)).matchAll(/^ {24}"([^"]+)":/gm)].map((m) => m[1]).slice(0, 4);
    assert.deepEqual(keys('inputs'), ['alpha', 'hidden', 'size', 'zeta']);
    assert.match(second, /"alpha": \{\n {28}"10": 1,\n {28}"2": 2,\n {28}"b": 3\n {24}\}/);
    assert.deepEqual(keys('propertyDependencies'), ['alpha', 'hidden', 'size', 'zeta']);
    // ResourceV3's own order (a struct): urn, custom, id, type, inputs, where ocikit wrote a create's id last.
    const fields = [...second.matchAll(/^ {20}"([^"]+)":/gm)].map((m) => m[1]);
    assert.deepEqual(fields.slice(0, 5), ['urn', 'custom', 'id', 'type', 'inputs']);
    const ciphertext =
      /"hidden": \{\n\s*"4dabf18193072939515e22adb298388d": "[0-9a-f]+",\n\s*"ciphertext": "([^"]+)"/.exec(second)?.[1];
    assert.ok(ciphertext, 'the secret, its sig first');
    assert.equal(testCrypter().decrypt(ciphertext), '{"10":2,"x":3,"y":1}');
  });

  // Pulumi's CreateStep.Apply sets Created and Modified to one `now` once the provider's Create
  // has answered. ocikit kept the time the create was sent (its key) as `created` and an earlier
  // one as `modified`.
  it('gives a created resource one created and modified time, taken once the provider answered', async () => {
    assert.equal((await suite.run(`new Thing('slow', { sleepMs: 300 });\n`)).ok, true);
    const slow = recorded().find((r) => r.urn.endsWith('::slow'))!;
    assert.equal(slow.modified, slow.created);
    // In UTC, as Go's MarshalJSON writes it (RFC3339Nano): the fraction's trailing zeros trimmed.
    assert.match(slow.created!, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d*[1-9])?Z$/);
    // The fake cloud's file is written as its create returns: the time is not before that.
    assert.ok(
      Date.parse(slow.created!) >= Math.floor(statSync(suite.files.cloud).mtimeMs),
      `${slow.created} is before the create returned`,
    );
  });

  // Go's encoder writes a struct's fields in their declared order: ResourceV3's (core.go) puts
  // aliases after additionalSecretOutputs and ignoreChanges, replaceOnChanges after sourcePosition.
  it("writes a resource's fields in ResourceV3's order", async () => {
    const options = `ignoreChanges: ['note'], replaceOnChanges: ['size'], retainOnDelete: true,
  additionalSecretOutputs: ['size'], customTimeouts: { create: '1m' }, deletedWith: first`;
    const first = `const first = new Thing('first', { size: 1 });\n`;
    assert.equal((await suite.run(`${first}new Thing('old', { size: 1 }, { ${options} });\n`)).ok, true);
    const renamed = `${first}new Thing('opts', { size: 1 }, { aliases: [{ name: 'old' }], ${options} });\n`;
    assert.equal((await suite.run(renamed)).ok, true);
    const text = readFileSync(join(suite.prog.dir, '.ocikit/stacks/dev.json'), 'utf8');
    const at = text.indexOf('"urn": "urn:pulumi:dev::enginetest::oci:Test/thing:Thing::opts"');
    const own = text.slice(text.lastIndexOf('\n', at) + 1);
    const fields = [...own.slice(0, own.search(/\n {16}\}/)).matchAll(/^ {20}"([^"]+)":/gm)].map((m) => m[1]);
    const expected =
      'urn custom id type inputs outputs parent provider propertyDependencies additionalSecretOutputs aliases ' +
      'customTimeouts retainOnDelete deletedWith created modified sourcePosition ignoreChanges replaceOnChanges';
    assert.deepEqual(fields, expected.split(' '));
  });

  it('words a position as Pulumi does, and records none where Pulumi refuses one', () => {
    const root = '/work/my project';
    const at = (file: string, line: number, column: number) =>
      sourcePosition({ uri: pathToFileURL(file).toString(), line, column }, root);
    assert.equal(at('/work/my project/src/index.ts', 3, 7), 'project:///src/index.ts#3,7');
    // Escaped as Go's url.URL.String escapes a path; no column, no comma.
    assert.equal(at('/work/my project/a b/é.ts', 4, 0), 'project:///a%20b/%C3%A9.ts#4');
    assert.equal(at('/work/lib/x.ts', 1, 1), 'project:///../lib/x.ts#1,1');
    assert.equal(at('/work/my project/index.ts', 0, 1), undefined);
    assert.equal(at('/work/my project/index.ts', 1, -1), undefined);
    assert.equal(sourcePosition({ uri: 'https://example.com/index.ts', line: 1, column: 1 }, root), undefined);
    assert.equal(sourcePosition(undefined, root), undefined);
  });
});
