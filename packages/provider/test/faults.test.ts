// Injected 429/503 faults, timeouts and Cancel: never a duplicate, never an untracked resource.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  configure,
  configuredPlugin,
  create,
  del,
  DRPLAN,
  Empty,
  endpointRoundTrip,
  ENDPOINT,
  initFailure,
  startEnv,
  update,
  type Env,
  type Plugin,
} from './support/harness';

const FAULTS = [
  { status: 429, code: 'TooManyRequests' },
  { status: 503, code: 'ServiceUnavailable' },
];

describe('faults', () => {
  let env: Env;
  let dr: Plugin;
  let ai: Plugin;
  before(async () => {
    env = await startEnv();
    dr = await configuredPlugin(env, env.sandbox.disasterRecovery.standbyRegion);
    ai = await configuredPlugin(env, env.sandbox.homeRegion);
  });
  after(async () => {
    await dr?.close();
    await ai?.close();
    await env?.close();
  });
  const group = () => env.sandbox.disasterRecovery.standbyProtectionGroupId;
  const livePlans = async (name: string) =>
    (
      await env
        .dr(env.sandbox.disasterRecovery.standbyRegion)
        .listDrPlans({ drProtectionGroupId: group(), displayName: name })
    ).drPlanCollection.items.filter((p) => !['DELETED', 'DELETING'].includes(p.lifecycleState));

  for (const f of FAULTS) {
    it(`DrPlan: ${f.status} on create, update and delete → exactly one plan, then none`, async () => {
      const name = `fault-${f.status}`;
      await env.emulator.admin.injectFault({
        operation: 'CreateDrPlan',
        status: f.status,
        code: f.code,
        count: 1,
      } as never);
      const c = await create(dr, DRPLAN, name, { displayName: name, drProtectionGroupId: group(), type: 'SWITCHOVER' });
      assert.deepEqual(
        (await livePlans(name)).map((p) => p.id),
        [c.id],
      );
      await env.emulator.admin.injectFault({
        operation: 'UpdateDrPlan',
        status: f.status,
        code: f.code,
        count: 1,
      } as never);
      const renamed = `${name}-b`;
      const u = await update(
        dr,
        DRPLAN,
        name,
        { id: c.id, outputs: c.outputs, inputs: c.checked },
        { ...c.checked, displayName: renamed },
      );
      assert.equal(u.outputs.displayName, renamed);
      assert.deepEqual(
        (await livePlans(renamed)).map((p) => p.id),
        [c.id],
      );
      await env.emulator.admin.injectFault({
        operation: 'DeleteDrPlan',
        status: f.status,
        code: f.code,
        count: 1,
      } as never);
      await del(dr, DRPLAN, name, c.id, u.outputs);
      assert.deepEqual(await livePlans(renamed), []);
    });

    it(`Endpoint: ${f.status} on create, update and delete → exactly one endpoint, then none`, async () => {
      const lang = env.language(env.sandbox.homeRegion);
      const name = `ep-fault-${f.status}`;
      const live = async () =>
        (
          await lang.listEndpoints({ compartmentId: env.sandbox.compartmentId, displayName: name })
        ).endpointCollection.items.filter((e) => !['DELETED', 'DELETING'].includes(e.lifecycleState));
      await env.emulator.admin.injectFault({
        operation: 'CreateEndpoint',
        status: f.status,
        code: f.code,
        count: 1,
      } as never);
      const c = await create(ai, ENDPOINT, name, {
        compartmentId: env.sandbox.compartmentId,
        modelId: env.sandbox.aiLanguage.customModelIds.textClassification,
        displayName: name,
      });
      assert.deepEqual(
        (await live()).map((e) => e.id),
        [c.id],
      );
      await env.emulator.admin.injectFault({
        operation: 'UpdateEndpoint',
        status: f.status,
        code: f.code,
        count: 1,
      } as never);
      const u = await update(
        ai,
        ENDPOINT,
        name,
        { id: c.id, outputs: c.outputs, inputs: c.checked },
        { ...c.checked, inferenceUnits: 2 },
      );
      assert.equal(u.outputs.inferenceUnits, 2);
      await env.emulator.admin.injectFault({
        operation: 'DeleteEndpoint',
        status: f.status,
        code: f.code,
        count: 1,
      } as never);
      await del(ai, ENDPOINT, name, c.id, u.outputs);
      assert.deepEqual(await live(), []);
    });
  }

  // drop-response: the operation runs and commits, but its answer never arrives (the socket is
  // destroyed). The SDK retries with the same opc-retry-token and the emulator replays the first
  // answer, so the plugin ends with exactly one resource and returns it.
  const drop = (operation: string) => env.emulator.admin.injectFault({ operation, kind: 'drop-response', count: 1 });
  /** The armed fault was used: the operation's first answer really was dropped. */
  const fired = async () => assert.deepEqual(await env.emulator.admin.listFaults(), []);

  it('DrPlan: dropped answers to create, update and delete → exactly one plan, returned, then none', async () => {
    const sdk = env.dr(env.sandbox.disasterRecovery.standbyRegion);
    const name = 'drop-plan';
    await drop('CreateDrPlan');
    const c = await create(dr, DRPLAN, name, { displayName: name, drProtectionGroupId: group(), type: 'SWITCHOVER' });
    await fired();
    assert.deepEqual(
      (await livePlans(name)).map((p) => p.id),
      [c.id],
    );
    const plan = (await sdk.getDrPlan({ drPlanId: c.id })).drPlan;
    assert.equal(plan.lifecycleState, 'ACTIVE');
    assert.equal(c.outputs.state, 'ACTIVE');
    assert.equal(c.outputs.displayName, name);

    await drop('UpdateDrPlan');
    const renamed = `${name}-b`;
    const state = { id: c.id, outputs: c.outputs, inputs: c.checked };
    const u = await update(dr, DRPLAN, name, state, { ...c.checked, displayName: renamed });
    await fired();
    assert.equal(u.outputs.displayName, renamed);
    assert.equal((await sdk.getDrPlan({ drPlanId: c.id })).drPlan.displayName, renamed);

    await drop('DeleteDrPlan');
    await del(dr, DRPLAN, renamed, c.id, u.outputs);
    await fired();
    assert.deepEqual(await livePlans(renamed), []);
  });

  it('Endpoint: dropped answers to create, update and delete → exactly one endpoint, returned, then none', async () => {
    const lang = env.language(env.sandbox.homeRegion);
    const name = 'drop-endpoint';
    const live = async () =>
      (
        await lang.listEndpoints({ compartmentId: env.sandbox.compartmentId, displayName: name })
      ).endpointCollection.items.filter((e) => !['DELETED', 'DELETING'].includes(e.lifecycleState));
    await drop('CreateEndpoint');
    const c = await create(ai, ENDPOINT, name, {
      compartmentId: env.sandbox.compartmentId,
      modelId: env.sandbox.aiLanguage.customModelIds.textClassification,
      displayName: name,
    });
    await fired();
    assert.deepEqual(
      (await live()).map((e) => e.id),
      [c.id],
    );
    assert.equal((await lang.getEndpoint({ endpointId: c.id })).endpoint.lifecycleState, 'ACTIVE');
    assert.equal(c.outputs.state, 'ACTIVE');

    await drop('UpdateEndpoint');
    const u = await update(
      ai,
      ENDPOINT,
      name,
      { id: c.id, outputs: c.outputs, inputs: c.checked },
      {
        ...c.checked,
        inferenceUnits: 2,
      },
    );
    await fired();
    assert.equal(u.outputs.inferenceUnits, 2);
    assert.equal((await lang.getEndpoint({ endpointId: c.id })).endpoint.inferenceUnits, 2);

    await drop('DeleteEndpoint');
    await del(ai, ENDPOINT, name, c.id, u.outputs);
    await fired();
    assert.deepEqual(await live(), []);
  });
});

describe('waiting: timeouts and Cancel', () => {
  let env: Env;
  before(async () => {
    env = await startEnv({ transitionDelaySeconds: 30 });
  });
  after(() => env?.close());

  it('a create that outlives customTimeouts is a partial failure carrying the id (tracked, not orphaned)', async () => {
    const p = await configuredPlugin(env, env.sandbox.disasterRecovery.standbyRegion);
    try {
      const dr = env.sandbox.disasterRecovery;
      const err = await create(
        p,
        DRPLAN,
        'slow',
        { displayName: 'slow', drProtectionGroupId: dr.standbyProtectionGroupId, type: 'SWITCHOVER' },
        { timeout: 1 },
      ).then(
        () => assert.fail('expected a timeout'),
        (e) => e,
      );
      assert.match(err.details, /timed out/);
      const init = initFailure(err);
      assert.ok(init?.id.startsWith('ocid1.drplan'), 'the id is returned');
      const plan = (await env.dr(dr.standbyRegion).getDrPlan({ drPlanId: init!.id })).drPlan;
      assert.equal(plan.lifecycleState, 'CREATING');
      assert.equal(init!.properties.state, 'CREATING');
    } finally {
      await p.close();
    }
  });

  it('Cancel stops every wait at once; resources being created come back as partial failures', async () => {
    const p = await configuredPlugin(env, env.sandbox.disasterRecovery.standbyRegion);
    try {
      const dr = env.sandbox.disasterRecovery;
      const inputs = (n: string) => ({
        displayName: n,
        drProtectionGroupId: dr.standbyProtectionGroupId,
        type: 'SWITCHOVER',
      });
      const waits = [create(p, DRPLAN, 'c1', inputs('c1')), create(p, DRPLAN, 'c2', inputs('c2'))].map((w) =>
        w.then(
          () => assert.fail('expected cancellation'),
          (e) => e,
        ),
      );
      await new Promise((r) => setTimeout(r, 1500));
      await p.call('cancel', new Empty());
      const errors = await Promise.all(waits);
      for (const e of errors) {
        assert.match(e.details, /cancelled/);
        const init = initFailure(e);
        assert.ok(init, 'partial failure with id');
        const plan = (await env.dr(dr.standbyRegion).getDrPlan({ drPlanId: init.id })).drPlan;
        assert.equal(plan.lifecycleState, 'CREATING', 'returned before the 30 s transition ended');
      }
    } finally {
      await p.close();
    }
  });
});

describe('Cancel ends with the run it was sent in', () => {
  let env: Env;
  before(async () => {
    env = await startEnv();
  });
  after(() => env?.close());

  it("a plugin configured again after a Cancel (an attached engine's next run) waits again", async () => {
    // With PULUMI_DEBUG_PROVIDERS the plugin outlives the engine run that cancelled it (Ctrl-C):
    // the next run shakes hands, attaches and configures it again, then creates.
    const p = await configuredPlugin(env, env.sandbox.homeRegion);
    try {
      await p.call('cancel', new Empty());
      await configure(p, env, env.sandbox.homeRegion);
      assert.equal(await endpointRoundTrip(p, env, 'after-cancel'), 'ACTIVE');
    } finally {
      await p.close();
    }
  });
});
