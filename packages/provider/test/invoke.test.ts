// The invokes, with pulumi-oci's tokens and result shapes; compared with what the OCI SDK reads.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  configuredPlugin,
  create,
  DRPLAN,
  ENDPOINT,
  invoke,
  startEnv,
  type Env,
  type Plugin,
  type Props,
} from './support/harness';

describe('invokes', () => {
  let env: Env;
  let dr: Plugin;
  let ai: Plugin;
  let planId: string;
  let endpointId: string;
  before(async () => {
    env = await startEnv();
    dr = await configuredPlugin(env, env.sandbox.disasterRecovery.standbyRegion);
    ai = await configuredPlugin(env, env.sandbox.homeRegion);
    const g = env.sandbox.disasterRecovery.standbyProtectionGroupId;
    planId = (await create(dr, DRPLAN, 'inv', { displayName: 'inv', drProtectionGroupId: g, type: 'SWITCHOVER' })).id;
    await create(dr, DRPLAN, 'inv2', { displayName: 'inv2', drProtectionGroupId: g, type: 'FAILOVER' });
    endpointId = (
      await create(ai, ENDPOINT, 'inv', {
        compartmentId: env.sandbox.compartmentId,
        modelId: env.sandbox.aiLanguage.customModelIds.textClassification,
        displayName: 'inv-ep',
      })
    ).id;
  });
  after(async () => {
    await dr?.close();
    await ai?.close();
    await env?.close();
  });

  it('getDrPlan', async () => {
    const { result } = await invoke(dr, 'oci:DisasterRecovery/getDrPlan:getDrPlan', { drPlanId: planId });
    const plan = (await env.dr(env.sandbox.disasterRecovery.standbyRegion).getDrPlan({ drPlanId: planId })).drPlan;
    assert.equal(result.id, planId);
    assert.equal(result.drPlanId, planId);
    assert.equal(result.displayName, 'inv');
    assert.equal(result.state, 'ACTIVE');
    assert.equal((result.planGroups as unknown[]).length, plan.planGroups.length);
  });

  it('getDrPlans: drPlanCollections[].items[] with filters', async () => {
    const g = env.sandbox.disasterRecovery.standbyProtectionGroupId;
    const all = await invoke(dr, 'oci:DisasterRecovery/getDrPlans:getDrPlans', { drProtectionGroupId: g });
    const items = (all.result.drPlanCollections as Array<{ items: Props[] }>)[0].items;
    assert.deepEqual(items.map((i) => i.displayName).sort(), ['inv', 'inv2']);
    assert.equal(all.result.drProtectionGroupId, g);
    assert.ok(typeof all.result.id === 'string' && all.result.id.length > 0);
    const filtered = await invoke(dr, 'oci:DisasterRecovery/getDrPlans:getDrPlans', {
      drProtectionGroupId: g,
      filters: [{ name: 'type', values: ['FAILOVER'] }],
    });
    assert.deepEqual(
      (filtered.result.drPlanCollections as Array<{ items: Props[] }>)[0].items.map((i) => i.displayName),
      ['inv2'],
    );
    const regex = await invoke(dr, 'oci:DisasterRecovery/getDrPlans:getDrPlans', {
      drProtectionGroupId: g,
      filters: [{ name: 'display_name', values: ['^inv$'], regex: true }],
    });
    assert.deepEqual(
      (regex.result.drPlanCollections as Array<{ items: Props[] }>)[0].items.map((i) => i.id),
      [planId],
    );
    // A regular expression that does not compile matches nothing, as in pulumi-oci; the filter's other values still count.
    const badRegex = await invoke(dr, 'oci:DisasterRecovery/getDrPlans:getDrPlans', {
      drProtectionGroupId: g,
      filters: [{ name: 'display_name', values: ['[', '^inv2$'], regex: true }],
    });
    assert.deepEqual(badRegex.failures, []);
    assert.deepEqual(
      (badRegex.result.drPlanCollections as Array<{ items: Props[] }>)[0].items.map((i) => i.displayName),
      ['inv2'],
    );
    const missing = await invoke(dr, 'oci:DisasterRecovery/getDrPlans:getDrPlans', {});
    assert.deepEqual(missing.failures, ["drProtectionGroupId: missing required argument 'drProtectionGroupId'"]);
  });

  it('getDrProtectionGroups', async () => {
    const { result } = await invoke(dr, 'oci:DisasterRecovery/getDrProtectionGroups:getDrProtectionGroups', {
      compartmentId: env.sandbox.compartmentId,
      filters: [{ name: 'id', values: [env.sandbox.disasterRecovery.standbyProtectionGroupId] }],
    });
    const items = (result.drProtectionGroupCollections as Array<{ items: Props[] }>)[0].items;
    assert.equal(items.length, 1);
    assert.equal(items[0].role, 'STANDBY');
    assert.equal(items[0].state, 'ACTIVE');
  });

  it('getDrProtectionGroup: one group as pulumi-oci reads it (members, logLocations as lists)', async () => {
    const region = env.sandbox.disasterRecovery.standbyRegion;
    const id = env.sandbox.disasterRecovery.standbyProtectionGroupId;
    const { result } = await invoke(dr, 'oci:DisasterRecovery/getDrProtectionGroup:getDrProtectionGroup', {
      drProtectionGroupId: id,
    });
    const group = (await env.dr(region).getDrProtectionGroup({ drProtectionGroupId: id })).drProtectionGroup;
    assert.deepEqual(
      [result.id, result.drProtectionGroupId, result.displayName, result.role, result.state, result.peerId],
      [id, id, group.displayName, 'STANDBY', 'ACTIVE', group.peerId],
    );
    const members = result.members as Props[];
    assert.deepEqual(
      members.map((m) => [m.memberId, m.memberType]),
      (group.members ?? []).map((m) => [m.memberId, m.memberType]),
    );
    assert.ok(Array.isArray(result.logLocations), 'a single nested object is a list, as in pulumi-oci');
    const missing = await invoke(dr, 'oci:DisasterRecovery/getDrProtectionGroup:getDrProtectionGroup', {
      drProtectionGroupId: 'ocid1.drprotectiongroup.oc1.phx.amaaaaaanosuchgroup',
    }).catch((e: Error) => e);
    assert.match(String((missing as Error).message), /GetDrProtectionGroup failed: OCI 404/);
  });

  it('getModel, getProject and getProjects', async () => {
    const modelId = env.sandbox.aiLanguage.customModelIds.textClassification;
    const model = await invoke(ai, 'oci:AiLanguage/getModel:getModel', { id: modelId });
    const sdkModel = (await env.language(env.sandbox.homeRegion).getModel({ modelId })).model;
    assert.deepEqual(
      [model.result.id, model.result.displayName, model.result.state, model.result.projectId],
      [modelId, sdkModel.displayName, sdkModel.lifecycleState, sdkModel.projectId],
    );
    // OCI's single nested objects are pulumi-oci's one-element lists (modelDetails, testStrategies…).
    const details = model.result.modelDetails as Props[];
    assert.equal(details.length, 1);
    assert.equal(details[0].modelType, sdkModel.modelDetails.modelType);
    for (const k of ['trainingDatasets', 'testStrategies', 'evaluationResults'])
      assert.ok(Array.isArray(model.result[k]), k);

    const project = await invoke(ai, 'oci:AiLanguage/getProject:getProject', { id: sdkModel.projectId });
    assert.deepEqual([project.result.id, project.result.state], [sdkModel.projectId, 'ACTIVE']);
    const projects = await invoke(ai, 'oci:AiLanguage/getProjects:getProjects', {
      compartmentId: env.sandbox.compartmentId,
      filters: [{ name: 'id', values: [sdkModel.projectId] }],
    });
    const items = (projects.result.projectCollections as Array<{ items: Props[] }>)[0].items;
    assert.deepEqual(
      items.map((i) => i.id),
      [sdkModel.projectId],
    );
  });

  it('getEndpoint and getEndpoints', async () => {
    const one = await invoke(ai, 'oci:AiLanguage/getEndpoint:getEndpoint', { id: endpointId });
    assert.equal(one.result.displayName, 'inv-ep');
    assert.equal(one.result.state, 'ACTIVE');
    assert.equal(one.result.inferenceUnits, 1);
    const list = await invoke(ai, 'oci:AiLanguage/getEndpoints:getEndpoints', {
      compartmentId: env.sandbox.compartmentId,
      filters: [{ name: 'displayName', values: ['inv-ep'] }],
    });
    const items = (list.result.endpointCollections as Array<{ items: Props[] }>)[0].items;
    assert.deepEqual(
      items.map((i) => i.id),
      [endpointId],
    );
    // The endpoint has no description: the item reads '' (its zero value), yet a filter on it
    // passes nothing, as in pulumi-oci, whose item map has no description to compare.
    assert.equal(items[0]!.description, '');
    const described = await invoke(ai, 'oci:AiLanguage/getEndpoints:getEndpoints', {
      compartmentId: env.sandbox.compartmentId,
      filters: [{ name: 'description', values: [''] }],
    });
    assert.deepEqual((described.result.endpointCollections as Array<{ items: Props[] }>)[0].items, []);
  });

  it('getModels', async () => {
    const { result } = await invoke(ai, 'oci:AiLanguage/getModels:getModels', {
      compartmentId: env.sandbox.compartmentId,
    });
    const items = (result.modelCollections as Array<{ items: Props[] }>)[0].items;
    const ids = items.map((i) => i.id);
    assert.ok(ids.includes(env.sandbox.aiLanguage.customModelIds.textClassification));
    const sdk = await env.language(env.sandbox.homeRegion).listModels({ compartmentId: env.sandbox.compartmentId });
    assert.equal(items.length, sdk.modelCollection.items.length);
  });
});
