import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { models } from 'oci-disasterrecovery';
import { newOcid } from '../../src/core/ids';
import { ociError, startTestEmulator, type TestEmulator } from '../support/emulator';
import { PEER_REGION, createPair, createPlan, finished, type Pair } from './fixtures';

const json = <T>(value: T): T => JSON.parse(JSON.stringify(value));
const asUpdate = (groups: unknown) => groups as models.UpdateDrPlanGroupDetails[];
const precheckGroup = (plan: models.DrPlan) => plan.planGroups.find((g) => g.type === 'BUILT_IN_PRECHECK')!;
const userPrechecks = (plan: models.DrPlan) =>
  precheckGroup(plan).steps.filter((s) => s.type === 'USER_DEFINED_PRECHECK');

describe('DR plans: the service prechecks of user-defined steps (official SDK)', () => {
  let t: TestEmulator;
  let pair: Pair;
  before(async () => {
    t = await startTestEmulator();
    pair = await createPair(t);
  });
  after(() => t.close());

  async function update(planId: string, planGroups: unknown): Promise<models.DrPlan> {
    const r = await pair.peer.updateDrPlan({
      drPlanId: planId,
      updateDrPlanDetails: { planGroups: asUpdate(planGroups) },
    });
    await finished(pair.peer, r.opcWorkRequestId);
    return (await pair.peer.getDrPlan({ drPlanId: planId })).drPlan;
  }

  const userGroup = {
    displayName: 'Application',
    type: 'USER_DEFINED',
    steps: [
      {
        displayName: 'Start app',
        userDefinedStep: {
          stepType: 'RUN_LOCAL_SCRIPT',
          runOnInstanceId: newOcid('instance', PEER_REGION),
          scriptCommand: '/opt/start.sh',
        },
      },
      {
        displayName: 'Notify',
        userDefinedStep: { stepType: 'INVOKE_FUNCTION', functionId: newOcid('fnfunc', PEER_REGION) },
      },
    ],
  };

  it('adds them on update, keeps them on a GET → UPDATE round trip, refuses edits, gives a clone its own, drops them with their steps', async () => {
    const plan = await createPlan(pair, { displayName: 'with user steps' });
    const builtInPrechecks = precheckGroup(plan).steps.length;
    assert.ok(builtInPrechecks > 0);
    assert.equal(userPrechecks(plan).length, 0);

    const withSteps = await update(plan.id, [...plan.planGroups, userGroup]);
    const user = withSteps.planGroups.find((g) => g.displayName === 'Application')!;
    const prechecks = precheckGroup(withSteps).steps.slice(builtInPrechecks);
    assert.deepEqual(
      prechecks.map((s) => [s.type, s.userDefinedStep?.stepType, s.displayName, s.groupId, s.isEnabled, s.memberId]),
      [
        [
          'USER_DEFINED_PRECHECK',
          'RUN_LOCAL_SCRIPT_PRECHECK',
          'Run Local Script Precheck - Start app',
          precheckGroup(withSteps).id,
          true,
          undefined,
        ],
        [
          'USER_DEFINED_PRECHECK',
          'INVOKE_FUNCTION_PRECHECK',
          'Invoke Function Precheck - Notify',
          precheckGroup(withSteps).id,
          true,
          undefined,
        ],
      ],
    );
    // The read model of these steps carries only the step type.
    assert.deepEqual(json(prechecks[0].userDefinedStep), { stepType: 'RUN_LOCAL_SCRIPT_PRECHECK' });
    assert.notEqual(prechecks[0].id, user.steps[0].id);

    // The planGroups as read, sent back whole (what terraform-provider-oci does): nothing changes.
    const again = await update(plan.id, withSteps.planGroups);
    assert.deepEqual(json(again.planGroups), json(withSteps.planGroups));

    // Editing one of them is refused and changes nothing.
    const edited = json(withSteps.planGroups).map((g) =>
      g.type === 'BUILT_IN_PRECHECK'
        ? { ...g, steps: g.steps.map((s) => (s.id === prechecks[0].id ? { ...s, timeout: 10 } : s)) }
        : g,
    );
    const refused = await ociError(() =>
      pair.peer.updateDrPlan({ drPlanId: plan.id, updateDrPlanDetails: { planGroups: asUpdate(edited) } }),
    );
    assert.deepEqual([refused.statusCode, refused.serviceCode], [400, 'InvalidParameter']);
    assert.match(refused.message, /cannot be edited/);

    // A clone's prechecks belong to the clone's own steps.
    const clone = await createPlan(pair, { displayName: 'clone', sourcePlanId: plan.id });
    const clonedUser = clone.planGroups.find((g) => g.displayName === 'Application')!;
    assert.equal(userPrechecks(clone).length, 2);
    assert.ok(userPrechecks(clone).every((s) => !prechecks.some((p) => p.id === s.id)));
    assert.ok(clonedUser.steps.every((s) => !user.steps.some((u) => u.id === s.id)));
    assert.ok(userPrechecks(clone).every((s) => s.groupId === precheckGroup(clone).id));

    // Disabling the user step disables its precheck; removing the user group removes both.
    const disabled = await update(
      plan.id,
      json(withSteps.planGroups).map((g) =>
        g.id === user.id ? { ...g, steps: [{ ...g.steps[0], isEnabled: false }, g.steps[1]] } : g,
      ),
    );
    assert.deepEqual(
      userPrechecks(disabled).map((s) => s.isEnabled),
      [false, true],
    );
    const removed = await update(
      plan.id,
      disabled.planGroups.filter((g) => g.id !== user.id),
    );
    assert.deepEqual(json(removed.planGroups), json(plan.planGroups));
  });
});
