import assert from 'node:assert/strict';
import {
  type ProtectionGroupMember,
  applyPlanGroupsUpdate,
  clonePlanGroups,
  isUserStepPrecheck,
  refreshPlanGroups,
  userStepPrecheckId,
  verifyPlanGroups,
} from './index';
import {
  P,
  REGION,
  S,
  allSteps,
  customisedPlan,
  generate,
  groupNamed,
  json,
  names,
  ocid,
  primaryMembers,
  standbyMembers,
  stepSummary,
  withoutIds,
} from './fixtures';
import { describe, it } from 'node:test';

// ---------------------------------------------------------------------------------------------
// clonePlanGroups / verifyPlanGroups
// ---------------------------------------------------------------------------------------------

describe('clonePlanGroups', () => {
  it('copies everything with fresh ids and re-pointed groupIds', () => {
    const source = customisedPlan();
    const clone = clonePlanGroups(source);
    assert.deepEqual(withoutIds(clone), withoutIds(source));
    const sourceIds = new Set([...source.map((g) => g.id), ...allSteps(source).map((s) => s.id)]);
    for (const group of clone) {
      assert.ok(!sourceIds.has(group.id));
      for (const step of group.steps) {
        assert.ok(!sourceIds.has(step.id));
        assert.equal(step.groupId, group.id);
      }
    }
    assert.equal(groupNamed(clone, 'Wait for DBA').isPauseEnabled, true);
    // A deep copy: changing the clone leaves the source alone.
    clone[clone.length - 1].steps[0].userDefinedStep = undefined;
    groupNamed(clone, 'Application start').steps[0].userDefinedStep!.scriptCommand = 'changed';
    assert.equal(groupNamed(source, 'Application start').steps[0].userDefinedStep!.scriptCommand, '/opt/app/start.sh');
  });

  it('drops refresh labels', () => {
    const refreshed = refreshPlanGroups(
      customisedPlan(),
      generate(
        'SWITCHOVER',
        primaryMembers.filter((m) => m !== P.database),
        standbyMembers.filter((m) => m !== S.database),
      ),
    );
    assert.ok(refreshed.some((g) => g.refreshStatus));
    const clone = clonePlanGroups(refreshed);
    assert.ok(clone.every((g) => !('refreshStatus' in g) && g.steps.every((s) => !('refreshStatus' in s))));
    assert.equal(allSteps(clone).length, allSteps(refreshed).length);
  });
});

// ---------------------------------------------------------------------------------------------
// refreshPlanGroups
// ---------------------------------------------------------------------------------------------

const memberIdSet = (...lists: ProtectionGroupMember[][]) => new Set(lists.flat().map((m) => m.memberId));

describe('refreshPlanGroups', () => {
  it('changes nothing and labels nothing when the members did not change', () => {
    const plan = customisedPlan();
    const refreshed = refreshPlanGroups(plan, generate('SWITCHOVER'), {
      memberIds: memberIdSet(primaryMembers, standbyMembers),
    });
    assert.deepEqual(refreshed, plan);
  });

  it('labels a removed member STEP_DELETED, its last group GROUP_DELETED, and user steps bound to it', () => {
    const plan = customisedPlan();
    const primary = primaryMembers.filter((m) => m !== P.movable);
    const refreshed = refreshPlanGroups(plan, generate('SWITCHOVER', primary, standbyMembers), {
      memberIds: memberIdSet(primary, standbyMembers),
    });

    assert.deepEqual(names(refreshed), names(plan), 'nothing disappears before the verify');
    const launch = groupNamed(refreshed, 'Compute Instances - Launch');
    assert.equal(launch.refreshStatus, 'GROUP_DELETED');
    assert.deepEqual(
      launch.steps.map((s) => s.refreshStatus),
      ['STEP_DELETED'],
    );

    const stop = groupNamed(refreshed, 'Compute Instances - Stop');
    assert.equal(stop.refreshStatus, 'GROUP_MODIFIED');
    assert.deepEqual(
      stop.steps.map((s) => [s.memberId, s.refreshStatus]),
      [
        [P.movable.memberId, 'STEP_DELETED'],
        [P.nonMovable.memberId, undefined],
      ],
    );
    const mount = groupNamed(refreshed, 'File Systems - Mount on Compute Instances');
    assert.equal(mount.refreshStatus, 'GROUP_MODIFIED');

    const prechecks = groupNamed(refreshed, 'Prechecks - Built In');
    assert.equal(prechecks.refreshStatus, 'GROUP_MODIFIED');
    assert.ok(
      prechecks.steps.filter((s) => s.memberId === P.movable.memberId).every((s) => s.refreshStatus === 'STEP_DELETED'),
    );
    assert.ok(
      prechecks.steps
        .filter((s) => s.memberId !== P.movable.memberId && !isUserStepPrecheck(s))
        .every((s) => s.refreshStatus === undefined),
    );

    const user = groupNamed(refreshed, 'Application start');
    // The service's prechecks of the user steps follow them: the one on the former member goes too.
    assert.deepEqual(
      prechecks.steps.filter(isUserStepPrecheck).map((s) => [s.id, s.refreshStatus]),
      user.steps.map((s) => [userStepPrecheckId(s.id), s.refreshStatus]),
    );
    assert.equal(user.refreshStatus, 'GROUP_MODIFIED');
    assert.deepEqual(
      user.steps.map((s) => s.refreshStatus),
      ['STEP_DELETED', undefined, undefined],
      'only the step on the former member',
    );
    assert.equal(groupNamed(refreshed, 'Databases - Switchover').refreshStatus, undefined);
    assert.equal(groupNamed(refreshed, 'Wait for DBA').refreshStatus, undefined);
  });

  it('adds a new member type as a GROUP_ADDED group at its default position and keeps the user order', () => {
    const plan = customisedPlan();
    // The user moved "Databases - Switchover" to the very end.
    const dbIndex = plan.findIndex((g) => g.displayName === 'Databases - Switchover');
    const reordered = [...plan.slice(0, dbIndex), ...plan.slice(dbIndex + 1), plan[dbIndex]];
    const acd = {
      memberType: 'AUTONOMOUS_CONTAINER_DATABASE',
      memberId: ocid('autonomouscontainerdatabase', 'phx', 'acd00001'),
    };
    const standby = [...standbyMembers, acd];
    const refreshed = refreshPlanGroups(reordered, generate('SWITCHOVER', primaryMembers, standby), {
      memberIds: memberIdSet(primaryMembers, standby),
    });

    const expectedOrder = names(reordered);
    expectedOrder.splice(
      expectedOrder.indexOf('Autonomous Databases - Switchover') + 1,
      0,
      'Autonomous Container Databases - Switchover',
    );
    assert.deepEqual(names(refreshed), expectedOrder);
    const added = groupNamed(refreshed, 'Autonomous Container Databases - Switchover');
    assert.equal(added.refreshStatus, 'GROUP_ADDED');
    assert.deepEqual(
      added.steps.map((s) => [s.type, s.memberId, s.refreshStatus, s.groupId]),
      [['AUTONOMOUS_CONTAINER_DATABASE_SWITCHOVER', acd.memberId, 'STEP_ADDED', added.id]],
    );
    const prechecks = groupNamed(refreshed, 'Prechecks - Built In');
    assert.equal(prechecks.refreshStatus, 'GROUP_MODIFIED');
    assert.deepEqual(
      prechecks.steps.filter((s) => s.refreshStatus === 'STEP_ADDED').map((s) => [s.type, s.memberId, s.groupId]),
      [['AUTONOMOUS_CONTAINER_DATABASE_SWITCHOVER_PRECHECK', acd.memberId, prechecks.id]],
    );
    assert.equal(new Set(allSteps(refreshed).map((s) => s.id)).size, allSteps(refreshed).length);
  });

  it('adds a step to an existing group and keeps customisations of matched steps', () => {
    const plan = customisedPlan();
    const stopIndex = plan.findIndex((g) => g.displayName === 'Compute Instances - Stop');
    const custom = json(plan);
    Object.assign(custom[stopIndex].steps[1], {
      displayName: 'Stop the batch box',
      errorMode: 'CONTINUE_ON_ERROR',
      timeout: 120,
      isEnabled: false,
    });
    const second = { ...P.movable, memberId: ocid('instance', 'iad', 'app00002') };
    const primary = [...primaryMembers, second];
    const refreshed = refreshPlanGroups(custom, generate('SWITCHOVER', primary, standbyMembers), {
      memberIds: memberIdSet(primary, standbyMembers),
    });

    const stop = refreshed[stopIndex];
    assert.equal(stop.displayName, 'Compute Instances - Stop');
    assert.equal(stop.refreshStatus, 'GROUP_MODIFIED');
    assert.deepEqual(stop.steps.slice(0, 2), custom[stopIndex].steps, 'matched steps keep ids and customisations');
    assert.deepEqual(
      stop.steps.slice(2).map((s) => [s.type, s.memberId, s.refreshStatus, s.groupId, s.errorMode]),
      [['COMPUTE_INSTANCE_STOP', second.memberId, 'STEP_ADDED', stop.id, 'STOP_ON_ERROR']],
    );
    assert.equal(groupNamed(refreshed, 'Databases - Switchover').refreshStatus, undefined);
  });

  it('does not delete user steps on instances that were never members', () => {
    const plan = customisedPlan();
    // Every member gone: only former members' user steps are labelled.
    const refreshed = refreshPlanGroups(plan, [], { memberIds: new Set() });
    const user = groupNamed(refreshed, 'Application start');
    assert.deepEqual(
      user.steps.map((s) => s.refreshStatus),
      ['STEP_DELETED', undefined, undefined],
    );
    assert.ok(refreshed.filter((g) => g.type === 'BUILT_IN').every((g) => g.refreshStatus === 'GROUP_DELETED'));
    // The precheck group still holds the prechecks of the two user steps that stay.
    const prechecks = groupNamed(refreshed, 'Prechecks - Built In');
    assert.equal(prechecks.refreshStatus, 'GROUP_MODIFIED');
    assert.deepEqual(
      prechecks.steps.filter((s) => s.refreshStatus !== 'STEP_DELETED').map((s) => s.id),
      user.steps.slice(1).map((s) => userStepPrecheckId(s.id)),
    );
  });

  it('defaults memberIds to the members the regenerated steps act on', () => {
    const plan = customisedPlan();
    const primary = primaryMembers.filter((m) => m !== P.movable);
    const refreshed = refreshPlanGroups(plan, generate('SWITCHOVER', primary, standbyMembers));
    assert.equal(groupNamed(refreshed, 'Application start').steps[0].refreshStatus, 'STEP_DELETED');
  });

  it('moves a pause group that ends up first or last inward by one', () => {
    const generated = generate('FAILOVER', [], [S.database, S.adb]);
    const plan = applyPlanGroupsUpdate(
      generated,
      [
        { type: 'USER_DEFINED_PAUSE', displayName: 'Pause first' },
        ...json(generated),
        { type: 'USER_DEFINED_PAUSE', displayName: 'Pause last' },
      ],
      { region: REGION },
    );
    assert.deepEqual(names(plan), [
      'Pause first',
      'Prechecks - Built In',
      'Databases - Failover',
      'Autonomous Databases - Failover',
      'Pause last',
    ]);
    const refreshed = refreshPlanGroups(plan, generate('FAILOVER', [], [S.database, S.adb]));
    assert.deepEqual(names(refreshed), [
      'Prechecks - Built In',
      'Pause first',
      'Databases - Failover',
      'Pause last',
      'Autonomous Databases - Failover',
    ]);
    assert.ok(
      refreshed.every((g) => !('refreshStatus' in g)),
      'moving is not a change of members',
    );

    // Groups labelled deleted do not count: removing the ADB makes "Pause" the last live group.
    const middle = applyPlanGroupsUpdate(
      generated,
      [
        ...json(generated).slice(0, 2),
        { type: 'USER_DEFINED_PAUSE', displayName: 'Pause' },
        ...json(generated).slice(2),
      ],
      { region: REGION },
    );
    const afterRemoval = refreshPlanGroups(middle, generate('FAILOVER', [], [S.database]));
    assert.deepEqual(names(afterRemoval), [
      'Prechecks - Built In',
      'Pause',
      'Databases - Failover',
      'Autonomous Databases - Failover',
    ]);
    assert.equal(afterRemoval[3].refreshStatus, 'GROUP_DELETED');
  });

  it('keeps labels relative to the last verify when refreshed twice', () => {
    const plan = generate('SWITCHOVER', [P.volumeGroup], [S.database]);
    const withAdb = refreshPlanGroups(plan, generate('SWITCHOVER', [P.volumeGroup], [S.database, S.adb]));
    assert.equal(groupNamed(withAdb, 'Autonomous Databases - Switchover').refreshStatus, 'GROUP_ADDED');

    // Second refresh: ADB still there (stays GROUP_ADDED), database removed (GROUP_DELETED).
    const second = refreshPlanGroups(withAdb, generate('SWITCHOVER', [P.volumeGroup], [S.adb]));
    assert.equal(groupNamed(second, 'Autonomous Databases - Switchover').refreshStatus, 'GROUP_ADDED');
    assert.deepEqual(
      groupNamed(second, 'Autonomous Databases - Switchover').steps.map((s) => s.refreshStatus),
      ['STEP_ADDED'],
    );
    assert.equal(groupNamed(second, 'Databases - Switchover').refreshStatus, 'GROUP_DELETED');

    // Third refresh: back to the verified members. The never-verified ADB group vanishes, the database comes back unlabelled.
    const third = refreshPlanGroups(second, generate('SWITCHOVER', [P.volumeGroup], [S.database]));
    assert.deepEqual(names(third), names(plan));
    assert.deepEqual(third, plan);
  });
});

describe('verifyPlanGroups', () => {
  it('drops what is labelled deleted, keeps what was added and clears every label', () => {
    const plan = customisedPlan();
    const primary = primaryMembers.filter((m) => m !== P.movable);
    const acd = {
      memberType: 'AUTONOMOUS_CONTAINER_DATABASE',
      memberId: ocid('autonomouscontainerdatabase', 'phx', 'acd00001'),
    };
    const standby = [...standbyMembers, acd];
    const refreshed = refreshPlanGroups(plan, generate('SWITCHOVER', primary, standby), {
      memberIds: memberIdSet(primary, standby),
    });
    const verified = verifyPlanGroups(refreshed);

    assert.ok(!names(verified).includes('Compute Instances - Launch'));
    assert.ok(names(verified).includes('Autonomous Container Databases - Switchover'));
    assert.ok(!allSteps(verified).some((s) => s.memberId === P.movable.memberId));
    assert.ok(!allSteps(verified).some((s) => s.userDefinedStep?.runOnInstanceId === P.movable.memberId));
    assert.equal(groupNamed(verified, 'Application start').steps.length, 2);
    assert.ok(verified.every((g) => !('refreshStatus' in g) && g.steps.every((s) => !('refreshStatus' in s))));
    assert.equal(groupNamed(verified, 'Wait for DBA').isPauseEnabled, true);
    // Same content as a plan generated from the new members (apart from ids and the user's groups).
    const builtIn = verified.filter((g) => g.type === 'BUILT_IN' || g.type === 'BUILT_IN_PRECHECK');
    const fresh = generate('SWITCHOVER', primary, standby);
    assert.deepEqual(names(builtIn), names(fresh));
    for (const group of builtIn) {
      const expected = groupNamed(fresh, group.displayName);
      const serviceSteps = { ...group, steps: group.steps.filter((s) => !isUserStepPrecheck(s)) };
      assert.deepEqual(new Set(stepSummary(serviceSteps)), new Set(stepSummary(expected)), group.displayName);
    }
    // The prechecks of the two remaining user steps remain, after the built-in ones.
    assert.deepEqual(
      groupNamed(verified, 'Prechecks - Built In')
        .steps.filter(isUserStepPrecheck)
        .map((s) => s.id),
      groupNamed(verified, 'Application start').steps.map((s) => userStepPrecheckId(s.id)),
    );
    assert.deepEqual(verifyPlanGroups(verified), verified, 'verify is idempotent');
  });
});
