import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { assertIntegrity, inlineProgram, ok, program, readCheckpoint, startCloud } from '../support/programs';

// Pulumi's `state taint` and `state untaint` (pkg/cmd/pulumi/state/state_taint.go,
// state_untaint.go): the next `up` replaces a tainted resource (step_generator.go
// isTargetedReplace), and the state, on disk and exported, is version 4 with the feature `taint`
// while one is tainted (pkg/resource/stack/deployment.go ApplyFeatures).

const INDEX = `import * as pulumi from '@pulumi/pulumi';
import * as oci from '@ocikit/oci';
const config = new pulumi.Config();
export const endpointId = new oci.ailanguage.Endpoint('marked', {
  compartmentId: config.require('compartmentId'),
  modelId: config.require('modelId'),
}).id;
`;

interface Exported {
  version: number;
  features?: string[];
  deployment: { resources: Array<{ urn: string; taint?: boolean }> };
}

test('state taint makes the next up replace the resource and untaint undoes it; a tainted state is version 4 and moves through export and import', async () => {
  const cloud = await startCloud();
  try {
    const p = program(inlineProgram('taints', INDEX), { PULUMI_NODEJS_TRANSPILE_ONLY: 'true', ...cloud.env });
    p.setConfig({ ...cloud.ociConfig, compartmentId: cloud.sandbox.compartmentId, modelId: cloud.sandbox.textModelId });
    ok(await p.run(['up', '--yes']));
    const urn = 'urn:pulumi:dev::taints::oci:AiLanguage/endpoint:Endpoint::marked';
    const exported = async () => JSON.parse(ok(await p.run(['stack', 'export'])).stdout) as Exported;
    const marked = (e: Exported) => e.deployment.resources.find((r) => r.urn === urn)!;
    const endpointId = async () =>
      (JSON.parse(ok(await p.run(['stack', 'output', '--json'])).stdout) as { endpointId: string }).endpointId;
    const first = await endpointId();

    assert.equal(ok(await p.run(['state', 'taint', urn])).stdout, '1 resources tainted\n');
    let state = await exported();
    assert.deepEqual(Object.keys(state), ['version', 'features', 'deployment']);
    assert.equal(state.version, 4);
    assert.deepEqual(state.features, ['taint']);
    assert.equal(marked(state).taint, true);
    assert.equal(readCheckpoint(p).resources?.find((r) => r.urn === urn)?.id, first, 'the state file reads as before');
    // The preview shows the replacement, as with `--replace`.
    const preview = ok(await p.run(['preview']));
    assert.match(preview.stdout, /\+- +oci:AiLanguage\/endpoint:Endpoint marked replace\n/);
    assert.match(preview.stdout, /^ +\+- 1 to replace$/m);

    assert.equal(ok(await p.run(['state', 'untaint', urn])).stdout, '1 resources untainted\n');
    state = await exported();
    assert.equal(state.version, 3);
    assert.equal(state.features, undefined);
    assert.equal(marked(state).taint, undefined);
    ok(await p.run(['preview', '--expect-no-changes']));

    // Pulumi's refusals: a URN it does not find is named and nothing changes; no URN at all.
    const missing = urn.replace(/marked$/, 'absent');
    const refused = await p.run(['state', 'taint', urn, missing]);
    assert.equal(refused.code, 1);
    assert.equal(refused.stderr, `error: No such resource "${missing}" exists in the current state\n`);
    assert.equal((await exported()).version, 3, 'nothing was tainted');
    assert.equal((await p.run(['state', 'taint'])).stderr, 'error: Must supply <resource URN>\n');
    ok(await p.run(['state', 'taint', urn]));
    assert.equal(ok(await p.run(['state', 'untaint', '--all'])).stdout, 'All resources untainted\n');
    assert.equal((await exported()).version, 3);

    // A tainted stack's export is what `stack import` takes back, tainted.
    ok(await p.run(['state', 'taint', urn]));
    const file = join(p.dir, 'tainted.json');
    ok(await p.run(['stack', 'export', '--file', file]));
    ok(await p.run(['stack', 'import', '--file', file]));
    assert.deepEqual(await exported(), JSON.parse(readFileSync(file, 'utf8')));

    const up = ok(await p.run(['up', '--yes']));
    assert.match(up.stdout, /\+- +oci:AiLanguage\/endpoint:Endpoint marked replaced/);
    const second = await endpointId();
    assert.notEqual(second, first);
    const language = cloud.t.language();
    assert.equal((await language.getEndpoint({ endpointId: second })).endpoint.lifecycleState, 'ACTIVE');
    assert.match((await language.getEndpoint({ endpointId: first })).endpoint.lifecycleState ?? '', /DELET/);
    // The replacement is not tainted: the state is version 3 again, and the next up changes nothing.
    state = await exported();
    assert.equal(state.version, 3);
    assert.equal(marked(state).taint, undefined);
    ok(await p.run(['preview', '--expect-no-changes']));
  } finally {
    await cloud.close();
  }
});

// isTargetedReplace holds for any resource (step_generator.go diff returns its replacement before
// it looks for a provider): a tainted provider gets a new id (its resources move to it, unreplaced:
// DiffConfig of the same configuration asks for nothing), a tainted component is created again;
// the old copies go at the end. A refresh keeps a taint (RefreshStep.Apply copies the old state).
const GROUPED = `import * as pulumi from '@pulumi/pulumi';
import * as oci from '@ocikit/oci';
const config = new pulumi.Config();
class Group extends pulumi.ComponentResource {
  constructor(name: string) {
    super('taints:index:Group', name, {});
    this.registerOutputs({});
  }
}
const group = new Group('group');
const standby = new oci.Provider('standby', { region: config.require('standbyRegion') });
export const endpointId = new oci.ailanguage.Endpoint('marked', {
  compartmentId: config.require('compartmentId'),
  modelId: config.require('modelId'),
}, { parent: group, provider: standby }).id;
`;

test('a tainted provider or component is replaced by the next up, as any tainted resource; refresh keeps a taint', async () => {
  const cloud = await startCloud();
  try {
    const p = program(inlineProgram('taints', GROUPED), { PULUMI_NODEJS_TRANSPILE_ONLY: 'true', ...cloud.env });
    p.setConfig({
      ...cloud.ociConfig,
      'taints:compartmentId': cloud.sandbox.compartmentId,
      'taints:modelId': cloud.sandbox.textModelId,
      'taints:standbyRegion': cloud.ociConfig['oci:region'],
    });
    ok(await p.run(['up', '--yes']));
    const provider = 'urn:pulumi:dev::taints::pulumi:providers:oci::standby';
    const group = 'urn:pulumi:dev::taints::taints:index:Group::group';
    const endpoint = 'urn:pulumi:dev::taints::taints:index:Group$oci:AiLanguage/endpoint:Endpoint::marked';
    const find = (urn: string) => readCheckpoint(p).resources!.find((r) => r.urn === urn && !r.delete)!;
    const before = { provider: find(provider), endpoint: find(endpoint), group: find(group) };

    assert.equal(ok(await p.run(['state', 'taint', provider, group, endpoint])).stdout, '3 resources tainted\n');
    ok(await p.run(['refresh', '--yes']));
    for (const urn of [provider, group, endpoint]) assert.equal(find(urn).taint, true, `refresh keeps ${urn} tainted`);
    ok(await p.run(['state', 'untaint', endpoint]));

    const preview = ok(await p.run(['preview']));
    assert.match(preview.stdout, /\+- +pulumi:providers:oci +standby +replace/);
    assert.match(preview.stdout, /\+- +taints:index:Group +group +replace/);
    assert.match(preview.stdout, /^ +\+- 2 to replace$/m);

    const up = ok(await p.run(['up', '--yes']));
    assert.match(up.stdout, /^ +\+- 2 replaced$/m);
    const after = { provider: find(provider), endpoint: find(endpoint), group: find(group) };
    assert.notEqual(after.provider.id, before.provider.id, 'a new provider');
    assert.equal(after.endpoint.id, before.endpoint.id, 'its resource is not replaced');
    assert.equal(after.endpoint.provider, `${provider}::${after.provider.id}`);
    assert.notEqual(after.group.created, before.group.created, 'the component is created again');
    const resources = readCheckpoint(p).resources!;
    assert.equal(resources.filter((r) => r.delete).length, 0, 'the old copies are gone');
    assert.equal(resources.filter((r) => r.taint).length, 0, 'the replacements are untainted');
    assertIntegrity(readCheckpoint(p));
    ok(await p.run(['preview', '--expect-no-changes']));
  } finally {
    await cloud.close();
  }
});
