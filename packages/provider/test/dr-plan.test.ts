// DrPlan through the plugin, in the engine's call orders; every effect checked with the OCI SDK.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { DisasterRecoveryClient } from 'oci-disasterrecovery';
import {
  check,
  configuredPlugin,
  create,
  createPair,
  del,
  diff,
  DRPLAN,
  finished,
  initFailure,
  js,
  pb,
  struct,
  urn,
  read,
  secret,
  SECRET_SIG,
  startEnv,
  UNKNOWN,
  update,
  type Env,
  type Pair,
  type Plugin,
  type Props,
} from './support/harness';

describe('DrPlan', () => {
  let env: Env;
  let plugin: Plugin;
  let pair: Pair;
  let sdk: DisasterRecoveryClient;
  const plans = async (groupId: string, name?: string) =>
    (await sdk.listDrPlans({ drProtectionGroupId: groupId, displayName: name })).drPlanCollection.items.filter(
      (p) => p.lifecycleState !== 'DELETED' && p.lifecycleState !== 'DELETING',
    );
  const getPlan = async (id: string) => (await sdk.getDrPlan({ drPlanId: id })).drPlan;
  const workRequests = async () =>
    (await sdk.listWorkRequests({ compartmentId: pair.compartmentId })).workRequestSummaryCollection.items.length;
  const newPlan = async (name: string, extra: Props = {}) => {
    const inputs = { displayName: name, drProtectionGroupId: pair.standbyId, type: 'SWITCHOVER', ...extra };
    const c = await create(plugin, DRPLAN, name, inputs);
    return { id: c.id, outputs: c.outputs, inputs: c.checked };
  };

  before(async () => {
    env = await startEnv();
    pair = await createPair(env);
    sdk = pair.peer;
    plugin = await configuredPlugin(env, env.sandbox.disasterRecovery.standbyRegion);
  });
  after(async () => {
    await plugin?.close();
    await env?.close();
  });

  it('create: one ACTIVE plan with every output, as OCI has it', async () => {
    const s = await newPlan('create', { freeformTags: { team: 'dr' } });
    const plan = await getPlan(s.id);
    assert.equal(plan.lifecycleState, 'ACTIVE');
    assert.equal(plan.displayName, 'create');
    assert.deepEqual(plan.freeformTags, { team: 'dr' });
    for (const k of [
      'compartmentId',
      'peerDrProtectionGroupId',
      'peerRegion',
      'planGroups',
      'state',
      'timeCreated',
      'lifeCycleDetails',
    ])
      assert.ok(k in s.outputs || k === 'lifeCycleDetails', `output ${k}`);
    assert.equal(s.outputs.compartmentId, plan.compartmentId);
    assert.equal(s.outputs.peerRegion, plan.peerRegion);
    const groups = s.outputs.planGroups as Array<{ steps: unknown[]; id: string }>;
    assert.equal(groups.length, plan.planGroups.length);
    assert.equal(groups[0].id, plan.planGroups[0].id);
    assert.equal((await plans(pair.standbyId, 'create')).length, 1);
  });

  it('no change gives DIFF_NONE', async () => {
    const s = await newPlan('same');
    const d = await diff(
      plugin,
      DRPLAN,
      'same',
      s.id,
      s.outputs,
      s.inputs,
      await check(plugin, DRPLAN, 'same', s.inputs, s.inputs),
    );
    assert.equal(d.changes, 'NONE');
    assert.deepEqual(d.diffs, []);
  });

  it('updates displayName, freeformTags and definedTags in place', async () => {
    const s = await newPlan('inplace');
    const u1 = await update(plugin, DRPLAN, 'inplace', s, { ...s.inputs, displayName: 'renamed' });
    assert.deepEqual([u1.diff.changes, u1.diff.replaces, u1.diff.detailed], ['SOME', [], { displayName: 4 }]);
    assert.deepEqual(u1.diff.inputDiff, { displayName: true });
    assert.equal((await getPlan(s.id)).displayName, 'renamed');
    const u2 = await update(
      plugin,
      DRPLAN,
      'inplace',
      { id: s.id, outputs: u1.outputs, inputs: u1.inputs },
      {
        ...u1.inputs,
        freeformTags: { a: '1' },
      },
    );
    assert.deepEqual(u2.diff.diffs, ['freeformTags']);
    assert.deepEqual((await getPlan(s.id)).freeformTags, { a: '1' });
    const u3 = await update(
      plugin,
      DRPLAN,
      'inplace',
      { id: s.id, outputs: u2.outputs, inputs: u2.inputs },
      {
        ...u2.inputs,
        definedTags: { 'Operations.CostCenter': '42' },
      },
    );
    assert.deepEqual(u3.diff.diffs, ['definedTags']);
    assert.deepEqual((await getPlan(s.id)).definedTags?.Operations, { CostCenter: '42' });
    assert.equal(u3.outputs.displayName, 'renamed');
    assert.equal((await plans(pair.standbyId)).filter((p) => p.id === s.id).length, 1, 'same plan, not replaced');
  });

  it("a plan cloned from one with user-defined steps (and the service's prechecks of them) gives no diff", async () => {
    // The source gets a script and a function step through the SDK; OCI then adds their prechecks.
    const source = await newPlan('with-user-steps');
    const read0 = await getPlan(source.id);
    const r = await sdk.updateDrPlan({
      drPlanId: source.id,
      updateDrPlanDetails: {
        planGroups: [
          ...read0.planGroups,
          {
            displayName: 'App',
            type: 'USER_DEFINED',
            steps: [
              {
                displayName: 'start',
                userDefinedStep: {
                  stepType: 'RUN_LOCAL_SCRIPT',
                  runOnInstanceId: 'ocid1.instance.oc1.phx.amaaaaaauserstep',
                  scriptCommand: '/opt/start.sh',
                },
              },
              {
                displayName: 'notify',
                userDefinedStep: { stepType: 'INVOKE_FUNCTION', functionId: 'ocid1.fnfunc.oc1.phx.amaaaaaauserfn' },
              },
            ],
          },
        ] as never,
      },
    });
    await finished(sdk, r.opcWorkRequestId);
    const clone = await newPlan('clone-with-user-steps', { sourcePlanId: source.id });
    const groups = clone.outputs.planGroups as Array<{ type: string; steps: Array<{ type: string }> }>;
    const prechecks = groups
      .find((g) => g.type === 'BUILT_IN_PRECHECK')!
      .steps.filter((step) => step.type === 'USER_DEFINED_PRECHECK');
    assert.equal(prechecks.length, 2);
    const d = await diff(plugin, DRPLAN, 'clone-with-user-steps', clone.id, clone.outputs, clone.inputs, clone.inputs);
    assert.equal(d.changes, 'NONE');
    const refreshed = await read(plugin, DRPLAN, 'clone-with-user-steps', clone.id, clone.outputs, clone.inputs);
    assert.deepEqual(refreshed.outputs.planGroups, clone.outputs.planGroups);
    const again = await diff(
      plugin,
      DRPLAN,
      'clone-with-user-steps',
      clone.id,
      refreshed.outputs,
      refreshed.inputs,
      clone.inputs,
    );
    assert.equal(again.changes, 'NONE');
  });

  it('service-added Oracle-Tags and ignoreDefinedTags never cause a diff', async () => {
    const s = await newPlan('tags', { definedTags: { 'Operations.CostCenter': '1' } });
    const outputs = { ...s.outputs, definedTags: { 'Operations.CostCenter': '1', 'Oracle-Tags.CreatedBy': 'me' } };
    const oldInputs = { ...s.inputs, definedTags: { 'Operations.CostCenter': '1', 'Oracle-Tags.CreatedBy': 'me' } };
    assert.equal((await diff(plugin, DRPLAN, 'tags', s.id, outputs, oldInputs, s.inputs)).changes, 'NONE');
    const ignoring = await configuredPlugin(env, env.sandbox.disasterRecovery.standbyRegion, {
      ignoreDefinedTags: ['Operations.Owner'],
    });
    try {
      const news = { ...s.inputs, definedTags: { 'Operations.CostCenter': '1', 'Operations.Owner': 'x' } };
      assert.equal((await diff(ignoring, DRPLAN, 'tags', s.id, s.outputs, s.inputs, news)).changes, 'NONE');
    } finally {
      await ignoring.close();
    }
  });

  it("a defined tag key in another case is no change, as in pulumi-oci (OCI's tag keys are case-insensitive)", async () => {
    // OCI answers with the tag's own case (`Operations.CostCenter`) whatever case the program wrote.
    const s = await newPlan('tag-case', { definedTags: { 'Operations.CostCenter': '1' } });
    const lower = { ...s.inputs, definedTags: { 'operations.costcenter': '1' } };
    assert.equal((await diff(plugin, DRPLAN, 'tag-case', s.id, s.outputs, s.inputs, lower)).changes, 'NONE');
    // A value changed is still a change.
    const changed = { ...s.inputs, definedTags: { 'operations.costcenter': '2' } };
    assert.equal((await diff(plugin, DRPLAN, 'tag-case', s.id, s.outputs, s.inputs, changed)).changes, 'SOME');
    // ignoreDefinedTags names a key whatever its case (Terraform compares with strings.EqualFold).
    const ignoring = await configuredPlugin(env, env.sandbox.disasterRecovery.standbyRegion, {
      ignoreDefinedTags: ['operations.owner'],
    });
    try {
      const news = { ...s.inputs, definedTags: { 'Operations.CostCenter': '1', 'Operations.Owner': 'x' } };
      assert.equal((await diff(ignoring, DRPLAN, 'tag-case', s.id, s.outputs, s.inputs, news)).changes, 'NONE');
    } finally {
      await ignoring.close();
    }
  });

  for (const order of ['create-before-delete', 'delete-before-replace'] as const) {
    for (const field of ['type', 'drProtectionGroupId', 'sourcePlanId'] as const) {
      it(`replaces on ${field} (${order})`, async () => {
        const other = field === 'drProtectionGroupId' ? await createPair(env) : undefined;
        const source = field === 'sourcePlanId' ? await newPlan(`src-${order}`) : undefined;
        const name = `r-${field}-${order}`;
        const s = await newPlan(name);
        const news = {
          ...s.inputs,
          ...(field === 'type' ? { type: 'FAILOVER' } : {}),
          ...(other ? { drProtectionGroupId: other.standbyId } : {}),
          ...(source ? { sourcePlanId: source.id } : {}),
        };
        const checked = await check(plugin, DRPLAN, name, s.inputs, news);
        const d = await diff(plugin, DRPLAN, name, s.id, s.outputs, s.inputs, checked);
        assert.deepEqual(d.replaces, [field]);
        assert.equal(d.deleteBeforeReplace, false);
        assert.ok([1, 5].includes(d.detailed[field]), 'a *_REPLACE detailed diff');
        let created;
        if (order === 'create-before-delete') {
          created = await create(plugin, DRPLAN, name, news);
          await del(plugin, DRPLAN, name, s.id, s.outputs);
        } else {
          await del(plugin, DRPLAN, name, s.id, s.outputs);
          created = await create(plugin, DRPLAN, name, news);
        }
        assert.notEqual(created.id, s.id);
        const plan = await getPlan(created.id);
        assert.equal(plan.lifecycleState, 'ACTIVE');
        if (field === 'type') assert.equal(plan.type, 'FAILOVER');
        if (other) assert.equal(plan.drProtectionGroupId, other.standbyId);
        const old = await sdk.getDrPlan({ drPlanId: s.id }).then(
          (r) => r.drPlan.lifecycleState,
          (e) => e.statusCode,
        );
        assert.ok(old === 'DELETED' || old === 404, `old plan gone (${old})`);
        const live = await plans(other?.standbyId ?? pair.standbyId, name);
        assert.deepEqual(
          live.map((p) => p.id),
          [created.id],
          'exactly one plan of that name',
        );
      });
    }
  }

  describe('triggers', () => {
    const state = async (id: string) => {
      const p = await getPlan(id);
      return `${p.lifecycleState}/${p.lifecycleSubState ?? '-'}`;
    };

    it('refreshTrigger raised runs Refresh; verifyTrigger raised runs Verify', async () => {
      const s = await newPlan('trig1', { refreshTrigger: 1, verifyTrigger: 1 });
      await pair.touchMembers();
      assert.equal(await state(s.id), 'NEEDS_ATTENTION/NEEDS_REFRESH');
      const u1 = await update(plugin, DRPLAN, 'trig1', s, { ...s.inputs, refreshTrigger: 2 });
      assert.deepEqual(u1.diff.diffs, ['refreshTrigger']);
      assert.equal(await state(s.id), 'NEEDS_ATTENTION/NEEDS_VERIFICATION');
      assert.equal(u1.outputs.refreshTrigger, 2);
      const s2 = { id: s.id, outputs: u1.outputs, inputs: u1.inputs };
      const u2 = await update(plugin, DRPLAN, 'trig1', s2, { ...u1.inputs, verifyTrigger: 5 });
      assert.deepEqual(u2.diff.diffs, ['verifyTrigger']);
      assert.equal(await state(s.id), 'ACTIVE/-');
      assert.equal(u2.outputs.verifyTrigger, 5);
    });

    it('both raised: Refresh, then Verify, in one update', async () => {
      const s = await newPlan('trig2', { refreshTrigger: 1, verifyTrigger: 1 });
      await pair.touchMembers();
      const u = await update(plugin, DRPLAN, 'trig2', s, { ...s.inputs, refreshTrigger: 2, verifyTrigger: 2 });
      assert.deepEqual(u.diff.diffs.sort(), ['refreshTrigger', 'verifyTrigger']);
      assert.equal(await state(s.id), 'ACTIVE/-', 'refresh then verify ran');
      assert.deepEqual([u.outputs.refreshTrigger, u.outputs.verifyTrigger], [2, 2]);
    });

    it('a trigger with a name and tag change applies all of them', async () => {
      const s = await newPlan('trig3', { refreshTrigger: 1 });
      await pair.touchMembers();
      const u = await update(plugin, DRPLAN, 'trig3', s, {
        ...s.inputs,
        displayName: 'trig3-renamed',
        freeformTags: { x: 'y' },
        refreshTrigger: 2,
      });
      const plan = await getPlan(s.id);
      assert.equal(plan.displayName, 'trig3-renamed');
      assert.deepEqual(plan.freeformTags, { x: 'y' });
      assert.equal(`${plan.lifecycleState}/${plan.lifecycleSubState}`, 'NEEDS_ATTENTION/NEEDS_VERIFICATION');
      assert.equal(u.outputs.displayName, 'trig3-renamed');
    });

    it('a trigger set for the first time after create runs its action (unset is 0, as in pulumi-oci)', async () => {
      const s = await newPlan('trig7');
      assert.deepEqual([s.outputs.refreshTrigger, s.outputs.verifyTrigger], [0, 0], 'unset counters recorded as 0');
      const same = await diff(plugin, DRPLAN, 'trig7', s.id, s.outputs, s.inputs, { ...s.inputs });
      assert.equal(same.changes, 'NONE', 'the recorded 0 is no change while the program sets nothing');
      await pair.touchMembers();
      const u = await update(plugin, DRPLAN, 'trig7', s, { ...s.inputs, refreshTrigger: 1 });
      assert.deepEqual(u.diff.diffs, ['refreshTrigger']);
      assert.equal(await state(s.id), 'NEEDS_ATTENTION/NEEDS_VERIFICATION', 'refresh ran');
      assert.equal(u.outputs.refreshTrigger, 1);
      assert.equal(u.outputs.verifyTrigger, 0);
    });

    it('a lowered, unchanged or removed trigger runs nothing; absent → value after import is a baseline', async () => {
      const s = await newPlan('trig4', { refreshTrigger: 5 });
      const before = await workRequests();
      const same = await update(plugin, DRPLAN, 'trig4', s, { ...s.inputs });
      assert.equal(same.diff.changes, 'NONE');
      const lowered = await update(plugin, DRPLAN, 'trig4', s, { ...s.inputs, refreshTrigger: 3 });
      assert.equal(lowered.diff.changes, 'SOME');
      assert.equal(lowered.outputs.refreshTrigger, 3);
      const removed = await diff(plugin, DRPLAN, 'trig4', s.id, s.outputs, s.inputs, {
        ...s.inputs,
        refreshTrigger: undefined,
      });
      assert.equal(removed.changes, 'NONE', 'removing the trigger changes nothing');
      assert.equal(await workRequests(), before, 'no work request started');
      assert.equal(await state(s.id), 'ACTIVE/-');
      const d = await diff(
        plugin,
        DRPLAN,
        'trig4',
        s.id,
        // as an import's Read leaves them: no recorded counters, no inputs
        { ...s.outputs, refreshTrigger: null, verifyTrigger: null },
        {},
        {
          ...s.inputs,
          verifyTrigger: 7,
        },
      );
      assert.equal(d.changes, 'NONE');
    });

    it('a refusal (409) names the plan state and sub-state', async () => {
      const s = await newPlan('trig5', { verifyTrigger: 1 });
      await assert.rejects(
        update(plugin, DRPLAN, 'trig5', s, { ...s.inputs, verifyTrigger: 2 }),
        (e: Error) =>
          /DrPlan "trig5"/.test(e.message) &&
          /VerifyDrPlan/.test(e.message) &&
          /409 Conflict/.test(e.message) &&
          /the plan is ACTIVE/.test(e.message) &&
          /opc-request-id/.test(e.message),
      );
    });

    it('a refused action after a rename is a partial failure: the rename is kept, the trigger stays raised', async () => {
      const s = await newPlan('trig6', { refreshTrigger: 1 });
      const err = await update(plugin, DRPLAN, 'trig6', s, {
        ...s.inputs,
        displayName: 'trig6b',
        refreshTrigger: 2,
      }).then(
        () => assert.fail('expected a failure'),
        (e) => e,
      );
      const init = initFailure(err);
      assert.ok(init, 'ErrorResourceInitFailed detail');
      assert.equal(init.id, s.id);
      assert.equal(init.properties.displayName, 'trig6b');
      assert.equal(init.properties.refreshTrigger, 1, 'old counter kept so the action runs again');
      // Reported as a success's outputs are: with pulumi-oci's zero values, or a refresh sees drift.
      assert.equal(init.properties.sourcePlanId, '');
      assert.equal((await getPlan(s.id)).displayName, 'trig6b');
      await pair.touchMembers();
      const next = {
        id: s.id,
        outputs: init.properties,
        inputs: { ...s.inputs, displayName: 'trig6b', refreshTrigger: 2 },
      };
      const u = await update(plugin, DRPLAN, 'trig6', next, next.inputs);
      assert.deepEqual(u.diff.diffs, ['refreshTrigger']);
      // Against the recorded counter (1), not the old input (2): Pulumi shows `1 => 2`.
      assert.deepEqual(u.diff.inputDiff, { refreshTrigger: false });
      assert.equal(await state(s.id), 'NEEDS_ATTENTION/NEEDS_VERIFICATION');
    });
  });

  it('refresh (Read) after an out-of-band change and after an out-of-band delete', async () => {
    const s = await newPlan('oob');
    const r0 = await sdk.updateDrPlan({ drPlanId: s.id, updateDrPlanDetails: { displayName: 'changed-outside' } });
    assert.ok(r0);
    await new Promise((r) => setTimeout(r, 20));
    const r = await read(plugin, DRPLAN, 'oob', s.id, s.outputs, s.inputs);
    assert.equal(r.id, s.id);
    assert.equal(r.outputs.displayName, 'changed-outside');
    assert.equal(r.inputs.displayName, 'changed-outside');
    const d = await diff(plugin, DRPLAN, 'oob', s.id, r.outputs, r.inputs, s.inputs);
    assert.deepEqual(d.diffs, ['displayName'], 'the program wins back on the next update');
    await sdk.deleteDrPlan({ drPlanId: s.id });
    const gone = await read(plugin, DRPLAN, 'oob', s.id, r.outputs, r.inputs);
    assert.equal(gone.id, '');
  });

  it('import (Read with only an id) then no diff; get (Read with id + state)', async () => {
    const s = await newPlan('imp', { freeformTags: { k: 'v' } });
    const imported = await read(plugin, DRPLAN, 'imp', s.id);
    assert.equal(imported.id, s.id);
    assert.deepEqual(imported.inputs, {
      displayName: 'imp',
      drProtectionGroupId: pair.standbyId,
      type: 'SWITCHOVER',
      freeformTags: { k: 'v' },
    });
    const program = {
      displayName: 'imp',
      drProtectionGroupId: pair.standbyId,
      type: 'SWITCHOVER',
      freeformTags: { k: 'v' },
      refreshTrigger: 1,
    };
    // Every property is there, an input OCI does not report as null (no recorded counter), as
    // pulumi-oci's bridge returns the whole state: a program's `.get` reads it as known.
    assert.deepEqual([imported.outputs.refreshTrigger, imported.outputs.verifyTrigger], [null, null]);
    const checked = await check(plugin, DRPLAN, 'imp', imported.inputs, program);
    const d = await diff(plugin, DRPLAN, 'imp', s.id, imported.outputs, imported.inputs, checked);
    assert.equal(d.changes, 'NONE');
    // The program's first value was the baseline (the old inputs): raising it is a change.
    const raised = await diff(plugin, DRPLAN, 'imp', s.id, imported.outputs, checked, {
      ...checked,
      refreshTrigger: 2,
    });
    assert.deepEqual(raised.diffs, ['refreshTrigger']);
    const got = await read(plugin, DRPLAN, 'imp', s.id, { displayName: 'imp' });
    assert.equal(got.outputs.state, 'ACTIVE');
    assert.equal(got.outputs.peerRegion, (await getPlan(s.id)).peerRegion);
  });

  it('a create sent again with its key (an engine that lost the answer) adopts the first plan; another key, or none, creates anew', async () => {
    // ocikit's engine keys each create and records the key with the pending create: killed after
    // sending it, it sends the same Create (same key, URN and inputs) on its next run.
    const inputs = { displayName: 'resent', drProtectionGroupId: pair.standbyId, type: 'SWITCHOVER' };
    const keyed = (createKey?: string) => create(plugin, DRPLAN, 'resent', inputs, { createKey });
    const first = await keyed('2026-11-26T04:00:00.000Z');
    const again = await keyed('2026-11-26T04:00:00.000Z');
    assert.equal(again.id, first.id);
    assert.equal((await plans(pair.standbyId, 'resent')).length, 1);
    // A replacement (`--replace`) or the same program in another stack folder: another create.
    const replacement = await keyed('2026-11-26T04:00:01.000Z');
    assert.notEqual(replacement.id, first.id);
    // The Pulumi CLI sends no key (it leaves an interrupted create to the user): each is new.
    const unkeyed = [await keyed(), await keyed()];
    assert.notEqual(unkeyed[0].id, unkeyed[1].id);
    assert.equal((await plans(pair.standbyId, 'resent')).length, 4);
    // The key's first plan deleted since: the same create sent again makes a new one.
    await del(plugin, DRPLAN, 'resent', first.id, first.outputs);
    const recreated = await keyed('2026-11-26T04:00:00.000Z');
    assert.notEqual(recreated.id, first.id);
    assert.equal((await getPlan(recreated.id)).lifecycleState, 'ACTIVE');
    for (const plan of [replacement, ...unkeyed, recreated]) await del(plugin, DRPLAN, 'resent', plan.id, plan.outputs);
  });

  it('delete twice succeeds; the plan is gone', async () => {
    const s = await newPlan('twice');
    await del(plugin, DRPLAN, 'twice', s.id, s.outputs);
    await del(plugin, DRPLAN, 'twice', s.id, s.outputs);
    const st = await sdk.getDrPlan({ drPlanId: s.id }).then(
      (r) => r.drPlan.lifecycleState,
      (e) => e.statusCode,
    );
    assert.ok(st === 'DELETED' || st === 404);
  });

  it('preview with unknowns: planned outputs, nothing written', async () => {
    const before = (await plans(pair.standbyId)).length;
    const inputs = { displayName: UNKNOWN, drProtectionGroupId: pair.standbyId, type: 'SWITCHOVER' };
    const checked = await check(plugin, DRPLAN, 'pv', {}, inputs);
    const c = await create(plugin, DRPLAN, 'pv', checked, { preview: true });
    assert.equal(c.id, '');
    assert.equal(c.outputs.displayName, UNKNOWN);
    assert.equal(c.outputs.state, UNKNOWN);
    assert.equal(c.outputs.type, 'SWITCHOVER');
    const s = await newPlan('pv2');
    const d = await diff(plugin, DRPLAN, 'pv2', s.id, s.outputs, s.inputs, { ...s.inputs, displayName: UNKNOWN });
    assert.deepEqual(d.diffs, ['displayName']);
    const d2 = await diff(plugin, DRPLAN, 'pv2', s.id, s.outputs, s.inputs, { ...s.inputs, type: UNKNOWN });
    assert.deepEqual(d2.replaces, ['type']);
    const planned = await plugin.call<pb.UpdateResponse>(
      'update',
      new pb.UpdateRequest()
        .setUrn(urn(DRPLAN, 'pv2'))
        .setId(s.id)
        .setOlds(struct(s.outputs))
        .setOldInputs(struct(s.inputs))
        .setNews(struct({ ...s.inputs, displayName: UNKNOWN }))
        .setPreview(true),
    );
    assert.equal(js(planned.getProperties()).displayName, UNKNOWN);
    assert.equal((await getPlan(s.id)).displayName, 'pv2', 'preview of an update writes nothing');
    assert.equal((await plans(pair.standbyId)).length, before + 1, 'only pv2 was created');
  });

  it('secrets stay secret in every output', async () => {
    const inputs = {
      displayName: secret('hidden'),
      drProtectionGroupId: pair.standbyId,
      type: 'SWITCHOVER',
      freeformTags: { team: secret('dr'), plain: 'x' },
    };
    const checked = await check(plugin, DRPLAN, 'sec', {}, inputs);
    assert.equal((checked.displayName as Props)[SECRET_SIG], '1b47061264138c4ac30d75fd1eb44270');
    const c = await create(plugin, DRPLAN, 'sec', inputs);
    assert.deepEqual(c.outputs.displayName, secret('hidden'));
    assert.equal((await getPlan(c.id)).displayName, 'hidden', 'OCI got the plain value');
    const r = await read(plugin, DRPLAN, 'sec', c.id, c.outputs, checked);
    assert.deepEqual(r.outputs.displayName, secret('hidden'));
    assert.deepEqual(r.inputs.displayName, secret('hidden'));
    // A map's secret entry stays the secret, not the map (Pulumi's annotateSecrets): what the
    // program sends, so a tag changed outside is an update of that entry in the next preview.
    assert.deepEqual(c.outputs.freeformTags, { team: secret('dr'), plain: 'x' });
    assert.deepEqual(r.outputs.freeformTags, { team: secret('dr'), plain: 'x' });
    assert.deepEqual(r.inputs.freeformTags, { team: secret('dr'), plain: 'x' });
    const u = await update(
      plugin,
      DRPLAN,
      'sec',
      { id: c.id, outputs: c.outputs, inputs: checked },
      { ...checked, displayName: secret('hidden2') },
    );
    assert.deepEqual(u.outputs.displayName, secret('hidden2'));
  });
});
