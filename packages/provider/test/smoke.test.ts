import { test } from 'node:test';
import assert from 'node:assert/strict';
import { configuredPlugin, create, del, diff, DRPLAN, ENDPOINT, read, startEnv } from './support/harness';

test('smoke: DrPlan and Endpoint create, read, diff, delete', async () => {
  const env = await startEnv();
  const dr = env.sandbox.disasterRecovery;
  const plugin = await configuredPlugin(env, dr.standbyRegion);
  try {
    const inputs = { displayName: 'p1', drProtectionGroupId: dr.standbyProtectionGroupId, type: 'SWITCHOVER' };
    const c = await create(plugin, DRPLAN, 'p1', inputs);
    assert.match(c.id, /^ocid1\.drplan/);
    assert.equal(c.outputs.state, 'ACTIVE');
    const got = await env.dr(dr.standbyRegion).getDrPlan({ drPlanId: c.id });
    assert.equal(got.drPlan.displayName, 'p1');
    const d = await diff(plugin, DRPLAN, 'p1', c.id, c.outputs, c.checked, c.checked);
    assert.equal(d.changes, 'NONE');
    const r = await read(plugin, DRPLAN, 'p1', c.id);
    assert.equal(r.inputs.displayName, 'p1');
    await del(plugin, DRPLAN, 'p1', c.id, c.outputs);
    const after = await env
      .dr(dr.standbyRegion)
      .getDrPlan({ drPlanId: c.id })
      .catch((e) => e);
    assert.ok(after.statusCode === 404 || after.drPlan?.lifecycleState === 'DELETED');
  } finally {
    await plugin.close();
  }
  const ai = await configuredPlugin(env, env.sandbox.homeRegion);
  try {
    const c = await create(ai, ENDPOINT, 'e1', {
      compartmentId: env.sandbox.compartmentId,
      modelId: env.sandbox.aiLanguage.customModelIds.textClassification,
    });
    assert.equal(c.outputs.state, 'ACTIVE');
    assert.equal(c.outputs.inferenceUnits, 1);
    await del(ai, ENDPOINT, 'e1', c.id, c.outputs);
  } finally {
    await ai.close();
    await env.close();
  }
});
