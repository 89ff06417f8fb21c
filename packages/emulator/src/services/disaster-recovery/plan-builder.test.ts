import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { models } from 'oci-disasterrecovery';
import { OciServiceError } from '../../core/errors';
import * as enums from './enums';
import {
  BUILT_IN_GROUP_NAMES,
  PLAN_GROUP_ORDER,
  PLAN_STEP_RULES,
  applyPlanGroupsUpdate,
  clonePlanGroups,
  generatePlanGroups,
  refreshPlanGroups,
  typeDisplayNameOf,
  verifyPlanGroups,
  type PlanGroup,
  type PlanStep,
  type ProtectionGroupMember,
} from './plan-builder';

// ---------------------------------------------------------------------------------------------
// Fixtures: a realistic primary/standby pair (primary in Ashburn, standby in Phoenix)
// ---------------------------------------------------------------------------------------------

const ocid = (type: string, regionKey: string, name: string) =>
  `ocid1.${type}.oc1.${regionKey}.amaaaaaaaexample${name}`;

const P = {
  movable: {
    memberType: 'COMPUTE_INSTANCE_MOVABLE',
    memberId: ocid('instance', 'iad', 'app00001'),
    fileSystemOperations: [{ exportPath: '/export/app', mountPoint: '/mnt/app' }],
    destinationCapacityReservationId: ocid('capacityreservation', 'phx', 'res00001'),
  },
  nonMovable: {
    memberType: 'COMPUTE_INSTANCE_NON_MOVABLE',
    memberId: ocid('instance', 'iad', 'pnm00001'),
    isStartStopEnabled: true,
    blockVolumeAttachAndMountOperations: { attachments: [{ volumeAttachmentReferenceInstanceId: 'x' }], mounts: [] },
  },
  /** Non-movable instance that is neither stopped nor started: no steps at all. */
  passive: {
    memberType: 'COMPUTE_INSTANCE_NON_MOVABLE',
    memberId: ocid('instance', 'iad', 'pas00001'),
    isStartStopEnabled: false,
  },
  volumeGroup: { memberType: 'VOLUME_GROUP', memberId: ocid('volumegroup', 'iad', 'vgr00001') },
  database: { memberType: 'DATABASE', memberId: ocid('database', 'iad', 'pdb00001') },
  adb: { memberType: 'AUTONOMOUS_DATABASE', memberId: ocid('autonomousdatabase', 'iad', 'pad00001') },
  lb: {
    memberType: 'LOAD_BALANCER',
    memberId: ocid('loadbalancer', 'iad', 'plb00001'),
    destinationLoadBalancerId: ocid('loadbalancer', 'phx', 'slb00001'),
  },
  fileSystem: { memberType: 'FILE_SYSTEM', memberId: ocid('filesystem', 'iad', 'fsy00001') },
  mysql: { memberType: 'MYSQL_DB_SYSTEM', memberId: ocid('mysqldbsystem', 'iad', 'pmy00001') },
  oke: { memberType: 'OKE_CLUSTER', memberId: ocid('cluster', 'iad', 'pok00001') },
  bucket: {
    memberType: 'OBJECT_STORAGE_BUCKET',
    memberId: ocid('bucket', 'iad', 'pbk00001'),
    namespaceName: 'ns',
    bucketName: 'app-data',
  },
} satisfies Record<string, ProtectionGroupMember>;

const S = {
  nonMovable: {
    memberType: 'COMPUTE_INSTANCE_NON_MOVABLE',
    memberId: ocid('instance', 'phx', 'snm00001'),
    isStartStopEnabled: true,
    fileSystemOperations: [{ exportPath: '/export/app', mountPoint: '/mnt/app' }],
    blockVolumeOperations: [{ blockVolumeId: ocid('volume', 'phx', 'vol00001') }],
  },
  database: { memberType: 'DATABASE', memberId: ocid('database', 'phx', 'sdb00001') },
  adb: { memberType: 'AUTONOMOUS_DATABASE', memberId: ocid('autonomousdatabase', 'phx', 'sad00001') },
  lb: { memberType: 'LOAD_BALANCER', memberId: ocid('loadbalancer', 'phx', 'slb00001') },
  mysql: {
    memberType: 'MYSQL_DB_SYSTEM',
    memberId: ocid('mysqldbsystem', 'phx', 'smy00001'),
    peerDbSystemId: ocid('mysqldbsystem', 'iad', 'pmy00001'),
  },
  oke: {
    memberType: 'OKE_CLUSTER',
    memberId: ocid('cluster', 'phx', 'sok00001'),
    peerClusterId: ocid('cluster', 'iad', 'pok00001'),
  },
  bucket: {
    memberType: 'OBJECT_STORAGE_BUCKET',
    memberId: ocid('bucket', 'phx', 'sbk00001'),
    namespaceName: 'ns',
    bucketName: 'app-data-dr',
  },
} satisfies Record<string, ProtectionGroupMember>;

const primaryMembers: ProtectionGroupMember[] = Object.values(P);
const standbyMembers: ProtectionGroupMember[] = Object.values(S);

const generate = (planType: enums.DrPlanType, primary = primaryMembers, standby = standbyMembers) =>
  generatePlanGroups({ planType, primaryMembers: primary, standbyMembers: standby });

const names = (groups: PlanGroup[]) => groups.map((g) => g.displayName);
const groupNamed = (groups: PlanGroup[], displayName: string): PlanGroup => {
  const group = groups.find((g) => g.displayName === displayName);
  assert.ok(group, `no group named '${displayName}' in [${names(groups).join(', ')}]`);
  return group;
};
const stepSummary = (group: PlanGroup) => group.steps.map((s) => `${s.type}@${s.memberId ?? '-'}`);
const allSteps = (groups: PlanGroup[]) => groups.flatMap((g) => g.steps);
const json = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
/** The groups with every id replaced by its position, to compare content across fresh ids. */
const withoutIds = (groups: PlanGroup[]) =>
  groups.map((g) => ({ ...g, id: '-', steps: g.steps.map((s) => ({ ...s, id: '-', groupId: '-' })) }));

function sdkValues(enumObject: object): string[] {
  return Object.values(enumObject).filter((v): v is string => typeof v === 'string' && v !== 'UNKNOWN_VALUE');
}

function assertOciError(fn: () => unknown, expected: { status?: number; code: string; includes: string[] }): void {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof OciServiceError, `expected an OciServiceError, got ${String(error)}`);
    assert.equal(error.status, expected.status ?? 400);
    assert.equal(error.code, expected.code);
    for (const part of expected.includes)
      assert.ok(error.message.includes(part), `message "${error.message}" should mention "${part}"`);
    return true;
  });
}

// ---------------------------------------------------------------------------------------------
// enums.ts
// ---------------------------------------------------------------------------------------------

describe('enums', () => {
  const pairs: Array<[string, readonly string[], object]> = [
    ['DrPlanType', enums.DR_PLAN_TYPES, models.DrPlanType],
    ['DrPlanLifecycleState', enums.DR_PLAN_LIFECYCLE_STATES, models.DrPlanLifecycleState],
    ['DrPlanLifecycleSubState', enums.DR_PLAN_LIFECYCLE_SUB_STATES, models.DrPlanLifecycleSubState],
    ['DrPlanGroupType', enums.DR_PLAN_GROUP_TYPES, models.DrPlanGroupType],
    ['DrPlanStepType', enums.DR_PLAN_STEP_TYPES, models.DrPlanStepType],
    ['DrPlanStepErrorMode', enums.DR_PLAN_STEP_ERROR_MODES, models.DrPlanStepErrorMode],
    ['DrPlanGroupRefreshStatus', enums.DR_PLAN_GROUP_REFRESH_STATUSES, models.DrPlanGroupRefreshStatus],
    ['DrPlanStepRefreshStatus', enums.DR_PLAN_STEP_REFRESH_STATUSES, models.DrPlanStepRefreshStatus],
    ['DrProtectionGroupRole', enums.DR_PROTECTION_GROUP_ROLES, models.DrProtectionGroupRole],
    [
      'DrProtectionGroupLifecycleState',
      enums.DR_PROTECTION_GROUP_LIFECYCLE_STATES,
      models.DrProtectionGroupLifecycleState,
    ],
    [
      'DrProtectionGroupLifecycleSubState',
      enums.DR_PROTECTION_GROUP_LIFECYCLE_SUB_STATES,
      models.DrProtectionGroupLifecycleSubState,
    ],
    ['DrProtectionGroupMemberType', enums.DR_PROTECTION_GROUP_MEMBER_TYPES, models.DrProtectionGroupMemberType],
    ['OperationType', enums.OPERATION_TYPES, models.OperationType],
    ['OperationStatus', enums.OPERATION_STATUSES, models.OperationStatus],
    ['ActionType', enums.ACTION_TYPES, models.ActionType],
    ['SortOrder', enums.SORT_ORDERS, models.SortOrder],
  ];
  for (const [name, ours, sdk] of pairs) {
    it(`${name} matches the SDK's values, in order, without UNKNOWN_VALUE`, () => {
      assert.deepEqual([...ours], sdkValues(sdk));
      assert.ok(!ours.includes('UNKNOWN_VALUE'));
    });
  }

  it('DrPlanStepType has the 126 wire values', () => {
    assert.equal(enums.DR_PLAN_STEP_TYPES.length, 126);
    assert.equal(new Set(enums.DR_PLAN_STEP_TYPES).size, 126);
  });

  it('user-defined stepType values are exactly the discriminator cases of the SDK model', () => {
    const source = readFileSync(require.resolve('oci-disasterrecovery/lib/model/dr-plan-user-defined-step.js'), 'utf8');
    const cases = new Set([...source.matchAll(/case "([A-Z_]+)":/g)].map((m) => m[1]));
    assert.deepEqual(new Set(enums.DR_PLAN_USER_DEFINED_STEP_TYPES), cases);
    assert.equal(enums.DR_PLAN_USER_DEFINED_STEP_TYPES.length, 9);
  });

  it('isOneOf accepts members only', () => {
    assert.equal(enums.isOneOf(enums.DR_PLAN_TYPES, 'FAILOVER'), true);
    assert.equal(enums.isOneOf(enums.DR_PLAN_TYPES, 'failover'), false);
    assert.equal(enums.isOneOf(enums.DR_PLAN_TYPES, 'UNKNOWN_VALUE'), false);
    assert.equal(enums.isOneOf(enums.DR_PLAN_TYPES, 3), false);
    assert.equal(enums.isOneOf(enums.DR_PLAN_TYPES, undefined), false);
  });
});

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

// ---------------------------------------------------------------------------------------------
// A plan with user customisations, used by clone/refresh/update tests
// ---------------------------------------------------------------------------------------------

const REGION = 'us-phoenix-1';
const scriptStep = (instanceId: string, command = '/opt/app/start.sh') => ({
  displayName: `Start app on ${instanceId.slice(-8)}`,
  userDefinedStep: { stepType: 'RUN_LOCAL_SCRIPT', runOnInstanceId: instanceId, scriptCommand: command },
});

/** A switchover plan plus a user-defined group (scripts on a member and on a non-member) and a pause group. */
function customisedPlan(): PlanGroup[] {
  const generated = generate('SWITCHOVER');
  const request = [
    ...json(generated).slice(0, 12),
    { type: 'USER_DEFINED_PAUSE', displayName: 'Wait for DBA' },
    ...json(generated).slice(12, 16),
    {
      type: 'USER_DEFINED',
      displayName: 'Application start',
      steps: [
        scriptStep(P.movable.memberId),
        scriptStep(ocid('instance', 'phx', 'ops00001'), '/opt/ops/notify.sh'),
        {
          displayName: 'Warm caches',
          errorMode: 'CONTINUE_ON_ERROR',
          timeout: 300,
          userDefinedStep: {
            stepType: 'INVOKE_FUNCTION',
            functionId: ocid('fnfunc', 'phx', 'fun00001'),
            requestBody: '{"warm":true}',
          },
        },
      ],
    },
    ...json(generated).slice(16),
  ];
  return applyPlanGroupsUpdate(generated, request, { region: REGION });
}

/** What terraform-provider-oci sends back from state: the plan's groups as read, unknown fields and nulls included. */
function terraformForm(groups: PlanGroup[]): unknown[] {
  return groups.map((g) => ({
    id: g.id,
    displayName: g.displayName,
    type: g.type,
    steps: g.steps.map((s) => {
      const step: Record<string, unknown> = {
        id: s.id,
        displayName: s.displayName,
        errorMode: s.errorMode,
        isEnabled: s.isEnabled,
        timeout: s.timeout,
      };
      const uds = s.userDefinedStep;
      if (uds?.stepType.startsWith('RUN_LOCAL_SCRIPT'))
        step.userDefinedStep = {
          stepType: uds.stepType,
          runOnInstanceId: uds.runOnInstanceId,
          scriptCommand: uds.scriptCommand,
          runAsUser: uds.runAsUser ?? '',
        };
      else if (uds?.stepType.startsWith('RUN_OBJECTSTORE_SCRIPT'))
        step.userDefinedStep = {
          stepType: uds.stepType,
          runOnInstanceId: uds.runOnInstanceId,
          objectStorageScriptLocation: uds.objectStorageScriptLocation,
          scriptCommand: uds.scriptCommand ?? '',
          runAsUser: uds.runAsUser ?? '',
        };
      else if (uds?.stepType.startsWith('INVOKE_FUNCTION'))
        step.userDefinedStep = {
          stepType: uds.stepType,
          functionId: uds.functionId,
          requestBody: uds.requestBody ?? '',
        };
      return step;
    }),
  }));
}

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
      prechecks.steps.filter((s) => s.memberId !== P.movable.memberId).every((s) => s.refreshStatus === undefined),
    );

    const user = groupNamed(refreshed, 'Application start');
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
    assert.ok(
      refreshed
        .filter((g) => g.type === 'BUILT_IN' || g.type === 'BUILT_IN_PRECHECK')
        .every((g) => g.refreshStatus === 'GROUP_DELETED'),
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
      assert.deepEqual(new Set(stepSummary(group)), new Set(stepSummary(expected)), group.displayName);
    }
    assert.deepEqual(verifyPlanGroups(verified), verified, 'verify is idempotent');
  });
});

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
