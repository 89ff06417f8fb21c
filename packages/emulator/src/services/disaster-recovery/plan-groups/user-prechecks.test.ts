import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type PlanGroup,
  applyPlanGroupsUpdate,
  clonePlanGroups,
  isUserStepPrecheck,
  userStepPrecheckId,
} from './index';
import { P, REGION, assertOciError, customisedPlan, generate, groupNamed, json, ocid, scriptStep } from './fixtures';

const prechecksOf = (groups: PlanGroup[]) =>
  groupNamed(groups, 'Prechecks - Built In').steps.filter(isUserStepPrecheck);
const update = (groups: PlanGroup[], request: unknown) => applyPlanGroupsUpdate(groups, request, { region: REGION });
const fn = (name: string) => ({
  displayName: name,
  userDefinedStep: { stepType: 'INVOKE_FUNCTION', functionId: ocid('fnfunc', 'phx', 'fun00002') },
});

describe('the service prechecks of user-defined steps', () => {
  it('adds one USER_DEFINED_PRECHECK per script or function step, after the built-in prechecks', () => {
    const plan = customisedPlan();
    const user = groupNamed(plan, 'Application start');
    const group = groupNamed(plan, 'Prechecks - Built In');
    const builtInCount = group.steps.length - user.steps.length;
    assert.ok(group.steps.slice(0, builtInCount).every((s) => !isUserStepPrecheck(s)));
    const [first, , warm] = user.steps;
    assert.deepEqual(group.steps[builtInCount], {
      id: userStepPrecheckId(first.id),
      groupId: group.id,
      type: 'USER_DEFINED_PRECHECK',
      displayName: `Run Local Script Precheck - ${first.displayName}`,
      typeDisplayName: 'User Defined Precheck',
      errorMode: 'STOP_ON_ERROR',
      timeout: 3600,
      isEnabled: true,
      userDefinedStep: { stepType: 'RUN_LOCAL_SCRIPT_PRECHECK' },
    });
    assert.deepEqual(group.steps[builtInCount + 2].userDefinedStep, { stepType: 'INVOKE_FUNCTION_PRECHECK' });
    assert.equal(group.steps[builtInCount + 2].displayName, 'Invoke Function Precheck - Warm caches');
    assert.equal(warm.displayName, 'Warm caches');
    assert.notEqual(userStepPrecheckId(first.id), first.id);
  });

  it('an object-storage script step gets RUN_OBJECTSTORE_SCRIPT_PRECHECK, a custom precheck step none', () => {
    const plan = customisedPlan();
    const request = json(plan).map((g) =>
      g.displayName === 'Application start'
        ? {
            ...g,
            steps: [
              {
                displayName: 'From the bucket',
                userDefinedStep: {
                  stepType: 'RUN_OBJECTSTORE_SCRIPT',
                  runOnInstanceId: P.movable.memberId,
                  objectStorageScriptLocation: { namespace: 'ns', bucket: 'b', object: 'run.sh' },
                },
              },
              {
                displayName: 'Custom check',
                userDefinedStep: {
                  stepType: 'RUN_LOCAL_SCRIPT_USER_DEFINED_CUSTOM_PRECHECK',
                  runOnInstanceId: P.movable.memberId,
                  scriptCommand: '/opt/check.sh',
                },
              },
            ],
          }
        : g,
    );
    const updated = update(plan, request);
    const user = groupNamed(updated, 'Application start');
    assert.deepEqual(
      prechecksOf(updated).map((s) => [s.id, s.userDefinedStep?.stepType]),
      [[userStepPrecheckId(user.steps[0].id), 'RUN_OBJECTSTORE_SCRIPT_PRECHECK']],
    );
  });

  it('follows the user steps when they are added, moved, renamed, disabled and removed', () => {
    const plan = customisedPlan();
    const request = json(plan);
    const user = request.find((g) => g.displayName === 'Application start')!;
    const [a, b, c] = user.steps;
    // c moves to a new group placed first among the user groups; b is renamed and disabled; a is removed.
    user.steps = [{ ...b, displayName: 'Notify ops', isEnabled: false }];
    const at = request.indexOf(user);
    request.splice(at, 0, { type: 'USER_DEFINED', displayName: 'Early', steps: [c, fn('New function')] } as never);
    assertOciError(() => update(plan, request), { code: 'InvalidParameter', includes: ['does not match any step'] });
    // Steps belong to their group (ids are per group): moving is remove + add.
    request[at] = { type: 'USER_DEFINED', displayName: 'Early', steps: [fn('Moved'), fn('New function')] } as never;
    const updated = update(plan, request);
    const early = groupNamed(updated, 'Early');
    const after = groupNamed(updated, 'Application start');
    assert.deepEqual(
      prechecksOf(updated).map((s) => [s.id, s.displayName, s.isEnabled]),
      [
        [userStepPrecheckId(early.steps[0].id), 'Invoke Function Precheck - Moved', true],
        [userStepPrecheckId(early.steps[1].id), 'Invoke Function Precheck - New function', true],
        [userStepPrecheckId(b.id), 'Run Local Script Precheck - Notify ops', false],
      ],
    );
    assert.equal(after.steps[0].id, b.id);
    assert.ok(!prechecksOf(updated).some((s) => s.id === userStepPrecheckId(a.id)));
    // Moving a user group after another reorders the prechecks with it.
    const swapped = json(updated);
    const i = swapped.findIndex((g) => g.displayName === 'Early');
    const j = swapped.findIndex((g) => g.displayName === 'Application start');
    [swapped[i], swapped[j]] = [swapped[j], swapped[i]];
    assert.deepEqual(
      prechecksOf(update(updated, swapped)).map((s) => s.id),
      [b.id, early.steps[0].id, early.steps[1].id].map(userStepPrecheckId),
    );
  });

  it('a GET sent back changes nothing, also when it renames a user step in the same request', () => {
    const plan = customisedPlan();
    assert.deepEqual(update(plan, json(plan)), plan);
    const request = json(plan);
    const user = request.find((g) => g.displayName === 'Application start')!;
    user.steps[0].displayName = 'Start the app';
    const updated = update(plan, request);
    assert.equal(prechecksOf(updated)[0].displayName, 'Run Local Script Precheck - Start the app');
    // Sending the new values back is a no-op too.
    assert.deepEqual(update(updated, json(updated)), updated);
  });

  it('cannot be edited, added or removed by the user', () => {
    const plan = customisedPlan();
    const edit = (change: Record<string, unknown>) =>
      json(plan).map((g) =>
        g.type === 'BUILT_IN_PRECHECK'
          ? { ...g, steps: g.steps.map((s) => (isUserStepPrecheck(s) ? { ...s, ...change } : s)) }
          : g,
      );
    for (const change of [
      { timeout: 60 },
      { isEnabled: false },
      { errorMode: 'CONTINUE_ON_ERROR' },
      { displayName: 'x' },
    ])
      assertOciError(() => update(plan, edit(change)), {
        code: 'InvalidParameter',
        includes: [Object.keys(change)[0], 'precheck the service adds', 'cannot be edited'],
      });
    // Omitted from the request: they stay.
    const omitted = json(plan).map((g) =>
      g.type === 'BUILT_IN_PRECHECK' ? { ...g, steps: g.steps.filter((s) => !isUserStepPrecheck(s)) } : g,
    );
    assert.deepEqual(update(plan, omitted), plan);
    // Not creatable: a new step in the precheck group, or a user step of a precheck kind.
    assertOciError(
      () =>
        update(
          plan,
          json(plan).map((g) =>
            g.displayName === 'Application start'
              ? { ...g, steps: [{ userDefinedStep: { stepType: 'RUN_LOCAL_SCRIPT_PRECHECK' } }] }
              : g,
          ),
        ),
      { code: 'InvalidParameter', includes: ['stepType'] },
    );
  });

  it('creates the precheck group first when a plan without one gets a user step, and removes it when none is left', () => {
    const empty = generate('SWITCHOVER', [], []);
    assert.deepEqual(empty, []);
    const withStep = update(empty, [
      { type: 'USER_DEFINED', displayName: 'Only', steps: [scriptStep(P.movable.memberId)] },
    ]);
    assert.deepEqual(
      withStep.map((g) => [g.type, g.displayName, g.steps.length]),
      [
        ['BUILT_IN_PRECHECK', 'Prechecks - Built In', 1],
        ['USER_DEFINED', 'Only', 1],
      ],
    );
    assert.deepEqual(update(withStep, json(withStep)), withStep);
    // The precheck group is the service's: it must still be listed, and goes once it is empty.
    assertOciError(() => update(withStep, json(withStep).slice(1)), {
      code: 'InvalidParameter',
      includes: ['BUILT_IN_PRECHECK', 'cannot be removed'],
    });
    assert.deepEqual(update(withStep, [json(withStep)[0]]), []);
  });

  it('a clone gets prechecks of its own steps', () => {
    const plan = customisedPlan();
    const clone = clonePlanGroups(plan);
    const user = groupNamed(clone, 'Application start');
    assert.deepEqual(
      prechecksOf(clone).map((s) => s.id),
      user.steps.map((s) => userStepPrecheckId(s.id)),
    );
    assert.equal(prechecksOf(clone)[0].groupId, groupNamed(clone, 'Prechecks - Built In').id);
  });
});
