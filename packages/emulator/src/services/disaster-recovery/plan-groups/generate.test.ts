import assert from 'node:assert/strict';
import * as enums from '../enums';
import { BUILT_IN_GROUP_NAMES, PLAN_GROUP_ORDER, PLAN_STEP_RULES, typeDisplayNameOf } from './index';
import { P, S, allSteps, generate, groupNamed, json, names, ocid, sdkValues, stepSummary } from './fixtures';
import { describe, it } from 'node:test';
import { models } from 'oci-disasterrecovery';

// ---------------------------------------------------------------------------------------------
// generatePlanGroups
// ---------------------------------------------------------------------------------------------

describe('generatePlanGroups', () => {
  it('builds a switchover plan in the documented default order', () => {
    assert.deepEqual(names(generate('SWITCHOVER')), [
      'Prechecks - Built In',
      'Load Balancers - Update Source Backend Sets',
      'Unmount from Compute Instances',
      'Compute Instances - Detach Block Volumes',
      'Compute Instances - Stop',
      'OKE - Stop Backup and Cleanup (Primary)',
      'Volume Groups - Switchover',
      'File Systems - Switchover',
      'Object Storage Bucket - Delete Replication (Primary)',
      'Object Storage Bucket - Setup Reverse Replication (Standby)',
      'Databases - Switchover',
      'Autonomous Databases - Switchover',
      'MySQL HeatWave DB System - Switchover',
      'Compute Instances - Launch',
      'Compute Instances - Start',
      'Compute Instances - Attach Block Volumes',
      'Load Balancers - Update Destination Backend Sets',
      'File Systems - Mount on Compute Instances',
      'OKE - Scale Up (Standby)',
      'OKE - Restore (Standby)',
      'Volume Groups - Reverse Replication',
      'File Systems - Reverse Replication',
      'File Systems - Terminate',
      'Compute Instances - Terminate',
      'Compute Instances - Remove from DR Protection Group',
      'Volume Groups - Terminate',
      'Volume Groups - Remove from DR Protection Group',
      'File Systems - Remove from DR Protection Group',
      'OKE - Schedule Reverse Backup (Standby)',
      'OKE - Scale Down (Primary)',
    ]);
  });

  it('puts each switchover step on the member it acts on', () => {
    const groups = generate('SWITCHOVER');
    assert.deepEqual(stepSummary(groupNamed(groups, 'Compute Instances - Stop')), [
      `COMPUTE_INSTANCE_STOP@${P.movable.memberId}`,
      `COMPUTE_INSTANCE_STOP@${P.nonMovable.memberId}`,
    ]);
    assert.deepEqual(stepSummary(groupNamed(groups, 'Compute Instances - Start')), [
      `COMPUTE_INSTANCE_START@${S.nonMovable.memberId}`,
    ]);
    assert.deepEqual(stepSummary(groupNamed(groups, 'Compute Instances - Launch')), [
      `COMPUTE_INSTANCE_LAUNCH@${P.movable.memberId}`,
    ]);
    assert.deepEqual(stepSummary(groupNamed(groups, 'Compute Instances - Detach Block Volumes')), [
      `COMPUTE_INSTANCE_DETACH_BLOCK_VOLUMES@${P.nonMovable.memberId}`,
    ]);
    assert.deepEqual(stepSummary(groupNamed(groups, 'Compute Instances - Attach Block Volumes')), [
      `COMPUTE_INSTANCE_ATTACH_BLOCK_VOLUMES@${S.nonMovable.memberId}`,
    ]);
    assert.deepEqual(stepSummary(groupNamed(groups, 'File Systems - Mount on Compute Instances')), [
      `FILE_SYSTEM_MOUNT@${P.movable.memberId}`,
      `FILE_SYSTEM_MOUNT@${S.nonMovable.memberId}`,
    ]);
    assert.deepEqual(stepSummary(groupNamed(groups, 'Databases - Switchover')), [
      `DATABASE_SWITCHOVER@${S.database.memberId}`,
    ]);
    assert.deepEqual(stepSummary(groupNamed(groups, 'Autonomous Databases - Switchover')), [
      `AUTONOMOUS_DATABASE_SWITCHOVER@${S.adb.memberId}`,
    ]);
    assert.deepEqual(stepSummary(groupNamed(groups, 'MySQL HeatWave DB System - Switchover')), [
      `MYSQL_DB_SYSTEM_SWITCHOVER@${S.mysql.memberId}`,
    ]);
    assert.deepEqual(stepSummary(groupNamed(groups, 'Volume Groups - Switchover')), [
      `VOLUME_GROUP_RESTORE_SWITCHOVER@${P.volumeGroup.memberId}`,
    ]);
    assert.deepEqual(stepSummary(groupNamed(groups, 'Load Balancers - Update Source Backend Sets')), [
      `LOAD_BALANCER_UPDATE_PRIMARY_BACKEND_SET@${P.lb.memberId}`,
    ]);
    assert.deepEqual(stepSummary(groupNamed(groups, 'Load Balancers - Update Destination Backend Sets')), [
      `LOAD_BALANCER_UPDATE_STANDBY_BACKEND_SET@${P.lb.memberId}`,
    ]);
    assert.deepEqual(stepSummary(groupNamed(groups, 'Object Storage Bucket - Delete Replication (Primary)')), [
      `OBJECT_STORAGE_BUCKET_SWITCHOVER_DELETE_REPLICATION_PRIMARY@${P.bucket.memberId}`,
    ]);
    assert.deepEqual(stepSummary(groupNamed(groups, 'Object Storage Bucket - Setup Reverse Replication (Standby)')), [
      `OBJECT_STORAGE_BUCKET_SWITCHOVER_SETUP_REVERSE_REPLICATION_STANDBY@${S.bucket.memberId}`,
    ]);
    assert.deepEqual(stepSummary(groupNamed(groups, 'OKE - Stop Backup and Cleanup (Primary)')), [
      `OKE_CLUSTER_SWITCHOVER_CLEANUP_PRIMARY@${P.oke.memberId}`,
    ]);
    assert.deepEqual(stepSummary(groupNamed(groups, 'OKE - Restore (Standby)')), [
      `OKE_CLUSTER_SWITCHOVER_RESTORE_STANDBY@${S.oke.memberId}`,
    ]);
    // The passive non-movable instance (start/stop disabled, nothing to mount) gets no step.
    assert.ok(!allSteps(groups).some((s) => s.memberId === P.passive.memberId));
  });

  it('builds a failover plan that touches nothing in the lost primary region', () => {
    const groups = generate('FAILOVER');
    assert.deepEqual(names(groups), [
      'Prechecks - Built In',
      'Volume Groups - Failover',
      'Databases - Failover',
      'Autonomous Databases - Failover',
      'File Systems - Failover',
      'Object Storage Bucket - Delete Replication (Standby)',
      'Object Storage Bucket - Setup Reverse Replication (Standby)',
      'MySQL HeatWave DB System - Failover',
      'Compute Instances - Launch',
      'Compute Instances - Start',
      'Compute Instances - Attach Block Volumes',
      'Load Balancers - Update Destination Backend Sets',
      'File Systems - Mount on Compute Instances',
      'OKE - Scale Up (Standby)',
      'OKE - Restore (Standby)',
      'Compute Instances - Remove from DR Protection Group',
      'Volume Groups - Remove from DR Protection Group',
      'File Systems - Remove from DR Protection Group',
    ]);
    const types = new Set(allSteps(groups).map((s) => s.type));
    for (const type of types)
      assert.ok(
        !/SWITCHOVER|DRILL|_STOP$|TERMINATE|REVERSE$|PRIMARY/.test(type),
        `unexpected ${type} in a failover plan`,
      );
    assert.deepEqual(stepSummary(groupNamed(groups, 'Databases - Failover')), [
      `DATABASE_FAILOVER@${S.database.memberId}`,
    ]);
    assert.deepEqual(stepSummary(groupNamed(groups, 'Object Storage Bucket - Delete Replication (Standby)')), [
      `OBJECT_STORAGE_BUCKET_FAILOVER_DELETE_REPLICATION_STANDBY@${S.bucket.memberId}`,
    ]);
  });

  it('builds a start-drill plan from *_START_DRILL* steps', () => {
    const groups = generate('START_DRILL');
    assert.deepEqual(names(groups), [
      'Prechecks - Built In',
      'Volume Groups - Start Drill',
      'File Systems - Start Drill',
      'Databases - Convert to Snapshot Standby',
      'Autonomous Databases - Create Clone Standby',
      'MySQL HeatWave DB System - Start Drill',
      'Compute Instances - Launch',
      'Compute Instances - Start',
      'Compute Instances - Attach Block Volumes',
      'Load Balancers - Update Destination Backend Sets',
      'File Systems - Mount on Compute Instances',
      'OKE - Scale Up (Standby)',
      'OKE - Restore (Standby)',
    ]);
    assert.deepEqual(stepSummary(groupNamed(groups, 'Databases - Convert to Snapshot Standby')), [
      `DATABASE_START_DRILL_CONVERT_TO_SNAPSHOT_STANDBY@${S.database.memberId}`,
    ]);
    assert.deepEqual(stepSummary(groupNamed(groups, 'OKE - Restore (Standby)')), [
      `OKE_CLUSTER_START_DRILL_RESTORE_STANDBY@${S.oke.memberId}`,
    ]);
    // Buckets have no drill steps.
    assert.ok(!allSteps(groups).some((s) => s.memberId === P.bucket.memberId || s.memberId === S.bucket.memberId));
  });

  it('builds a stop-drill plan that tears the drill down, application tier first', () => {
    const groups = generate('STOP_DRILL');
    assert.deepEqual(names(groups), [
      'Prechecks - Built In',
      'Load Balancers - Update Destination Backend Sets',
      'Unmount from Compute Instances',
      'Compute Instances - Detach Block Volumes',
      'Compute Instances - Stop',
      'OKE - Cleanup (Standby)',
      'OKE - Scale Down (Standby)',
      'Compute Instances - Terminate',
      'Volume Groups - Terminate',
      'File Systems - Stop Drill',
      'Databases - Convert to Physical Standby',
      'Autonomous Databases - Delete Clone Standby',
      'MySQL HeatWave DB System - Stop Drill',
    ]);
    // The drill runs at the standby: its non-movable instances are the ones stopped.
    assert.deepEqual(stepSummary(groupNamed(groups, 'Compute Instances - Stop')), [
      `COMPUTE_INSTANCE_STOP@${S.nonMovable.memberId}`,
    ]);
    assert.deepEqual(stepSummary(groupNamed(groups, 'Compute Instances - Terminate')), [
      `COMPUTE_INSTANCE_TERMINATE@${P.movable.memberId}`,
    ]);
  });

  it('puts the precheck group first with the <TYPE>_PRECHECK of every built-in step that has one, plus capacity checks', () => {
    const sdkStepTypes = new Set(sdkValues(models.DrPlanStepType));
    for (const planType of enums.DR_PLAN_TYPES) {
      const [prechecks, ...builtIn] = generate(planType);
      assert.equal(prechecks.type, 'BUILT_IN_PRECHECK');
      assert.equal(prechecks.displayName, 'Prechecks - Built In');
      assert.ok(builtIn.every((g) => g.type === 'BUILT_IN'));
      const expected = allSteps(builtIn)
        .filter((s) => sdkStepTypes.has(`${s.type}_PRECHECK`))
        .map((s) => `${s.type}_PRECHECK@${s.memberId}`);
      const capacity = prechecks.steps
        .filter((s) => s.type.startsWith('COMPUTE_CAPACITY_'))
        .map((s) => `${s.type}@${s.memberId}`);
      assert.deepEqual(stepSummary(prechecks), [...expected, ...capacity], planType);
      if (planType !== 'STOP_DRILL') {
        const suffix = planType === 'START_DRILL' ? 'START_DRILL' : planType;
        assert.deepEqual(capacity.sort(), [
          `COMPUTE_CAPACITY_AVAILABILITY_${suffix}_PRECHECK@${P.movable.memberId}`,
          `COMPUTE_CAPACITY_RESERVATION_${suffix}_PRECHECK@${P.movable.memberId}`,
        ]);
      } else assert.deepEqual(capacity, []);
    }
    const switchoverPrechecks = stepSummary(generate('SWITCHOVER')[0]);
    assert.ok(switchoverPrechecks.includes(`DATABASE_SWITCHOVER_PRECHECK@${S.database.memberId}`));
    assert.ok(switchoverPrechecks.includes(`COMPUTE_INSTANCE_STOP_PRECHECK@${P.movable.memberId}`));
    assert.ok(!switchoverPrechecks.some((s) => s.startsWith('VOLUME_GROUP_REVERSE_PRECHECK')));
  });

  it('gives unique ids, consistent groupIds, defaults, labels and no empty optional fields', () => {
    for (const planType of enums.DR_PLAN_TYPES) {
      const groups = generate(planType);
      const ids = [...groups.map((g) => g.id), ...allSteps(groups).map((s) => s.id)];
      assert.equal(new Set(ids).size, ids.length, `${planType}: ids must be unique`);
      for (const group of groups) {
        assert.match(group.id, /^sgid1\.group\.\.[a-z2-7]+$/);
        assert.ok(group.steps.length > 0);
        assert.deepEqual(
          Object.keys(group).sort(),
          ['displayName', 'id', 'steps', 'type'],
          'no refreshStatus or isPauseEnabled',
        );
        for (const step of group.steps) {
          assert.match(step.id, /^sgid1\.step\.\.[a-z2-7]+$/);
          assert.equal(step.groupId, group.id);
          assert.equal(step.errorMode, 'STOP_ON_ERROR');
          assert.equal(step.isEnabled, true);
          assert.equal(step.timeout, 3600);
          assert.equal(step.typeDisplayName, typeDisplayNameOf(step.type));
          assert.equal(step.displayName, `${step.typeDisplayName} - ${step.memberId!.slice(-8)}`);
          assert.ok(enums.isOneOf(enums.DR_PLAN_STEP_TYPES, step.type), `${step.type} is not a DrPlanStepType`);
          assert.ok(!('refreshStatus' in step) && !('userDefinedStep' in step));
        }
      }
      assert.deepEqual(json(groups), groups, 'JSON round-trip loses nothing (no undefined values)');
    }
    const db = groupNamed(generate('SWITCHOVER'), 'Databases - Switchover').steps[0];
    assert.equal(db.typeDisplayName, 'Database Switchover');
    assert.equal(db.displayName, 'Database Switchover - sdb00001');
    assert.equal(typeDisplayNameOf('MYSQL_DB_SYSTEM_SWITCHOVER'), 'MySQL DB System Switchover');
    assert.equal(
      typeDisplayNameOf('DATABASE_START_DRILL_CONVERT_TO_SNAPSHOT_STANDBY'),
      'Database Start Drill Convert to Snapshot Standby',
    );
  });

  it('has a consistent rule table: every rule uses a valid step type and a group ordered for its plan type', () => {
    for (const [memberType, byPlan] of Object.entries(PLAN_STEP_RULES)) {
      assert.ok(enums.isOneOf(enums.DR_PROTECTION_GROUP_MEMBER_TYPES, memberType));
      for (const planType of enums.DR_PLAN_TYPES) {
        for (const rule of byPlan[planType]) {
          assert.ok(enums.isOneOf(enums.DR_PLAN_STEP_TYPES, rule.stepType), rule.stepType);
          if (rule.group === 'PRECHECK') assert.match(rule.stepType, /_PRECHECK$/);
          else
            assert.ok(
              PLAN_GROUP_ORDER[planType].includes(rule.group),
              `${memberType}/${planType}: ${rule.group} not ordered`,
            );
        }
      }
    }
    for (const planType of enums.DR_PLAN_TYPES) {
      const displayNames = PLAN_GROUP_ORDER[planType].map((key) => BUILT_IN_GROUP_NAMES[key]);
      assert.equal(new Set(displayNames).size, displayNames.length, `${planType}: group names must be unique`);
    }
  });

  it('returns no groups without members, or when no member takes part in the plan type', () => {
    for (const planType of enums.DR_PLAN_TYPES) assert.deepEqual(generate(planType, [], []), []);
    assert.deepEqual(generate('START_DRILL', [P.bucket, P.passive], [S.bucket]), []);
    assert.deepEqual(
      generate('SWITCHOVER', [{ memberType: 'SOMETHING_NEW', memberId: ocid('x', 'iad', 'new00001') }], []),
      [],
    );
  });

  it('follows member settings: start/stop flag, legacy isMovable, ADB drill mechanism, capacity reservation', () => {
    const legacyMovable = {
      memberType: 'COMPUTE_INSTANCE',
      memberId: ocid('instance', 'iad', 'leg00001'),
      isMovable: true,
    };
    const legacyFixed = {
      memberType: 'COMPUTE_INSTANCE',
      memberId: ocid('instance', 'iad', 'leg00002'),
      isMovable: false,
    };
    const switchover = generate('SWITCHOVER', [legacyMovable, legacyFixed, P.passive], []);
    assert.deepEqual(stepSummary(groupNamed(switchover, 'Compute Instances - Stop')), [
      `COMPUTE_INSTANCE_STOP@${legacyMovable.memberId}`,
    ]);
    assert.ok(
      !allSteps(switchover).some((s) => s.memberId === legacyFixed.memberId || s.memberId === P.passive.memberId),
    );

    const snapshotAdb = { ...S.adb, autonomousDatabaseStandbyTypeForDrDrills: 'SNAPSHOT_STANDBY' };
    const start = generate('START_DRILL', [], [snapshotAdb]);
    assert.deepEqual(names(start), ['Prechecks - Built In', 'Autonomous Databases - Convert to Snapshot Standby']);
    assert.deepEqual(stepSummary(start[0]), [
      `AUTONOMOUS_DATABASE_START_DRILL_CONVERT_TO_SNAPSHOT_STANDBY_PRECHECK@${S.adb.memberId}`,
    ]);
    const stop = generate('STOP_DRILL', [], [snapshotAdb]);
    assert.deepEqual(names(stop), ['Prechecks - Built In', 'Autonomous Databases - Convert to Physical Standby']);
    const cloneAdb = { ...S.adb, autonomousDatabaseStandbyTypeForDrDrills: 'REFRESHABLE_CLONE' };
    assert.deepEqual(names(generate('START_DRILL', [], [cloneAdb])), [
      'Prechecks - Built In',
      'Autonomous Databases - Create Clone Standby',
    ]);

    const { destinationCapacityReservationId: _unused, ...noReservation } = P.movable;
    const prechecks = stepSummary(generate('FAILOVER', [noReservation], [])[0]);
    assert.ok(prechecks.includes(`COMPUTE_CAPACITY_AVAILABILITY_FAILOVER_PRECHECK@${P.movable.memberId}`));
    assert.ok(!prechecks.some((s) => s.startsWith('COMPUTE_CAPACITY_RESERVATION')));
  });

  it('uses the LOAD_BALANCER step types for network load balancers', () => {
    const nlb = { memberType: 'NETWORK_LOAD_BALANCER', memberId: ocid('networkloadbalancer', 'iad', 'nlb00001') };
    const groups = generate('SWITCHOVER', [nlb], []);
    assert.deepEqual(stepSummary(groupNamed(groups, 'Load Balancers - Update Source Backend Sets')), [
      `LOAD_BALANCER_UPDATE_PRIMARY_BACKEND_SET@${nlb.memberId}`,
    ]);
  });
});
