import assert from 'node:assert/strict';
import { type PlanStep, applyPlanGroupsUpdate, refreshPlanGroups } from './index';
import {
  P,
  REGION,
  S,
  assertOciError,
  customisedPlan,
  generate,
  groupNamed,
  json,
  names,
  ocid,
  primaryMembers,
  scriptStep,
  standbyMembers,
  terraformForm,
} from './fixtures';
import { describe, it } from 'node:test';

// ---------------------------------------------------------------------------------------------
// applyPlanGroupsUpdate
// ---------------------------------------------------------------------------------------------

describe('applyPlanGroupsUpdate', () => {
  it("accepts the plan's own planGroups as GET returns them and changes nothing", () => {
    const plan = customisedPlan();
    assert.deepEqual(applyPlanGroupsUpdate(plan, json(plan), { region: REGION }), plan);
    // Also with refresh labels present (an update between refresh and verify).
    const refreshed = refreshPlanGroups(plan, generate('SWITCHOVER', primaryMembers.slice(1), standbyMembers));
    assert.deepEqual(applyPlanGroupsUpdate(refreshed, json(refreshed), { region: 'eu-frankfurt-1' }), refreshed);
  });

  it('accepts the Terraform form (no read-only fields, no isPauseEnabled, "" for unset optionals) and changes nothing', () => {
    const plan = customisedPlan();
    const form = terraformForm(plan);
    assert.ok(!JSON.stringify(form).includes('isPauseEnabled') && !JSON.stringify(form).includes('Region'));
    assert.deepEqual(applyPlanGroupsUpdate(plan, form, { region: 'eu-frankfurt-1' }), plan);
    // A paused pause group stays paused when Terraform omits the flag.
    const paused = applyPlanGroupsUpdate(
      plan,
      json(plan).map((g) => (g.type === 'USER_DEFINED_PAUSE' ? { ...g, isPauseEnabled: false } : g)),
      { region: REGION },
    );
    assert.equal(groupNamed(paused, 'Wait for DBA').isPauseEnabled, false);
    assert.equal(
      groupNamed(applyPlanGroupsUpdate(paused, terraformForm(paused), { region: REGION }), 'Wait for DBA')
        .isPauseEnabled,
      false,
    );
  });

  it('creates user-defined groups and steps with defaults, step types and regions', () => {
    const plan = customisedPlan();
    const user = groupNamed(plan, 'Application start');
    assert.match(user.id, /^sgid1\.group\.\./);
    const [local, remote, fn] = user.steps;
    assert.deepEqual(local, {
      id: local.id,
      groupId: user.id,
      type: 'USER_DEFINED',
      displayName: 'Start app on app00001',
      typeDisplayName: 'User Defined',
      errorMode: 'STOP_ON_ERROR',
      timeout: 3600,
      isEnabled: true,
      userDefinedStep: {
        stepType: 'RUN_LOCAL_SCRIPT',
        runOnInstanceId: P.movable.memberId,
        runOnInstanceRegion: 'us-ashburn-1',
        scriptCommand: '/opt/app/start.sh',
      },
    });
    assert.equal(remote.userDefinedStep!.runOnInstanceRegion, 'us-phoenix-1');
    assert.deepEqual(fn.userDefinedStep, {
      stepType: 'INVOKE_FUNCTION',
      functionId: ocid('fnfunc', 'phx', 'fun00001'),
      functionRegion: 'us-phoenix-1',
      requestBody: '{"warm":true}',
    });
    assert.equal(fn.errorMode, 'CONTINUE_ON_ERROR');
    assert.equal(fn.timeout, 300);
    assert.match(local.id, /^sgid1\.step\.\./);
    const pause = groupNamed(plan, 'Wait for DBA');
    assert.deepEqual(pause, {
      id: pause.id,
      type: 'USER_DEFINED_PAUSE',
      displayName: 'Wait for DBA',
      steps: [],
      isPauseEnabled: true,
    });
    assert.deepEqual(json(plan), plan);
  });

  it("adds custom prechecks and object-store scripts, filling the region from the OCID or the emulator's region", () => {
    const plan = generate('SWITCHOVER', [P.volumeGroup], [S.database]);
    const regionless = 'ocid1.instance.oc1..amaaaaaaaexamplenoregion';
    const updated = applyPlanGroupsUpdate(
      plan,
      [
        ...json(plan),
        {
          type: 'USER_DEFINED',
          displayName: 'Checks',
          steps: [
            {
              userDefinedStep: {
                stepType: 'RUN_OBJECTSTORE_SCRIPT_USER_DEFINED_CUSTOM_PRECHECK',
                runOnInstanceId: regionless,
                objectStorageScriptLocation: { namespace: 'ns', bucket: 'scripts', object: 'check.sh' },
                runAsUser: 'opc',
              },
            },
            {
              userDefinedStep: {
                stepType: 'INVOKE_FUNCTION_USER_DEFINED_CUSTOM_PRECHECK',
                functionId: ocid('fnfunc', 'iad', 'chk00001'),
              },
            },
          ],
        },
      ],
      { region: 'eu-frankfurt-1' },
    );
    const [script, fn] = groupNamed(updated, 'Checks').steps;
    assert.equal(script.type, 'USER_DEFINED_CUSTOM_PRECHECK');
    assert.equal(script.typeDisplayName, 'User Defined Custom Precheck');
    assert.equal(script.displayName, 'Run Objectstore Script User Defined Custom Precheck');
    assert.deepEqual(script.userDefinedStep, {
      stepType: 'RUN_OBJECTSTORE_SCRIPT_USER_DEFINED_CUSTOM_PRECHECK',
      runOnInstanceId: regionless,
      runOnInstanceRegion: 'eu-frankfurt-1',
      objectStorageScriptLocation: { namespace: 'ns', bucket: 'scripts', object: 'check.sh' },
      runAsUser: 'opc',
    });
    assert.equal(fn.type, 'USER_DEFINED_CUSTOM_PRECHECK');
    assert.equal(fn.userDefinedStep!.functionRegion, 'us-ashburn-1');

    // The regions are not part of the update models: re-sending the step (without them, from
    // another region's emulator) keeps the region worked out when the step was created.
    const resent = applyPlanGroupsUpdate(updated, terraformForm(updated), { region: 'ap-tokyo-1' });
    assert.deepEqual(resent, updated);
    const moved = applyPlanGroupsUpdate(
      updated,
      json(updated).map((g) =>
        g.displayName === 'Checks'
          ? {
              ...g,
              steps: [
                {
                  ...g.steps[0],
                  userDefinedStep: {
                    ...g.steps[0].userDefinedStep!,
                    runOnInstanceId: 'ocid1.instance.oc1..amaaaaaaaexampleother',
                  },
                },
              ],
            }
          : g,
      ),
      { region: 'ap-tokyo-1' },
    );
    assert.equal(
      groupNamed(moved, 'Checks').steps[0].userDefinedStep!.runOnInstanceRegion,
      'ap-tokyo-1',
      'a new instance gets a new region',
    );
  });

  it('reorders groups, including built-in ones', () => {
    const plan = customisedPlan();
    const reversed = json(plan).reverse();
    const updated = applyPlanGroupsUpdate(plan, reversed, { region: REGION });
    assert.deepEqual(
      updated.map((g) => g.id),
      plan.map((g) => g.id).reverse(),
    );
    assert.deepEqual(updated, [...plan].reverse());
  });

  it('deletes user-defined groups left out and edits, reorders and removes user-defined steps', () => {
    const plan = customisedPlan();
    const request = json(plan).filter((g) => g.displayName !== 'Wait for DBA');
    const user = request.find((g) => g.displayName === 'Application start')!;
    const [local, remote, fn] = user.steps;
    user.displayName = 'App start (renamed)';
    user.steps = [
      { id: fn.id, timeout: 900 } as PlanStep,
      {
        id: local.id,
        isEnabled: false,
        userDefinedStep: {
          stepType: 'RUN_LOCAL_SCRIPT',
          runOnInstanceId: S.nonMovable.memberId,
          scriptCommand: 'start',
        },
      } as PlanStep,
    ];
    const updated = applyPlanGroupsUpdate(plan, request, { region: REGION });
    assert.ok(!names(updated).includes('Wait for DBA'));
    const group = groupNamed(updated, 'App start (renamed)');
    assert.deepEqual(
      group.steps.map((s) => s.id),
      [fn.id, local.id],
    );
    assert.ok(!group.steps.some((s) => s.id === remote.id));
    assert.equal(group.steps[0].timeout, 900);
    assert.equal(group.steps[0].errorMode, 'CONTINUE_ON_ERROR', 'omitted fields keep their value');
    assert.equal(group.steps[0].displayName, 'Warm caches');
    assert.equal(group.steps[1].isEnabled, false);
    assert.deepEqual(group.steps[1].userDefinedStep, {
      stepType: 'RUN_LOCAL_SCRIPT',
      runOnInstanceId: S.nonMovable.memberId,
      runOnInstanceRegion: 'us-phoenix-1',
      scriptCommand: 'start',
    });
    // A user-defined group listed without steps keeps them.
    const kept = applyPlanGroupsUpdate(
      updated,
      json(updated).map((g) => (g.id === group.id ? { id: g.id } : g)),
      { region: REGION },
    );
    assert.deepEqual(groupNamed(kept, 'App start (renamed)'), group);
  });

  it('lets built-in steps be customised but keeps their membership and order', () => {
    const plan = customisedPlan();
    const request = json(plan);
    const stop = request.find((g) => g.displayName === 'Compute Instances - Stop')!;
    const [movableStop, nonMovableStop] = stop.steps;
    stop.steps = [
      {
        id: nonMovableStop.id,
        isEnabled: false,
        errorMode: 'CONTINUE_ON_ERROR',
        timeout: 60,
        displayName: 'Stop batch',
      } as PlanStep,
    ];
    const updated = applyPlanGroupsUpdate(plan, request, { region: REGION });
    const group = groupNamed(updated, 'Compute Instances - Stop');
    assert.deepEqual(group.steps[0], movableStop, 'omitted built-in steps stay unchanged');
    assert.deepEqual(group.steps[1], {
      ...nonMovableStop,
      isEnabled: false,
      errorMode: 'CONTINUE_ON_ERROR',
      timeout: 60,
      displayName: 'Stop batch',
    });
    // Built-in groups listed without steps keep theirs.
    const bare = applyPlanGroupsUpdate(
      plan,
      json(plan).map((g) => ({ id: g.id })),
      { region: REGION },
    );
    assert.deepEqual(bare, plan);
  });

  it('changes a pause flag and ignores refreshStatus in the request', () => {
    const plan = customisedPlan();
    const request = json(plan).map((g) =>
      g.type === 'USER_DEFINED_PAUSE'
        ? { ...g, isPauseEnabled: false, refreshStatus: 'GROUP_ADDED' }
        : { ...g, refreshStatus: 'GROUP_DELETED' },
    );
    const updated = applyPlanGroupsUpdate(plan, request, { region: REGION });
    assert.equal(groupNamed(updated, 'Wait for DBA').isPauseEnabled, false);
    assert.ok(updated.every((g) => !('refreshStatus' in g)));
  });

  describe('validation', () => {
    const plan = customisedPlan();
    const userIndex = plan.findIndex((g) => g.displayName === 'Application start');
    const pauseIndex = plan.findIndex((g) => g.type === 'USER_DEFINED_PAUSE');
    const stopIndex = plan.findIndex((g) => g.displayName === 'Compute Instances - Stop');
    const apply = (request: unknown) => () => applyPlanGroupsUpdate(plan, request, { region: REGION });
    /** The plan's own groups with entry `index` replaced by `entry(original)`. */
    const withGroup = (index: number, entry: (g: Record<string, unknown>) => unknown) =>
      json(plan).map((g, i) => (i === index ? entry(g as unknown as Record<string, unknown>) : g));
    const withUserStep = (step: unknown) =>
      withGroup(userIndex, (g) => ({ ...g, steps: [...(g.steps as unknown[]), step] }));
    const newStepPath = `planGroups[${userIndex}].steps[3]`;

    const cases: Array<[string, unknown, string, string[]]> = [
      ['planGroups not an array', { groups: [] }, 'InvalidParameter', ['planGroups must be an array']],
      [
        'entry not an object',
        [...json(plan), 'x'],
        'InvalidParameter',
        [`planGroups[${plan.length}] must be a JSON object`],
      ],
      [
        'unknown group id',
        withGroup(1, (g) => ({ ...g, id: 'sgid1.group..nope' })),
        'InvalidParameter',
        ['planGroups[1].id', 'sgid1.group..nope'],
      ],
      [
        'group id not a string',
        withGroup(1, (g) => ({ ...g, id: 42 })),
        'InvalidParameter',
        ['planGroups[1].id must be a non-empty string'],
      ],
      [
        'repeated group id',
        [...json(plan), json(plan)[userIndex]],
        'InvalidParameter',
        [`planGroups[${plan.length}].id`, 'more than once'],
      ],
      [
        'built-in group missing',
        json(plan).filter((_, i) => i !== stopIndex),
        'InvalidParameter',
        ["'Compute Instances - Stop'", 'cannot be removed'],
      ],
      [
        'group type changed',
        withGroup(stopIndex, (g) => ({ ...g, type: 'USER_DEFINED' })),
        'InvalidParameter',
        [`planGroups[${stopIndex}].type cannot be changed`],
      ],
      [
        'unknown group type',
        withGroup(stopIndex, (g) => ({ ...g, type: 'MANUAL' })),
        'InvalidParameter',
        [`planGroups[${stopIndex}].type must be one of`],
      ],
      [
        'built-in group renamed',
        withGroup(stopIndex, (g) => ({ ...g, displayName: 'Stop it' })),
        'InvalidParameter',
        [`planGroups[${stopIndex}].displayName`],
      ],
      [
        'empty display name',
        withGroup(userIndex, (g) => ({ ...g, displayName: ' ' })),
        'InvalidParameter',
        [`planGroups[${userIndex}].displayName must be a non-empty string`],
      ],
      [
        'new group without type',
        [...json(plan), { displayName: 'X' }],
        'MissingParameter',
        [`planGroups[${plan.length}].type`],
      ],
      [
        'new group without displayName',
        [...json(plan), { type: 'USER_DEFINED' }],
        'MissingParameter',
        [`planGroups[${plan.length}].displayName`],
      ],
      [
        'new BUILT_IN group',
        [...json(plan), { type: 'BUILT_IN', displayName: 'X' }],
        'InvalidParameter',
        [`planGroups[${plan.length}].type BUILT_IN cannot be created`],
      ],
      [
        'new BUILT_IN_PRECHECK group',
        [...json(plan), { type: 'BUILT_IN_PRECHECK', displayName: 'X' }],
        'InvalidParameter',
        [`planGroups[${plan.length}].type BUILT_IN_PRECHECK cannot be created`],
      ],
      [
        'isPauseEnabled on a built-in group',
        withGroup(stopIndex, (g) => ({ ...g, isPauseEnabled: true })),
        'InvalidParameter',
        [`planGroups[${stopIndex}].isPauseEnabled is only allowed`],
      ],
      [
        'isPauseEnabled not a boolean',
        withGroup(pauseIndex, (g) => ({ ...g, isPauseEnabled: 'yes' })),
        'InvalidParameter',
        [`planGroups[${pauseIndex}].isPauseEnabled must be a boolean`],
      ],
      [
        'steps in a pause group',
        withGroup(pauseIndex, (g) => ({ ...g, steps: [scriptStep(P.movable.memberId)] })),
        'InvalidParameter',
        [`planGroups[${pauseIndex}].steps must be empty`],
      ],
      [
        'steps not an array',
        withGroup(userIndex, (g) => ({ ...g, steps: {} })),
        'InvalidParameter',
        [`planGroups[${userIndex}].steps must be an array`],
      ],
      ['step not an object', withUserStep(7), 'InvalidParameter', [`${newStepPath} must be a JSON object`]],
      [
        'step without id in a built-in group',
        withGroup(stopIndex, (g) => ({ ...g, steps: [...(g.steps as unknown[]), scriptStep(P.movable.memberId)] })),
        'InvalidParameter',
        [`planGroups[${stopIndex}].steps[2].id is required`],
      ],
      [
        'foreign step id in a built-in group',
        withGroup(stopIndex, (g) => ({ ...g, steps: [{ id: plan[userIndex].steps[0].id }] })),
        'InvalidParameter',
        [`planGroups[${stopIndex}].steps[0].id`, 'does not match any step'],
      ],
      [
        'step of another group moved into a user group',
        withUserStep({ id: plan[stopIndex].steps[0].id }),
        'InvalidParameter',
        [`${newStepPath}.id`, 'does not match any step'],
      ],
      [
        'repeated step id',
        withUserStep({ id: plan[userIndex].steps[0].id }),
        'InvalidParameter',
        [`${newStepPath}.id`, 'more than once'],
      ],
      [
        'user-defined step on a built-in step',
        withGroup(stopIndex, (g) => ({
          ...g,
          steps: [{ id: plan[stopIndex].steps[0].id, ...scriptStep(P.movable.memberId) }],
        })),
        'InvalidParameter',
        [`planGroups[${stopIndex}].steps[0].userDefinedStep cannot be changed`],
      ],
      [
        'timeout zero',
        withGroup(stopIndex, (g) => ({ ...g, steps: [{ id: plan[stopIndex].steps[0].id, timeout: 0 }] })),
        'InvalidParameter',
        [`planGroups[${stopIndex}].steps[0].timeout must be a positive integer`],
      ],
      [
        'timeout fractional',
        withUserStep({ ...scriptStep(P.movable.memberId), timeout: 1.5 }),
        'InvalidParameter',
        [`${newStepPath}.timeout must be a positive integer`],
      ],
      [
        'timeout as string',
        withUserStep({ ...scriptStep(P.movable.memberId), timeout: '60' }),
        'InvalidParameter',
        [`${newStepPath}.timeout must be a positive integer`],
      ],
      [
        'bad errorMode',
        withUserStep({ ...scriptStep(P.movable.memberId), errorMode: 'IGNORE' }),
        'InvalidParameter',
        [`${newStepPath}.errorMode must be one of STOP_ON_ERROR, CONTINUE_ON_ERROR`],
      ],
      [
        'isEnabled not a boolean',
        withUserStep({ ...scriptStep(P.movable.memberId), isEnabled: 'true' }),
        'InvalidParameter',
        [`${newStepPath}.isEnabled must be a boolean`],
      ],
      [
        'new step without userDefinedStep',
        withUserStep({ displayName: 'nothing' }),
        'MissingParameter',
        [`${newStepPath}.userDefinedStep`],
      ],
      [
        'userDefinedStep without stepType',
        withUserStep({ userDefinedStep: { runOnInstanceId: P.movable.memberId } }),
        'MissingParameter',
        [`${newStepPath}.userDefinedStep.stepType`],
      ],
      [
        'unknown stepType',
        withUserStep({ userDefinedStep: { stepType: 'RUN_SSH' } }),
        'InvalidParameter',
        [`${newStepPath}.userDefinedStep.stepType must be one of`],
      ],
      [
        'service-only precheck stepType',
        withUserStep({ userDefinedStep: { stepType: 'RUN_LOCAL_SCRIPT_PRECHECK' } }),
        'InvalidParameter',
        [`${newStepPath}.userDefinedStep.stepType must be one of`],
      ],
      [
        'local script without instance',
        withUserStep({ userDefinedStep: { stepType: 'RUN_LOCAL_SCRIPT', scriptCommand: 'x' } }),
        'MissingParameter',
        [`${newStepPath}.userDefinedStep.runOnInstanceId`],
      ],
      [
        'instance id not an OCID',
        withUserStep({
          userDefinedStep: { stepType: 'RUN_LOCAL_SCRIPT', runOnInstanceId: 'vm-1', scriptCommand: 'x' },
        }),
        'InvalidParameter',
        [`${newStepPath}.userDefinedStep.runOnInstanceId must be an OCID`],
      ],
      [
        'local script without command',
        withUserStep({
          userDefinedStep: {
            stepType: 'RUN_LOCAL_SCRIPT_USER_DEFINED_CUSTOM_PRECHECK',
            runOnInstanceId: P.movable.memberId,
          },
        }),
        'MissingParameter',
        [`${newStepPath}.userDefinedStep.scriptCommand`],
      ],
      [
        'object-store script without location',
        withUserStep({ userDefinedStep: { stepType: 'RUN_OBJECTSTORE_SCRIPT', runOnInstanceId: P.movable.memberId } }),
        'MissingParameter',
        [`${newStepPath}.userDefinedStep.objectStorageScriptLocation`],
      ],
      [
        'object-store location without bucket',
        withUserStep({
          userDefinedStep: {
            stepType: 'RUN_OBJECTSTORE_SCRIPT',
            runOnInstanceId: P.movable.memberId,
            objectStorageScriptLocation: { namespace: 'ns', object: 'a.sh' },
          },
        }),
        'MissingParameter',
        [`${newStepPath}.userDefinedStep.objectStorageScriptLocation.bucket`],
      ],
      [
        'object-store location not an object',
        withUserStep({
          userDefinedStep: {
            stepType: 'RUN_OBJECTSTORE_SCRIPT',
            runOnInstanceId: P.movable.memberId,
            objectStorageScriptLocation: 'ns/b/a.sh',
          },
        }),
        'InvalidParameter',
        [`${newStepPath}.userDefinedStep.objectStorageScriptLocation must be a JSON object`],
      ],
      [
        'function without functionId',
        withUserStep({ userDefinedStep: { stepType: 'INVOKE_FUNCTION', requestBody: '{}' } }),
        'MissingParameter',
        [`${newStepPath}.userDefinedStep.functionId`],
      ],
      [
        'requestBody not a string',
        withUserStep({
          userDefinedStep: {
            stepType: 'INVOKE_FUNCTION',
            functionId: ocid('fnfunc', 'phx', 'f'),
            requestBody: { a: 1 },
          },
        }),
        'InvalidParameter',
        [`${newStepPath}.userDefinedStep.requestBody must be a string`],
      ],
      [
        'bad userDefinedStep on an existing user step',
        withGroup(userIndex, (g) => ({
          ...g,
          steps: [
            {
              id: plan[userIndex].steps[0].id,
              userDefinedStep: { stepType: 'RUN_LOCAL_SCRIPT', runOnInstanceId: P.movable.memberId },
            },
          ],
        })),
        'MissingParameter',
        [`planGroups[${userIndex}].steps[0].userDefinedStep.scriptCommand`],
      ],
      [
        'step id inside a new group',
        [...json(plan), { type: 'USER_DEFINED', displayName: 'New', steps: [{ id: plan[userIndex].steps[0].id }] }],
        'InvalidParameter',
        [`planGroups[${plan.length}].steps[0].id`, 'does not match any step'],
      ],
    ];
    for (const [name, request, code, includes] of cases) {
      it(`rejects: ${name}`, () => assertOciError(apply(request), { code, includes }));
    }

    it('does not modify the current groups when it rejects a request', () => {
      const before = json(plan);
      assert.throws(apply(withUserStep({ displayName: 'nothing' })));
      assert.deepEqual(plan, before);
    });
  });
});
