// Delete-before-replace with dependents, with the real pulumi-resource-oci plugin against a real
// emulator (effects checked with the official OCI SDK): a DrPlan cloned from another through
// `sourcePlanId` is deleted before its source is replaced delete-before-replace, and created again
// from the new source; an Endpoint whose name only follows the source is updated in place.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startCloud, type Cloud } from './support/cloud';
import { makeProgram, steps, type TestProgram } from './support/harness';

const program = (sourceName: string, alias = false) => `
import * as pulumi from '@pulumi/pulumi';
import * as oci from '@pulumi/oci';
const cfg = new pulumi.Config();
const standby = new oci.Provider('standby', { region: cfg.require('standbyRegion') });
const source = new oci.disasterrecovery.DrPlan('source', {
  displayName: '${sourceName}',
  drProtectionGroupId: cfg.require('groupId'),
  type: 'SWITCHOVER',
}, { provider: standby, deleteBeforeReplace: true, replaceOnChanges: ['displayName'] });
const clone = new oci.disasterrecovery.DrPlan(${alias ? "'copy'" : "'clone'"}, {
  displayName: 'clone',
  drProtectionGroupId: cfg.require('groupId'),
  type: 'SWITCHOVER',
  sourcePlanId: source.id,
}, { provider: standby${alias ? ", aliases: [{ name: 'clone' }]" : ''} });
const ep = new oci.ailanguage.Endpoint('ep', {
  compartmentId: cfg.require('compartmentId'),
  modelId: cfg.require('modelId'),
  displayName: source.displayName.apply((n) => 'ep-' + n),
});
export const sourceId = source.id;
export const cloneId = clone.id;
export const endpointId = ep.id;
`;

/** An emulator and the program on it, with the sandbox's group, compartment and model as config. */
async function startProgram(source: string): Promise<{ cloud: Cloud; prog: TestProgram }> {
  const cloud = await startCloud();
  const s = cloud.sandbox;
  const prog = makeProgram(source, {
    providerEnv: cloud.providerEnv,
    config: {
      'enginetest:standbyRegion': s.disasterRecovery.standbyRegion,
      'enginetest:groupId': s.disasterRecovery.standbyProtectionGroupId,
      'enginetest:compartmentId': s.compartmentId,
      'enginetest:modelId': s.aiLanguage.pretrainedModelIds.sentimentAnalysis,
    },
    secretKeys: [],
  });
  return { cloud, prog };
}

describe('delete-before-replace dependents with pulumi-resource-oci and the emulator', () => {
  let cloud: Cloud;
  let prog: TestProgram;
  const standby = () => cloud.sandbox.disasterRecovery.standbyRegion;
  const livePlans = () => cloud.livePlans();
  const planState = async (id: string) => (await cloud.dr(standby()).getDrPlan({ drPlanId: id })).drPlan.lifecycleState;

  before(async () => {
    ({ cloud, prog } = await startProgram(program('src-a')));
  });
  after(async () => {
    prog?.remove();
    await cloud?.close();
  });

  it('deletes the clone before replacing its source, creates it again from the new source, updates the endpoint', async () => {
    let r = await prog.run();
    assert.equal(r.ok, true, r.error);
    const first = { ...r.outputs };
    assert.equal((await livePlans()).length, 2);

    prog.write(program('src-b'));
    r = await prog.run({ preview: true });
    assert.equal(r.ok, true, r.error);
    assert.deepEqual(
      steps(r.events).filter((s) => s.startsWith('delete-replaced')),
      ['delete-replaced clone', 'delete-replaced source'],
    );
    assert.equal((await livePlans()).length, 2, 'the preview deleted nothing');

    r = await prog.run();
    assert.equal(r.ok, true, r.error);
    const order = steps(r.events).filter((s) => /^(delete-replaced|create-replacement|update)/.test(s));
    assert.deepEqual(order, [
      'delete-replaced clone',
      'delete-replaced source',
      'create-replacement source',
      'create-replacement clone',
      'update ep',
    ]);
    assert.equal(r.changes.replace, 2);
    assert.equal(await planState(first.sourceId as string), 'DELETED');
    assert.equal(await planState(first.cloneId as string), 'DELETED');
    const plans = await livePlans();
    assert.deepEqual(plans.map((p) => p.displayName).sort(), ['clone', 'src-b']);
    assert.equal(plans.find((p) => p.displayName === 'src-b')!.id, r.outputs.sourceId);
    assert.equal(plans.find((p) => p.displayName === 'clone')!.id, r.outputs.cloneId);
    // The endpoint kept its id: its name follows the source, which does not force a replacement.
    assert.equal(r.outputs.endpointId, first.endpointId);
    const ep = await cloud.language(cloud.sandbox.homeRegion).getEndpoint({ endpointId: first.endpointId as string });
    assert.equal(ep.endpoint.displayName, 'ep-src-b');

    r = await prog.run();
    assert.equal(r.ok, true, r.error);
    assert.deepEqual(
      steps(r.events).filter((s) => !s.startsWith('same')),
      [],
    );
  });

  it('renames the clone through an alias: same plan, nothing created or deleted', async () => {
    const before = (await livePlans()).map((p) => p.id).sort();
    prog.write(program('src-b', true));
    const r = await prog.run();
    assert.equal(r.ok, true, r.error);
    assert.ok(steps(r.events).includes('same copy'), steps(r.events).join(','));
    assert.deepEqual((await livePlans()).map((p) => p.id).sort(), before);
  });
});

// replaceOnChanges entries are property paths (Pulumi's PropertyPath.Contains): `freeformTags.env`
// replaces on a change of that tag only.
const tagsProgram = (env?: string, team?: string) => `
import * as pulumi from '@pulumi/pulumi';
import * as oci from '@pulumi/oci';
const cfg = new pulumi.Config();
const tagged = new oci.ailanguage.Endpoint('tagged', {
  compartmentId: cfg.require('compartmentId'),
  modelId: cfg.require('modelId'),
  freeformTags: ${env ? `{ env: '${env}', team: '${team}' }` : '{}'},
}, { replaceOnChanges: ['freeformTags.env'] });
export const taggedId = tagged.id;
`;

describe('replaceOnChanges on one tag', () => {
  let cloud: Cloud;
  let prog: TestProgram;

  before(async () => {
    ({ cloud, prog } = await startProgram(tagsProgram('dev', 'a')));
  });
  after(async () => {
    prog?.remove();
    await cloud?.close();
  });

  it('replaces on a change of the tag replaceOnChanges names, and updates on any other tag', async () => {
    let r = await prog.run();
    assert.equal(r.ok, true, r.error);
    const { taggedId } = r.outputs;
    prog.write(tagsProgram('dev', 'b'));
    r = await prog.run();
    assert.equal(r.ok, true, r.error);
    assert.ok(steps(r.events).includes('update tagged'), steps(r.events).join(','));
    assert.equal(r.outputs.taggedId, taggedId);
    prog.write(tagsProgram('prod', 'b'));
    r = await prog.run();
    assert.equal(r.ok, true, r.error);
    assert.ok(steps(r.events).includes('replace tagged'), steps(r.events).join(','));
    assert.notEqual(r.outputs.taggedId, taggedId);
    const tags = (
      await cloud.language(cloud.sandbox.homeRegion).getEndpoint({ endpointId: r.outputs.taggedId as string })
    ).endpoint.freeformTags;
    assert.deepEqual(tags, { env: 'prod', team: 'b' });
    // The events say which change forces it, as Pulumi's applyReplaceOnChanges marks it.
    const replaced = r.events.find((e) => e.resourcePreEvent?.metadata.op === 'replace')!.resourcePreEvent!.metadata;
    assert.deepEqual(replaced.detailedDiff, { 'freeformTags.env': { diffKind: 'update-replace', inputDiff: true } });
    // Tags cleared with {}: the env tag goes too, so it is replaced again.
    const before = r.outputs.taggedId;
    prog.write(tagsProgram());
    r = await prog.run();
    assert.equal(r.ok, true, r.error);
    assert.ok(steps(r.events).includes('replace tagged'), steps(r.events).join(','));
    assert.notEqual(r.outputs.taggedId, before);
  });
});
