// Endpoint through the plugin, in the engine's call orders; every effect checked with the OCI SDK.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { AIServiceLanguageClient } from 'oci-ailanguage';
import {
  check,
  configuredPlugin,
  create,
  del,
  diff,
  ENDPOINT,
  initFailure,
  read,
  startEnv,
  update,
  type Env,
  type Plugin,
  type Props,
} from './support/harness';

describe('Endpoint', () => {
  let env: Env;
  let plugin: Plugin;
  let sdk: AIServiceLanguageClient;
  let base: Props;
  const get = async (id: string) => (await sdk.getEndpoint({ endpointId: id })).endpoint;
  const newEndpoint = async (name: string, extra: Props = {}) => {
    const c = await create(plugin, ENDPOINT, name, { ...base, ...extra });
    return { id: c.id, outputs: c.outputs, inputs: c.checked };
  };

  before(async () => {
    env = await startEnv();
    sdk = env.language(env.sandbox.homeRegion);
    plugin = await configuredPlugin(env, env.sandbox.homeRegion);
    base = {
      compartmentId: env.sandbox.compartmentId,
      modelId: env.sandbox.aiLanguage.customModelIds.textClassification,
    };
  });
  after(async () => {
    await plugin?.close();
    await env?.close();
  });

  it('create: one ACTIVE endpoint with every output; inferenceUnits defaults to 1', async () => {
    const s = await newEndpoint('create', { displayName: 'tickets', description: 'd', freeformTags: { a: 'b' } });
    const ep = await get(s.id);
    assert.equal(ep.lifecycleState, 'ACTIVE');
    assert.equal(ep.displayName, 'tickets');
    assert.equal(s.outputs.inferenceUnits, 1);
    assert.equal(s.inputs.inferenceUnits, 1, 'Check applies the default');
    assert.equal(s.outputs.projectId, ep.projectId);
    assert.equal(s.outputs.state, 'ACTIVE');
    for (const k of ['compartmentId', 'modelId', 'displayName', 'timeCreated', 'projectId', 'freeformTags'])
      assert.ok(k in s.outputs, k);
    const all = (await sdk.listEndpoints({ compartmentId: env.sandbox.compartmentId, displayName: 'tickets' }))
      .endpointCollection.items;
    assert.equal(all.length, 1);
  });

  it('an empty optional string is unset, as in pulumi-oci: not sent to OCI, no diff with none', async () => {
    // OCI refuses `alias: ""` (400); Terraform's SDK never sends it.
    const s = await newEndpoint('empty', { alias: '', description: '' });
    assert.ok(!('alias' in s.inputs) && !('description' in s.inputs), JSON.stringify(s.inputs));
    assert.equal((await get(s.id)).alias, undefined);
    const checked = await check(plugin, ENDPOINT, 'empty', s.inputs, { ...base, description: '' });
    assert.equal((await diff(plugin, ENDPOINT, 'empty', s.id, s.outputs, s.inputs, checked)).changes, 'NONE');
    // As old inputs too (a state written before): "" and none are the same.
    const before = { ...s.inputs, description: '' };
    assert.equal((await diff(plugin, ENDPOINT, 'empty', s.id, s.outputs, before, { ...s.inputs })).changes, 'NONE');
  });

  it('a null input is unset, as in pulumi-oci: left out of the inputs, and the default applies', async () => {
    const checked = await check(plugin, ENDPOINT, 'nulls', {}, { ...base, inferenceUnits: null, description: null });
    assert.deepEqual(checked, { ...base, inferenceUnits: 1 });
  });

  it("inferenceUnits and tags left out of the program keep OCI's values (pulumi-oci: Optional+Computed); {} clears tags", async () => {
    const s = await newEndpoint('kept', { inferenceUnits: 3, freeformTags: { team: 'x' }, displayName: 'kept' });
    // The program no longer sets them: no default on an update's Check, no diff, nothing sent.
    const checked = await check(plugin, ENDPOINT, 'kept', s.inputs, { ...base, displayName: 'kept' });
    assert.ok(!('inferenceUnits' in checked), JSON.stringify(checked));
    assert.equal((await diff(plugin, ENDPOINT, 'kept', s.id, s.outputs, s.inputs, checked)).changes, 'NONE');
    // A name change then updates the name alone.
    const renamed = await update(plugin, ENDPOINT, 'kept', s, { ...base, displayName: 'renamed' });
    assert.deepEqual(renamed.diff.diffs, ['displayName']);
    const ep = await get(s.id);
    assert.deepEqual([ep.displayName, ep.inferenceUnits, ep.freeformTags], ['renamed', 3, { team: 'x' }]);
    // An empty map is a value: it clears the tags.
    const state = { id: s.id, outputs: renamed.outputs, inputs: renamed.inputs };
    const cleared = await update(plugin, ENDPOINT, 'kept', state, {
      ...base,
      displayName: 'renamed',
      freeformTags: {},
    });
    assert.deepEqual(cleared.diff.diffs, ['freeformTags']);
    assert.deepEqual((await get(s.id)).freeformTags, {});
  });

  it('no change gives DIFF_NONE, also when OCI chose the display name', async () => {
    const s = await newEndpoint('same');
    assert.match(String(s.outputs.displayName), /^ailanguageendpoint/);
    // Unset optional inputs read as pulumi-oci's zero values (its Output<string>), not as inputs.
    assert.deepEqual([s.outputs.description, s.outputs.alias], ['', '']);
    assert.ok(!('description' in (await read(plugin, ENDPOINT, 'same', s.id)).inputs));
    const checked = await check(plugin, ENDPOINT, 'same', s.inputs, { ...base });
    assert.equal((await diff(plugin, ENDPOINT, 'same', s.id, s.outputs, s.inputs, checked)).changes, 'NONE');
  });

  it('a tag map changed in place is diffed key by key, as pulumi-oci reports it', async () => {
    const s = await newEndpoint('tag-keys', { freeformTags: { env: 'dev', team: 'a', gone: 'x' } });
    const news = await check(plugin, ENDPOINT, 'tag-keys', s.inputs, {
      ...base,
      freeformTags: { env: 'dev', team: 'b', 'cost.center': 'y' },
    });
    const d = await diff(plugin, ENDPOINT, 'tag-keys', s.id, s.outputs, s.inputs, news);
    assert.deepEqual(d.diffs, ['freeformTags']);
    const K = { ADD: 0, DELETE: 2, UPDATE: 4 }; // pulumirpc.PropertyDiff.Kind
    assert.deepEqual(d.detailed, {
      'freeformTags["cost.center"]': K.ADD,
      'freeformTags.gone': K.DELETE,
      'freeformTags.team': K.UPDATE,
    });
    // Cleared with {}: each key is a delete (so `replaceOnChanges: ['freeformTags.env']` sees it).
    const cleared = await check(plugin, ENDPOINT, 'tag-keys', s.inputs, { ...base, freeformTags: {} });
    const c = await diff(plugin, ENDPOINT, 'tag-keys', s.id, s.outputs, s.inputs, cleared);
    assert.deepEqual(c.detailed, {
      'freeformTags.env': K.DELETE,
      'freeformTags.gone': K.DELETE,
      'freeformTags.team': K.DELETE,
    });
  });

  it('an endpoint OCI left FAILED (its create failed) is replaced, not updated with nothing to change', async () => {
    await env.emulator.admin!.injectFault({ operation: 'CreateEndpoint', kind: 'fail-work-request' });
    const failed = await create(plugin, ENDPOINT, 'failed', { ...base }).then(
      () => assert.fail('expected the create to fail'),
      (e) => initFailure(e),
    );
    assert.ok(failed, 'a partial failure: the endpoint is tracked');
    assert.equal(failed.properties.state, 'FAILED');
    assert.equal((await get(failed.id)).lifecycleState, 'FAILED');
    const inputs = await check(plugin, ENDPOINT, 'failed', {}, { ...base });
    const d = await diff(plugin, ENDPOINT, 'failed', failed.id, failed.properties, inputs, inputs);
    assert.equal(d.changes, 'SOME');
    assert.deepEqual(d.replaces, ['state']);
  });

  it('updates every field in place, compartment through ChangeEndpointCompartment; never replaces', async () => {
    let s = await newEndpoint('inplace', { displayName: 'one' });
    // A second compartment of the same tenancy (the emulator refuses compartments it did not create).
    const { compartmentId: otherCompartment } = await env.emulator.admin.createCompartment(
      env.sandbox.tenancyId,
      'endpoint-move',
    );
    const steps: Array<[string, unknown, (ep: Awaited<ReturnType<typeof get>>) => unknown]> = [
      ['displayName', 'two', (ep) => ep.displayName],
      ['description', 'about', (ep) => ep.description],
      ['alias', 'inplace-alias', (ep) => ep.alias],
      ['inferenceUnits', 3, (ep) => ep.inferenceUnits],
      ['modelId', env.sandbox.aiLanguage.customModelIds.namedEntityRecognition, (ep) => ep.modelId],
      ['freeformTags', { k: 'v' }, (ep) => ep.freeformTags],
      [
        'definedTags',
        { 'Operations.CostCenter': '7' },
        (ep) =>
          ep.definedTags?.Operations?.CostCenter && { 'Operations.CostCenter': ep.definedTags.Operations.CostCenter },
      ],
      ['compartmentId', otherCompartment, (ep) => ep.compartmentId],
    ];
    for (const [key, value, pick] of steps) {
      const u = await update(plugin, ENDPOINT, 'inplace', s, { ...s.inputs, [key]: value });
      assert.deepEqual(u.diff.diffs, [key], key);
      assert.deepEqual(u.diff.replaces, [], `${key} never replaces`);
      const ep = await get(s.id);
      assert.deepEqual(pick(ep), value, `${key} applied`);
      assert.equal(ep.lifecycleState, 'ACTIVE');
      assert.deepEqual(u.outputs[key], value);
      s = { id: s.id, outputs: u.outputs, inputs: u.inputs };
    }
  });

  it('refresh after an out-of-band change and delete; import then no diff', async () => {
    const s = await newEndpoint('oob', { displayName: 'oob' });
    const r0 = await sdk.updateEndpoint({ endpointId: s.id, updateEndpointDetails: { description: 'outside' } });
    assert.ok(r0.opcWorkRequestId);
    await new Promise((r) => setTimeout(r, 20));
    const r = await read(plugin, ENDPOINT, 'oob', s.id, s.outputs, s.inputs);
    assert.equal(r.outputs.description, 'outside');
    const imported = await read(plugin, ENDPOINT, 'oob', s.id);
    assert.equal(imported.id, s.id);
    const program = { ...base, displayName: 'oob', description: 'outside' };
    const checked = await check(plugin, ENDPOINT, 'oob', imported.inputs, program);
    assert.equal(
      (await diff(plugin, ENDPOINT, 'oob', s.id, imported.outputs, imported.inputs, checked)).changes,
      'NONE',
    );
    await sdk.deleteEndpoint({ endpointId: s.id });
    await new Promise((r) => setTimeout(r, 20));
    assert.equal((await read(plugin, ENDPOINT, 'oob', s.id, r.outputs, r.inputs)).id, '');
    await del(plugin, ENDPOINT, 'oob', s.id, r.outputs);
    await del(plugin, ENDPOINT, 'oob', s.id, r.outputs);
  });
});
