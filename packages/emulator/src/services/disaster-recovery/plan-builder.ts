/**
 * DR plan groups and steps: what CreateDrPlan generates from the members of the two protection
 * groups, what a clone copies, what Refresh and Verify do to them, and how UpdateDrPlan's
 * `planGroups` list is applied. Pure functions over wire-shaped data: no HTTP, no storage.
 *
 * Every object returned here is stored as JSON and served as is, so optional fields are left
 * out when empty (never `null`, never an `undefined` key).
 *
 * Generation is an emulator recipe inferred from OCI's documented default group order: one BUILT_IN group
 * per action in the documented default order of the plan type, one step per member the action
 * applies to, and a first BUILT_IN_PRECHECK group holding the `<TYPE>_PRECHECK` of every
 * built-in step that has one. Which member types yield which steps, on which side of the DR
 * pair, is the data table `PLAN_STEP_RULES`; the group order is `PLAN_GROUP_ORDER`.
 */
import { errors } from '../../core/errors';
import { isOcid, newPlanElementId } from '../../core/ids';
import { regionOfOcid } from '../../core/regions';
import {
  DR_PLAN_GROUP_TYPES,
  DR_PLAN_STEP_ERROR_MODES,
  DR_PLAN_STEP_TYPES,
  DR_PLAN_USER_DEFINED_STEP_TYPES,
  isOneOf,
  type DrPlanGroupRefreshStatus,
  type DrPlanGroupType,
  type DrPlanStepErrorMode,
  type DrPlanStepRefreshStatus,
  type DrPlanStepType,
  type DrPlanType,
  type DrPlanUserDefinedStepType,
  type DrProtectionGroupMemberType,
} from './enums';

// ---------------------------------------------------------------------------------------------
// Wire types (OCI's JSON field names)
// ---------------------------------------------------------------------------------------------

/** A protection-group member as stored (`DrProtectionGroupMember` and its subtypes). */
export interface ProtectionGroupMember {
  memberId: string;
  memberType: string;
  [k: string]: unknown;
}

export interface ObjectStorageScriptLocation {
  namespace: string;
  bucket: string;
  object: string;
}

/** `DrPlanUserDefinedStep`, discriminated on `stepType`. */
export interface UserDefinedStep {
  stepType: DrPlanUserDefinedStepType;
  runOnInstanceId?: string;
  runOnInstanceRegion?: string;
  objectStorageScriptLocation?: ObjectStorageScriptLocation;
  scriptCommand?: string;
  runAsUser?: string;
  functionId?: string;
  functionRegion?: string;
  requestBody?: string;
}

/** `DrPlanStep`. */
export interface PlanStep {
  id: string;
  groupId: string;
  memberId?: string;
  type: DrPlanStepType;
  refreshStatus?: DrPlanStepRefreshStatus;
  displayName: string;
  typeDisplayName: string;
  errorMode: DrPlanStepErrorMode;
  timeout: number;
  isEnabled: boolean;
  userDefinedStep?: UserDefinedStep;
}

/** `DrPlanGroup`. `isPauseEnabled` is present only on USER_DEFINED_PAUSE groups. */
export interface PlanGroup {
  id: string;
  type: DrPlanGroupType;
  displayName: string;
  steps: PlanStep[];
  refreshStatus?: DrPlanGroupRefreshStatus;
  isPauseEnabled?: boolean;
}

// ---------------------------------------------------------------------------------------------
// Defaults
// ---------------------------------------------------------------------------------------------

export const DEFAULT_STEP_TIMEOUT_SECONDS = 3600;
export const DEFAULT_STEP_ERROR_MODE: DrPlanStepErrorMode = 'STOP_ON_ERROR';
export const PRECHECK_GROUP_DISPLAY_NAME = 'Prechecks - Built In';
const MAX_DISPLAY_NAME_LENGTH = 255;

// ---------------------------------------------------------------------------------------------
// Generation tables
// ---------------------------------------------------------------------------------------------

/**
 * The built-in groups, by key, with their display names. Display names follow Oracle's
 * "Default Order of DR Plan Groups" documentation page where it names them; the drill and
 * OKE names are ours, in the same style. The page's combined "OKE - Scale Up / Restore
 * (Standby)" group is split in two, because every group holds one action.
 */
export const BUILT_IN_GROUP_NAMES = {
  LB_UPDATE_SOURCE: 'Load Balancers - Update Source Backend Sets',
  FS_UNMOUNT: 'Unmount from Compute Instances',
  CI_DETACH_BLOCK_VOLUMES: 'Compute Instances - Detach Block Volumes',
  CI_STOP: 'Compute Instances - Stop',
  OKE_CLEANUP_PRIMARY: 'OKE - Stop Backup and Cleanup (Primary)',
  VG_SWITCHOVER: 'Volume Groups - Switchover',
  VG_FAILOVER: 'Volume Groups - Failover',
  VG_START_DRILL: 'Volume Groups - Start Drill',
  FS_SWITCHOVER: 'File Systems - Switchover',
  FS_FAILOVER: 'File Systems - Failover',
  FS_START_DRILL: 'File Systems - Start Drill',
  FS_STOP_DRILL: 'File Systems - Stop Drill',
  BUCKET_DELETE_REPLICATION_PRIMARY: 'Object Storage Bucket - Delete Replication (Primary)',
  BUCKET_DELETE_REPLICATION_STANDBY: 'Object Storage Bucket - Delete Replication (Standby)',
  BUCKET_SETUP_REVERSE_REPLICATION: 'Object Storage Bucket - Setup Reverse Replication (Standby)',
  DB_SWITCHOVER: 'Databases - Switchover',
  DB_FAILOVER: 'Databases - Failover',
  DB_SNAPSHOT_STANDBY: 'Databases - Convert to Snapshot Standby',
  DB_PHYSICAL_STANDBY: 'Databases - Convert to Physical Standby',
  ADB_SWITCHOVER: 'Autonomous Databases - Switchover',
  ADB_FAILOVER: 'Autonomous Databases - Failover',
  ADB_CREATE_CLONE_STANDBY: 'Autonomous Databases - Create Clone Standby',
  ADB_DELETE_CLONE_STANDBY: 'Autonomous Databases - Delete Clone Standby',
  ADB_SNAPSHOT_STANDBY: 'Autonomous Databases - Convert to Snapshot Standby',
  ADB_PHYSICAL_STANDBY: 'Autonomous Databases - Convert to Physical Standby',
  ACD_SWITCHOVER: 'Autonomous Container Databases - Switchover',
  ACD_FAILOVER: 'Autonomous Container Databases - Failover',
  ACD_SNAPSHOT_STANDBY: 'Autonomous Container Databases - Convert to Snapshot Standby',
  ACD_PHYSICAL_STANDBY: 'Autonomous Container Databases - Convert to Physical Standby',
  MYSQL_SWITCHOVER: 'MySQL HeatWave DB System - Switchover',
  MYSQL_FAILOVER: 'MySQL HeatWave DB System - Failover',
  MYSQL_START_DRILL: 'MySQL HeatWave DB System - Start Drill',
  MYSQL_STOP_DRILL: 'MySQL HeatWave DB System - Stop Drill',
  OIC_SWITCHOVER: 'Integration Instances - Switchover',
  OIC_FAILOVER: 'Integration Instances - Failover',
  CI_LAUNCH: 'Compute Instances - Launch',
  CI_START: 'Compute Instances - Start',
  CI_ATTACH_BLOCK_VOLUMES: 'Compute Instances - Attach Block Volumes',
  LB_UPDATE_DESTINATION: 'Load Balancers - Update Destination Backend Sets',
  FS_MOUNT: 'File Systems - Mount on Compute Instances',
  OKE_SCALE_UP_STANDBY: 'OKE - Scale Up (Standby)',
  OKE_RESTORE_STANDBY: 'OKE - Restore (Standby)',
  OKE_CLEANUP_STANDBY: 'OKE - Cleanup (Standby)',
  OKE_SCALE_DOWN_STANDBY: 'OKE - Scale Down (Standby)',
  VG_REVERSE: 'Volume Groups - Reverse Replication',
  FS_REVERSE: 'File Systems - Reverse Replication',
  FS_TERMINATE: 'File Systems - Terminate',
  CI_TERMINATE: 'Compute Instances - Terminate',
  CI_REMOVE: 'Compute Instances - Remove from DR Protection Group',
  VG_TERMINATE: 'Volume Groups - Terminate',
  VG_REMOVE: 'Volume Groups - Remove from DR Protection Group',
  FS_REMOVE: 'File Systems - Remove from DR Protection Group',
  OKE_REVERSE_BACKUP_STANDBY: 'OKE - Schedule Reverse Backup (Standby)',
  OKE_SCALE_DOWN_PRIMARY: 'OKE - Scale Down (Primary)',
} as const;
export type BuiltInGroupKey = keyof typeof BUILT_IN_GROUP_NAMES;

/**
 * The order of the BUILT_IN groups per plan type (the precheck group always comes first).
 * SWITCHOVER is Oracle's documented default order. FAILOVER follows the documented start
 * (volume groups, databases, file systems, buckets first: the primary region is assumed lost,
 * so nothing is stopped, reversed or terminated there), then brings the application tier up
 * as a switchover does and finally removes the moved resources from the old primary group.
 * START_DRILL brings up a copy of the stack at the standby the way a failover does, without
 * touching the primary; STOP_DRILL tears the copy down in the reverse order (application tier
 * first, data tier last).
 */
export const PLAN_GROUP_ORDER: Readonly<Record<DrPlanType, readonly BuiltInGroupKey[]>> = {
  SWITCHOVER: [
    'LB_UPDATE_SOURCE',
    'FS_UNMOUNT',
    'CI_DETACH_BLOCK_VOLUMES',
    'CI_STOP',
    'OKE_CLEANUP_PRIMARY',
    'VG_SWITCHOVER',
    'FS_SWITCHOVER',
    'BUCKET_DELETE_REPLICATION_PRIMARY',
    'BUCKET_SETUP_REVERSE_REPLICATION',
    'DB_SWITCHOVER',
    'ADB_SWITCHOVER',
    'ACD_SWITCHOVER',
    'MYSQL_SWITCHOVER',
    'OIC_SWITCHOVER',
    'CI_LAUNCH',
    'CI_START',
    'CI_ATTACH_BLOCK_VOLUMES',
    'LB_UPDATE_DESTINATION',
    'FS_MOUNT',
    'OKE_SCALE_UP_STANDBY',
    'OKE_RESTORE_STANDBY',
    'VG_REVERSE',
    'FS_REVERSE',
    'FS_TERMINATE',
    'CI_TERMINATE',
    'CI_REMOVE',
    'VG_TERMINATE',
    'VG_REMOVE',
    'FS_REMOVE',
    'OKE_REVERSE_BACKUP_STANDBY',
    'OKE_SCALE_DOWN_PRIMARY',
  ],
  FAILOVER: [
    'VG_FAILOVER',
    'DB_FAILOVER',
    'ADB_FAILOVER',
    'ACD_FAILOVER',
    'FS_FAILOVER',
    'BUCKET_DELETE_REPLICATION_STANDBY',
    'BUCKET_SETUP_REVERSE_REPLICATION',
    'MYSQL_FAILOVER',
    'OIC_FAILOVER',
    'CI_LAUNCH',
    'CI_START',
    'CI_ATTACH_BLOCK_VOLUMES',
    'LB_UPDATE_DESTINATION',
    'FS_MOUNT',
    'OKE_SCALE_UP_STANDBY',
    'OKE_RESTORE_STANDBY',
    'CI_REMOVE',
    'VG_REMOVE',
    'FS_REMOVE',
  ],
  START_DRILL: [
    'VG_START_DRILL',
    'FS_START_DRILL',
    'DB_SNAPSHOT_STANDBY',
    'ADB_CREATE_CLONE_STANDBY',
    'ADB_SNAPSHOT_STANDBY',
    'ACD_SNAPSHOT_STANDBY',
    'MYSQL_START_DRILL',
    'CI_LAUNCH',
    'CI_START',
    'CI_ATTACH_BLOCK_VOLUMES',
    'LB_UPDATE_DESTINATION',
    'FS_MOUNT',
    'OKE_SCALE_UP_STANDBY',
    'OKE_RESTORE_STANDBY',
  ],
  STOP_DRILL: [
    'LB_UPDATE_DESTINATION',
    'FS_UNMOUNT',
    'CI_DETACH_BLOCK_VOLUMES',
    'CI_STOP',
    'OKE_CLEANUP_STANDBY',
    'OKE_SCALE_DOWN_STANDBY',
    'CI_TERMINATE',
    'VG_TERMINATE',
    'FS_STOP_DRILL',
    'DB_PHYSICAL_STANDBY',
    'ADB_DELETE_CLONE_STANDBY',
    'ADB_PHYSICAL_STANDBY',
    'ACD_PHYSICAL_STANDBY',
    'MYSQL_STOP_DRILL',
  ],
};

/**
 * Which protection group the step's member comes from: the plan's PRIMARY peer (where the
 * workload runs now) or its STANDBY group (where the plan lives and the workload goes).
 */
export type MemberSide = 'primary' | 'standby';

/** Member settings that decide whether a rule applies (all listed conditions must hold). */
export type MemberCondition =
  /** legacy COMPUTE_INSTANCE with `isMovable: true` */
  | 'isMovable'
  /** non-movable instance with `isStartStopEnabled: true` */
  | 'isStartStopEnabled'
  /** instance with a non-empty `fileSystemOperations` */
  | 'hasFileSystemOperations'
  /** non-movable instance with block-volume attach/mount operations */
  | 'hasBlockVolumeOperations'
  /** movable instance with a `destinationCapacityReservationId` */
  | 'hasCapacityReservation'
  /** autonomous database drilled through a clone (FULL_CLONE, REFRESHABLE_CLONE or unset) */
  | 'drillsWithClone'
  /** autonomous database drilled through a snapshot standby */
  | 'drillsWithSnapshotStandby';

/**
 * One step the plan gets for one member. `group: 'PRECHECK'` puts a precheck-only step (the
 * compute capacity checks) into the precheck group.
 */
export interface PlanStepRule {
  group: BuiltInGroupKey | 'PRECHECK';
  stepType: DrPlanStepType;
  side: MemberSide;
  when?: readonly MemberCondition[];
}

type RulesByPlanType = Readonly<Record<DrPlanType, readonly PlanStepRule[]>>;

const NONE: readonly PlanStepRule[] = [];

const MOVABLE_INSTANCE_RULES: RulesByPlanType = {
  SWITCHOVER: [
    { group: 'PRECHECK', stepType: 'COMPUTE_CAPACITY_AVAILABILITY_SWITCHOVER_PRECHECK', side: 'primary' },
    {
      group: 'PRECHECK',
      stepType: 'COMPUTE_CAPACITY_RESERVATION_SWITCHOVER_PRECHECK',
      side: 'primary',
      when: ['hasCapacityReservation'],
    },
    { group: 'FS_UNMOUNT', stepType: 'FILE_SYSTEM_UNMOUNT', side: 'primary', when: ['hasFileSystemOperations'] },
    { group: 'CI_STOP', stepType: 'COMPUTE_INSTANCE_STOP', side: 'primary' },
    { group: 'CI_LAUNCH', stepType: 'COMPUTE_INSTANCE_LAUNCH', side: 'primary' },
    { group: 'FS_MOUNT', stepType: 'FILE_SYSTEM_MOUNT', side: 'primary', when: ['hasFileSystemOperations'] },
    { group: 'CI_TERMINATE', stepType: 'COMPUTE_INSTANCE_TERMINATE', side: 'primary' },
    { group: 'CI_REMOVE', stepType: 'COMPUTE_INSTANCE_REMOVE', side: 'primary' },
  ],
  FAILOVER: [
    { group: 'PRECHECK', stepType: 'COMPUTE_CAPACITY_AVAILABILITY_FAILOVER_PRECHECK', side: 'primary' },
    {
      group: 'PRECHECK',
      stepType: 'COMPUTE_CAPACITY_RESERVATION_FAILOVER_PRECHECK',
      side: 'primary',
      when: ['hasCapacityReservation'],
    },
    { group: 'CI_LAUNCH', stepType: 'COMPUTE_INSTANCE_LAUNCH', side: 'primary' },
    { group: 'FS_MOUNT', stepType: 'FILE_SYSTEM_MOUNT', side: 'primary', when: ['hasFileSystemOperations'] },
    { group: 'CI_REMOVE', stepType: 'COMPUTE_INSTANCE_REMOVE', side: 'primary' },
  ],
  START_DRILL: [
    { group: 'PRECHECK', stepType: 'COMPUTE_CAPACITY_AVAILABILITY_START_DRILL_PRECHECK', side: 'primary' },
    {
      group: 'PRECHECK',
      stepType: 'COMPUTE_CAPACITY_RESERVATION_START_DRILL_PRECHECK',
      side: 'primary',
      when: ['hasCapacityReservation'],
    },
    { group: 'CI_LAUNCH', stepType: 'COMPUTE_INSTANCE_LAUNCH', side: 'primary' },
    { group: 'FS_MOUNT', stepType: 'FILE_SYSTEM_MOUNT', side: 'primary', when: ['hasFileSystemOperations'] },
  ],
  STOP_DRILL: [
    { group: 'FS_UNMOUNT', stepType: 'FILE_SYSTEM_UNMOUNT', side: 'primary', when: ['hasFileSystemOperations'] },
    { group: 'CI_TERMINATE', stepType: 'COMPUTE_INSTANCE_TERMINATE', side: 'primary' },
  ],
};

/**
 * Legacy `COMPUTE_INSTANCE` members: only movable ones (`isMovable: true`) take part, like
 * COMPUTE_INSTANCE_MOVABLE without file-system operations (the legacy model has none).
 */
const LEGACY_INSTANCE_RULES: RulesByPlanType = {
  SWITCHOVER: [
    {
      group: 'PRECHECK',
      stepType: 'COMPUTE_CAPACITY_AVAILABILITY_SWITCHOVER_PRECHECK',
      side: 'primary',
      when: ['isMovable'],
    },
    { group: 'CI_STOP', stepType: 'COMPUTE_INSTANCE_STOP', side: 'primary', when: ['isMovable'] },
    { group: 'CI_LAUNCH', stepType: 'COMPUTE_INSTANCE_LAUNCH', side: 'primary', when: ['isMovable'] },
    { group: 'CI_TERMINATE', stepType: 'COMPUTE_INSTANCE_TERMINATE', side: 'primary', when: ['isMovable'] },
    { group: 'CI_REMOVE', stepType: 'COMPUTE_INSTANCE_REMOVE', side: 'primary', when: ['isMovable'] },
  ],
  FAILOVER: [
    {
      group: 'PRECHECK',
      stepType: 'COMPUTE_CAPACITY_AVAILABILITY_FAILOVER_PRECHECK',
      side: 'primary',
      when: ['isMovable'],
    },
    { group: 'CI_LAUNCH', stepType: 'COMPUTE_INSTANCE_LAUNCH', side: 'primary', when: ['isMovable'] },
    { group: 'CI_REMOVE', stepType: 'COMPUTE_INSTANCE_REMOVE', side: 'primary', when: ['isMovable'] },
  ],
  START_DRILL: [
    {
      group: 'PRECHECK',
      stepType: 'COMPUTE_CAPACITY_AVAILABILITY_START_DRILL_PRECHECK',
      side: 'primary',
      when: ['isMovable'],
    },
    { group: 'CI_LAUNCH', stepType: 'COMPUTE_INSTANCE_LAUNCH', side: 'primary', when: ['isMovable'] },
  ],
  STOP_DRILL: [{ group: 'CI_TERMINATE', stepType: 'COMPUTE_INSTANCE_TERMINATE', side: 'primary', when: ['isMovable'] }],
};

/**
 * Non-movable instances exist in both regions: the primary's are stopped (and their volumes
 * detached, their file systems unmounted), the standby's are started and wired up.
 */
const NON_MOVABLE_INSTANCE_RULES: RulesByPlanType = {
  SWITCHOVER: [
    { group: 'FS_UNMOUNT', stepType: 'FILE_SYSTEM_UNMOUNT', side: 'primary', when: ['hasFileSystemOperations'] },
    {
      group: 'CI_DETACH_BLOCK_VOLUMES',
      stepType: 'COMPUTE_INSTANCE_DETACH_BLOCK_VOLUMES',
      side: 'primary',
      when: ['hasBlockVolumeOperations'],
    },
    { group: 'CI_STOP', stepType: 'COMPUTE_INSTANCE_STOP', side: 'primary', when: ['isStartStopEnabled'] },
    { group: 'CI_START', stepType: 'COMPUTE_INSTANCE_START', side: 'standby', when: ['isStartStopEnabled'] },
    {
      group: 'CI_ATTACH_BLOCK_VOLUMES',
      stepType: 'COMPUTE_INSTANCE_ATTACH_BLOCK_VOLUMES',
      side: 'standby',
      when: ['hasBlockVolumeOperations'],
    },
    { group: 'FS_MOUNT', stepType: 'FILE_SYSTEM_MOUNT', side: 'standby', when: ['hasFileSystemOperations'] },
  ],
  FAILOVER: [
    { group: 'CI_START', stepType: 'COMPUTE_INSTANCE_START', side: 'standby', when: ['isStartStopEnabled'] },
    {
      group: 'CI_ATTACH_BLOCK_VOLUMES',
      stepType: 'COMPUTE_INSTANCE_ATTACH_BLOCK_VOLUMES',
      side: 'standby',
      when: ['hasBlockVolumeOperations'],
    },
    { group: 'FS_MOUNT', stepType: 'FILE_SYSTEM_MOUNT', side: 'standby', when: ['hasFileSystemOperations'] },
  ],
  START_DRILL: [
    { group: 'CI_START', stepType: 'COMPUTE_INSTANCE_START', side: 'standby', when: ['isStartStopEnabled'] },
    {
      group: 'CI_ATTACH_BLOCK_VOLUMES',
      stepType: 'COMPUTE_INSTANCE_ATTACH_BLOCK_VOLUMES',
      side: 'standby',
      when: ['hasBlockVolumeOperations'],
    },
    { group: 'FS_MOUNT', stepType: 'FILE_SYSTEM_MOUNT', side: 'standby', when: ['hasFileSystemOperations'] },
  ],
  STOP_DRILL: [
    { group: 'FS_UNMOUNT', stepType: 'FILE_SYSTEM_UNMOUNT', side: 'standby', when: ['hasFileSystemOperations'] },
    {
      group: 'CI_DETACH_BLOCK_VOLUMES',
      stepType: 'COMPUTE_INSTANCE_DETACH_BLOCK_VOLUMES',
      side: 'standby',
      when: ['hasBlockVolumeOperations'],
    },
    { group: 'CI_STOP', stepType: 'COMPUTE_INSTANCE_STOP', side: 'standby', when: ['isStartStopEnabled'] },
  ],
};

/**
 * Load balancers: the primary LB member carries the destination LB and backend-set mappings,
 * so both backend-set steps act on it. NETWORK_LOAD_BALANCER has no step types of its own in
 * `DrPlanStepType`; it uses the LOAD_BALANCER ones.
 */
const LOAD_BALANCER_RULES: RulesByPlanType = {
  SWITCHOVER: [
    { group: 'LB_UPDATE_SOURCE', stepType: 'LOAD_BALANCER_UPDATE_PRIMARY_BACKEND_SET', side: 'primary' },
    { group: 'LB_UPDATE_DESTINATION', stepType: 'LOAD_BALANCER_UPDATE_STANDBY_BACKEND_SET', side: 'primary' },
  ],
  FAILOVER: [{ group: 'LB_UPDATE_DESTINATION', stepType: 'LOAD_BALANCER_UPDATE_STANDBY_BACKEND_SET', side: 'primary' }],
  START_DRILL: [
    { group: 'LB_UPDATE_DESTINATION', stepType: 'LOAD_BALANCER_UPDATE_STANDBY_BACKEND_SET', side: 'primary' },
  ],
  STOP_DRILL: [
    { group: 'LB_UPDATE_DESTINATION', stepType: 'LOAD_BALANCER_UPDATE_STANDBY_BACKEND_SET', side: 'primary' },
  ],
};

/**
 * Steps per member type and plan type: the whole generation logic as data. Replicated storage
 * (volume groups, file systems) is a member of the primary group and restored at the standby
 * from it; Data Guard style databases act through the standby member (role transitions and
 * drills run on the standby database); buckets delete replication at the side that owns it.
 */
export const PLAN_STEP_RULES: Readonly<Record<DrProtectionGroupMemberType, RulesByPlanType>> = {
  COMPUTE_INSTANCE: LEGACY_INSTANCE_RULES,
  COMPUTE_INSTANCE_MOVABLE: MOVABLE_INSTANCE_RULES,
  COMPUTE_INSTANCE_NON_MOVABLE: NON_MOVABLE_INSTANCE_RULES,
  VOLUME_GROUP: {
    SWITCHOVER: [
      { group: 'VG_SWITCHOVER', stepType: 'VOLUME_GROUP_RESTORE_SWITCHOVER', side: 'primary' },
      { group: 'VG_REVERSE', stepType: 'VOLUME_GROUP_REVERSE', side: 'primary' },
      { group: 'VG_TERMINATE', stepType: 'VOLUME_GROUP_TERMINATE', side: 'primary' },
      { group: 'VG_REMOVE', stepType: 'VOLUME_GROUP_REMOVE', side: 'primary' },
    ],
    FAILOVER: [
      { group: 'VG_FAILOVER', stepType: 'VOLUME_GROUP_RESTORE_FAILOVER', side: 'primary' },
      { group: 'VG_REMOVE', stepType: 'VOLUME_GROUP_REMOVE', side: 'primary' },
    ],
    START_DRILL: [{ group: 'VG_START_DRILL', stepType: 'VOLUME_GROUP_RESTORE_START_DRILL', side: 'primary' }],
    STOP_DRILL: [{ group: 'VG_TERMINATE', stepType: 'VOLUME_GROUP_TERMINATE', side: 'primary' }],
  },
  DATABASE: {
    SWITCHOVER: [{ group: 'DB_SWITCHOVER', stepType: 'DATABASE_SWITCHOVER', side: 'standby' }],
    FAILOVER: [{ group: 'DB_FAILOVER', stepType: 'DATABASE_FAILOVER', side: 'standby' }],
    START_DRILL: [
      { group: 'DB_SNAPSHOT_STANDBY', stepType: 'DATABASE_START_DRILL_CONVERT_TO_SNAPSHOT_STANDBY', side: 'standby' },
    ],
    STOP_DRILL: [
      { group: 'DB_PHYSICAL_STANDBY', stepType: 'DATABASE_STOP_DRILL_CONVERT_TO_PHYSICAL_STANDBY', side: 'standby' },
    ],
  },
  AUTONOMOUS_DATABASE: {
    SWITCHOVER: [{ group: 'ADB_SWITCHOVER', stepType: 'AUTONOMOUS_DATABASE_SWITCHOVER', side: 'standby' }],
    FAILOVER: [{ group: 'ADB_FAILOVER', stepType: 'AUTONOMOUS_DATABASE_FAILOVER', side: 'standby' }],
    START_DRILL: [
      {
        group: 'ADB_CREATE_CLONE_STANDBY',
        stepType: 'AUTONOMOUS_DATABASE_START_DRILL_CREATE_CLONE_STANDBY',
        side: 'standby',
        when: ['drillsWithClone'],
      },
      {
        group: 'ADB_SNAPSHOT_STANDBY',
        stepType: 'AUTONOMOUS_DATABASE_START_DRILL_CONVERT_TO_SNAPSHOT_STANDBY',
        side: 'standby',
        when: ['drillsWithSnapshotStandby'],
      },
    ],
    STOP_DRILL: [
      {
        group: 'ADB_DELETE_CLONE_STANDBY',
        stepType: 'AUTONOMOUS_DATABASE_STOP_DRILL_DELETE_CLONE_STANDBY',
        side: 'standby',
        when: ['drillsWithClone'],
      },
      {
        group: 'ADB_PHYSICAL_STANDBY',
        stepType: 'AUTONOMOUS_DATABASE_STOP_DRILL_CONVERT_TO_PHYSICAL_STANDBY',
        side: 'standby',
        when: ['drillsWithSnapshotStandby'],
      },
    ],
  },
  AUTONOMOUS_CONTAINER_DATABASE: {
    SWITCHOVER: [{ group: 'ACD_SWITCHOVER', stepType: 'AUTONOMOUS_CONTAINER_DATABASE_SWITCHOVER', side: 'standby' }],
    FAILOVER: [{ group: 'ACD_FAILOVER', stepType: 'AUTONOMOUS_CONTAINER_DATABASE_FAILOVER', side: 'standby' }],
    START_DRILL: [
      {
        group: 'ACD_SNAPSHOT_STANDBY',
        stepType: 'AUTONOMOUS_CONTAINER_DATABASE_START_DRILL_CONVERT_TO_SNAPSHOT_STANDBY',
        side: 'standby',
      },
    ],
    STOP_DRILL: [
      {
        group: 'ACD_PHYSICAL_STANDBY',
        stepType: 'AUTONOMOUS_CONTAINER_DATABASE_STOP_DRILL_CONVERT_TO_PHYSICAL_STANDBY',
        side: 'standby',
      },
    ],
  },
  LOAD_BALANCER: LOAD_BALANCER_RULES,
  NETWORK_LOAD_BALANCER: LOAD_BALANCER_RULES,
  FILE_SYSTEM: {
    SWITCHOVER: [
      { group: 'FS_SWITCHOVER', stepType: 'FILE_SYSTEM_SWITCHOVER', side: 'primary' },
      { group: 'FS_REVERSE', stepType: 'FILE_SYSTEM_REVERSE', side: 'primary' },
      { group: 'FS_TERMINATE', stepType: 'FILE_SYSTEM_TERMINATE', side: 'primary' },
      { group: 'FS_REMOVE', stepType: 'FILE_SYSTEM_REMOVE', side: 'primary' },
    ],
    FAILOVER: [
      { group: 'FS_FAILOVER', stepType: 'FILE_SYSTEM_FAILOVER', side: 'primary' },
      { group: 'FS_REMOVE', stepType: 'FILE_SYSTEM_REMOVE', side: 'primary' },
    ],
    START_DRILL: [{ group: 'FS_START_DRILL', stepType: 'FILE_SYSTEM_START_DRILL', side: 'primary' }],
    STOP_DRILL: [{ group: 'FS_STOP_DRILL', stepType: 'FILE_SYSTEM_STOP_DRILL', side: 'primary' }],
  },
  OKE_CLUSTER: {
    SWITCHOVER: [
      { group: 'OKE_CLEANUP_PRIMARY', stepType: 'OKE_CLUSTER_SWITCHOVER_CLEANUP_PRIMARY', side: 'primary' },
      { group: 'OKE_SCALE_UP_STANDBY', stepType: 'OKE_CLUSTER_SWITCHOVER_SCALE_UP_STANDBY', side: 'standby' },
      { group: 'OKE_RESTORE_STANDBY', stepType: 'OKE_CLUSTER_SWITCHOVER_RESTORE_STANDBY', side: 'standby' },
      {
        group: 'OKE_REVERSE_BACKUP_STANDBY',
        stepType: 'OKE_CLUSTER_SWITCHOVER_REVERSE_BACKUP_STANDBY',
        side: 'standby',
      },
      { group: 'OKE_SCALE_DOWN_PRIMARY', stepType: 'OKE_CLUSTER_SWITCHOVER_SCALE_DOWN_PRIMARY', side: 'primary' },
    ],
    FAILOVER: [
      { group: 'OKE_SCALE_UP_STANDBY', stepType: 'OKE_CLUSTER_FAILOVER_SCALE_UP_STANDBY', side: 'standby' },
      { group: 'OKE_RESTORE_STANDBY', stepType: 'OKE_CLUSTER_FAILOVER_RESTORE_STANDBY', side: 'standby' },
    ],
    START_DRILL: [
      { group: 'OKE_SCALE_UP_STANDBY', stepType: 'OKE_CLUSTER_START_DRILL_SCALE_UP_STANDBY', side: 'standby' },
      { group: 'OKE_RESTORE_STANDBY', stepType: 'OKE_CLUSTER_START_DRILL_RESTORE_STANDBY', side: 'standby' },
    ],
    STOP_DRILL: [
      { group: 'OKE_CLEANUP_STANDBY', stepType: 'OKE_CLUSTER_STOP_DRILL_CLEANUP_STANDBY', side: 'standby' },
      { group: 'OKE_SCALE_DOWN_STANDBY', stepType: 'OKE_CLUSTER_STOP_DRILL_SCALE_DOWN_STANDBY', side: 'standby' },
    ],
  },
  OBJECT_STORAGE_BUCKET: {
    SWITCHOVER: [
      {
        group: 'BUCKET_DELETE_REPLICATION_PRIMARY',
        stepType: 'OBJECT_STORAGE_BUCKET_SWITCHOVER_DELETE_REPLICATION_PRIMARY',
        side: 'primary',
      },
      {
        group: 'BUCKET_SETUP_REVERSE_REPLICATION',
        stepType: 'OBJECT_STORAGE_BUCKET_SWITCHOVER_SETUP_REVERSE_REPLICATION_STANDBY',
        side: 'standby',
      },
    ],
    FAILOVER: [
      {
        group: 'BUCKET_DELETE_REPLICATION_STANDBY',
        stepType: 'OBJECT_STORAGE_BUCKET_FAILOVER_DELETE_REPLICATION_STANDBY',
        side: 'standby',
      },
      {
        group: 'BUCKET_SETUP_REVERSE_REPLICATION',
        stepType: 'OBJECT_STORAGE_BUCKET_FAILOVER_SETUP_REVERSE_REPLICATION_STANDBY',
        side: 'standby',
      },
    ],
    START_DRILL: NONE,
    STOP_DRILL: NONE,
  },
  MYSQL_DB_SYSTEM: {
    SWITCHOVER: [{ group: 'MYSQL_SWITCHOVER', stepType: 'MYSQL_DB_SYSTEM_SWITCHOVER', side: 'standby' }],
    FAILOVER: [{ group: 'MYSQL_FAILOVER', stepType: 'MYSQL_DB_SYSTEM_FAILOVER', side: 'standby' }],
    START_DRILL: [{ group: 'MYSQL_START_DRILL', stepType: 'MYSQL_DB_SYSTEM_START_DRILL', side: 'standby' }],
    STOP_DRILL: [{ group: 'MYSQL_STOP_DRILL', stepType: 'MYSQL_DB_SYSTEM_STOP_DRILL', side: 'standby' }],
  },
  INTEGRATION_INSTANCE: {
    SWITCHOVER: [{ group: 'OIC_SWITCHOVER', stepType: 'INTEGRATION_INSTANCE_SWITCHOVER', side: 'standby' }],
    FAILOVER: [{ group: 'OIC_FAILOVER', stepType: 'INTEGRATION_INSTANCE_FAILOVER', side: 'standby' }],
    START_DRILL: NONE,
    STOP_DRILL: NONE,
  },
};

const nonEmptyArray = (value: unknown): boolean => Array.isArray(value) && value.length > 0;

const MEMBER_CONDITIONS: Readonly<Record<MemberCondition, (member: ProtectionGroupMember) => boolean>> = {
  isMovable: (m) => m.isMovable === true,
  isStartStopEnabled: (m) => m.isStartStopEnabled === true,
  hasFileSystemOperations: (m) => nonEmptyArray(m.fileSystemOperations),
  hasBlockVolumeOperations: (m) => {
    const attachAndMount = m.blockVolumeAttachAndMountOperations as
      { attachments?: unknown; mounts?: unknown } | undefined;
    return (
      nonEmptyArray(m.blockVolumeOperations) ||
      (typeof attachAndMount === 'object' &&
        attachAndMount !== null &&
        (nonEmptyArray(attachAndMount.attachments) || nonEmptyArray(attachAndMount.mounts)))
    );
  },
  hasCapacityReservation: (m) =>
    typeof m.destinationCapacityReservationId === 'string' && m.destinationCapacityReservationId !== '',
  drillsWithClone: (m) => m.autonomousDatabaseStandbyTypeForDrDrills !== 'SNAPSHOT_STANDBY',
  drillsWithSnapshotStandby: (m) => m.autonomousDatabaseStandbyTypeForDrDrills === 'SNAPSHOT_STANDBY',
};

// ---------------------------------------------------------------------------------------------
// Labels
// ---------------------------------------------------------------------------------------------

const WORD_LABELS: Readonly<Record<string, string>> = { OKE: 'OKE', MYSQL: 'MySQL', DB: 'DB', TO: 'to' };

/** A human label for an enum value: `DATABASE_SWITCHOVER` → "Database Switchover". */
export function typeDisplayNameOf(type: string): string {
  return type
    .split('_')
    .filter((word) => word !== '')
    .map((word) => WORD_LABELS[word] ?? word.charAt(0) + word.slice(1).toLowerCase())
    .join(' ');
}

/** The tail of an OCID, short enough for a display name (`ocid1.instance.oc1.iad.amaa…xyz` → last 8 characters). */
export function shortMemberId(memberId: string): string {
  const unique = memberId.split('.').pop() ?? memberId;
  return unique.length > 8 ? unique.slice(-8) : unique;
}

// ---------------------------------------------------------------------------------------------
// Generation
// ---------------------------------------------------------------------------------------------

const PRECHECK_TYPES: ReadonlySet<string> = new Set(DR_PLAN_STEP_TYPES.filter((t) => t.endsWith('_PRECHECK')));

/** The `<TYPE>_PRECHECK` step type of a built-in step type, when the enum has one. */
export function precheckTypeOf(type: DrPlanStepType): DrPlanStepType | undefined {
  const candidate = `${type}_PRECHECK`;
  return PRECHECK_TYPES.has(candidate) ? (candidate as DrPlanStepType) : undefined;
}

function builtInStep(groupId: string, type: DrPlanStepType, memberId: string): PlanStep {
  const typeDisplayName = typeDisplayNameOf(type);
  return {
    id: newPlanElementId('step'),
    groupId,
    memberId,
    type,
    displayName: `${typeDisplayName} - ${shortMemberId(memberId)}`,
    typeDisplayName,
    errorMode: DEFAULT_STEP_ERROR_MODE,
    timeout: DEFAULT_STEP_TIMEOUT_SECONDS,
    isEnabled: true,
  };
}

export interface GeneratePlanGroupsArgs {
  planType: DrPlanType;
  /** Members of the plan's PRIMARY peer group. */
  primaryMembers: readonly ProtectionGroupMember[];
  /** Members of the plan's own (STANDBY) group. */
  standbyMembers: readonly ProtectionGroupMember[];
}

/**
 * The plan groups CreateDrPlan builds for a plan type from both groups' members: the precheck
 * group first, then one BUILT_IN group per action with at least one step, in
 * `PLAN_GROUP_ORDER`. Within a group, steps follow the primary's members, then the standby's,
 * each in member order. Members of a type the table does not know are ignored. No members on
 * either side → `[]`.
 */
export function generatePlanGroups(args: GeneratePlanGroupsArgs): PlanGroup[] {
  const { planType } = args;
  const stepsByGroup = new Map<BuiltInGroupKey | 'PRECHECK', Array<{ type: DrPlanStepType; memberId: string }>>();
  const sides: Array<[MemberSide, readonly ProtectionGroupMember[]]> = [
    ['primary', args.primaryMembers],
    ['standby', args.standbyMembers],
  ];
  for (const [side, members] of sides) {
    for (const member of members) {
      const rulesByPlan = (PLAN_STEP_RULES as Partial<Record<string, RulesByPlanType>>)[member.memberType];
      for (const rule of rulesByPlan?.[planType] ?? NONE) {
        if (rule.side !== side) continue;
        if (rule.when && !rule.when.every((condition) => MEMBER_CONDITIONS[condition](member))) continue;
        const list = stepsByGroup.get(rule.group) ?? [];
        list.push({ type: rule.stepType, memberId: member.memberId });
        stepsByGroup.set(rule.group, list);
      }
    }
  }

  const builtIn: PlanGroup[] = [];
  for (const key of PLAN_GROUP_ORDER[planType]) {
    const planned = stepsByGroup.get(key);
    if (!planned || planned.length === 0) continue;
    const id = newPlanElementId('group');
    builtIn.push({
      id,
      type: 'BUILT_IN',
      displayName: BUILT_IN_GROUP_NAMES[key],
      steps: planned.map((p) => builtInStep(id, p.type, p.memberId)),
    });
  }

  const precheckId = newPlanElementId('group');
  const prechecks: PlanStep[] = [];
  for (const group of builtIn) {
    for (const step of group.steps) {
      const precheck = precheckTypeOf(step.type);
      if (precheck && step.memberId) prechecks.push(builtInStep(precheckId, precheck, step.memberId));
    }
  }
  for (const p of stepsByGroup.get('PRECHECK') ?? []) prechecks.push(builtInStep(precheckId, p.type, p.memberId));

  if (prechecks.length === 0) return builtIn;
  return [
    { id: precheckId, type: 'BUILT_IN_PRECHECK', displayName: PRECHECK_GROUP_DISPLAY_NAME, steps: prechecks },
    ...builtIn,
  ];
}

// ---------------------------------------------------------------------------------------------
// Copy helpers (build objects without undefined keys)
// ---------------------------------------------------------------------------------------------

function copyUserDefinedStep(uds: UserDefinedStep): UserDefinedStep {
  const copy: UserDefinedStep = { stepType: uds.stepType };
  if (uds.runOnInstanceId !== undefined) copy.runOnInstanceId = uds.runOnInstanceId;
  if (uds.runOnInstanceRegion !== undefined) copy.runOnInstanceRegion = uds.runOnInstanceRegion;
  if (uds.objectStorageScriptLocation !== undefined) {
    const { namespace, bucket, object } = uds.objectStorageScriptLocation;
    copy.objectStorageScriptLocation = { namespace, bucket, object };
  }
  if (uds.scriptCommand !== undefined) copy.scriptCommand = uds.scriptCommand;
  if (uds.runAsUser !== undefined) copy.runAsUser = uds.runAsUser;
  if (uds.functionId !== undefined) copy.functionId = uds.functionId;
  if (uds.functionRegion !== undefined) copy.functionRegion = uds.functionRegion;
  if (uds.requestBody !== undefined) copy.requestBody = uds.requestBody;
  return copy;
}

interface StepOverrides {
  id?: string;
  groupId?: string;
  /** `null` removes the label. */
  refreshStatus?: DrPlanStepRefreshStatus | null;
}

/** A deep copy of a step in canonical key order, with optional overrides. */
function copyStep(step: PlanStep, overrides: StepOverrides = {}): PlanStep {
  const copy: PlanStep = {
    id: overrides.id ?? step.id,
    groupId: overrides.groupId ?? step.groupId,
    type: step.type,
    displayName: step.displayName,
    typeDisplayName: step.typeDisplayName,
    errorMode: step.errorMode,
    timeout: step.timeout,
    isEnabled: step.isEnabled,
  };
  if (step.memberId !== undefined) copy.memberId = step.memberId;
  const refreshStatus = overrides.refreshStatus === undefined ? step.refreshStatus : overrides.refreshStatus;
  if (refreshStatus) copy.refreshStatus = refreshStatus;
  if (step.userDefinedStep !== undefined) copy.userDefinedStep = copyUserDefinedStep(step.userDefinedStep);
  return orderStepKeys(copy);
}

const STEP_KEY_ORDER: ReadonlyArray<keyof PlanStep> = [
  'id',
  'groupId',
  'memberId',
  'type',
  'refreshStatus',
  'displayName',
  'typeDisplayName',
  'errorMode',
  'timeout',
  'isEnabled',
  'userDefinedStep',
];

/** The step with its keys in the model's order and no undefined keys (JSON output stays tidy). */
function orderStepKeys(step: PlanStep): PlanStep {
  const out: Record<string, unknown> = {};
  for (const key of STEP_KEY_ORDER) if (step[key] !== undefined) out[key] = step[key];
  return out as unknown as PlanStep;
}

function makeGroup(fields: {
  id: string;
  type: DrPlanGroupType;
  displayName: string;
  steps: PlanStep[];
  refreshStatus?: DrPlanGroupRefreshStatus | undefined;
  isPauseEnabled?: boolean | undefined;
}): PlanGroup {
  const group: PlanGroup = { id: fields.id, type: fields.type, displayName: fields.displayName, steps: fields.steps };
  if (fields.refreshStatus) group.refreshStatus = fields.refreshStatus;
  if (fields.type === 'USER_DEFINED_PAUSE') group.isPauseEnabled = fields.isPauseEnabled ?? true;
  return group;
}

// ---------------------------------------------------------------------------------------------
// Clone and verify
// ---------------------------------------------------------------------------------------------

/**
 * A deep copy for a plan cloned through `sourcePlanId`: fresh group and step ids (each step's
 * `groupId` re-pointed), refresh labels dropped, everything else kept as is.
 */
export function clonePlanGroups(groups: readonly PlanGroup[]): PlanGroup[] {
  return groups.map((group) => {
    const id = newPlanElementId('group');
    return makeGroup({
      id,
      type: group.type,
      displayName: group.displayName,
      isPauseEnabled: group.isPauseEnabled,
      steps: group.steps.map((step) =>
        copyStep(step, { id: newPlanElementId('step'), groupId: id, refreshStatus: null }),
      ),
    });
  });
}

/** Verify: drop everything labelled deleted, keep the rest, clear all labels. */
export function verifyPlanGroups(groups: readonly PlanGroup[]): PlanGroup[] {
  return groups
    .filter((group) => group.refreshStatus !== 'GROUP_DELETED')
    .map((group) =>
      makeGroup({
        id: group.id,
        type: group.type,
        displayName: group.displayName,
        isPauseEnabled: group.isPauseEnabled,
        steps: group.steps
          .filter((step) => step.refreshStatus !== 'STEP_DELETED')
          .map((step) => copyStep(step, { refreshStatus: null })),
      }),
    );
}

// ---------------------------------------------------------------------------------------------
// Refresh
// ---------------------------------------------------------------------------------------------

export interface RefreshPlanGroupsContext {
  /**
   * The current members of both protection groups. A user-defined step that runs on an
   * instance which was a member (some step of the current plan acted on it) and is no longer
   * one is labelled STEP_DELETED. Defaults to the members the regenerated steps act on.
   */
  memberIds?: ReadonlySet<string>;
}

const isBuiltInGroupType = (type: DrPlanGroupType): boolean => type === 'BUILT_IN' || type === 'BUILT_IN_PRECHECK';
const isUserStepType = (type: DrPlanStepType): boolean => type.startsWith('USER_DEFINED');
const groupKey = (group: Pick<PlanGroup, 'type' | 'displayName'>): string => `${group.type}\u0000${group.displayName}`;
const stepKey = (step: Pick<PlanStep, 'type' | 'memberId'>): string => `${step.type}\u0000${step.memberId ?? ''}`;

/**
 * Refresh: bring the plan's built-in groups and steps in line with `regenerated`
 * (what `generatePlanGroups` builds from the protection groups' members now) and label the
 * differences, keeping everything the user did:
 *
 * - Groups match by type + displayName, steps within a group by type + memberId. Matched steps
 *   keep their id and the user's displayName, errorMode, timeout and isEnabled.
 * - New steps in an existing group: STEP_ADDED (group GROUP_MODIFIED). Vanished steps stay,
 *   labelled STEP_DELETED (group GROUP_MODIFIED). A group whose built-in steps all vanished:
 *   GROUP_DELETED. New groups: GROUP_ADDED with all steps STEP_ADDED, inserted after the group
 *   that precedes them in the default order (a new precheck group goes first).
 * - User-defined groups stay where the user put them. Their steps that run on an instance
 *   which used to be a member and is not any more are labelled STEP_DELETED (GROUP_MODIFIED).
 * - Labels are relative to the last verified plan: refreshing again before a verify keeps an
 *   earlier STEP_ADDED/GROUP_ADDED on what is still there, drops added things that vanished
 *   again, and clears STEP_DELETED/GROUP_DELETED on things that came back.
 * - A USER_DEFINED_PAUSE group that ends up first or last among the groups not labelled
 *   deleted is moved inward by one place (when there are at least three such groups).
 */
export function refreshPlanGroups(
  current: readonly PlanGroup[],
  regenerated: readonly PlanGroup[],
  ctx: RefreshPlanGroupsContext = {},
): PlanGroup[] {
  const formerMemberIds = new Set<string>();
  for (const group of current) for (const step of group.steps) if (step.memberId) formerMemberIds.add(step.memberId);
  const memberIds =
    ctx.memberIds ??
    new Set(regenerated.flatMap((group) => group.steps.flatMap((step) => (step.memberId ? [step.memberId] : []))));

  const regeneratedByKey = new Map(regenerated.filter((g) => isBuiltInGroupType(g.type)).map((g) => [groupKey(g), g]));
  const matched = new Map<string, PlanGroup>(); // groupKey → group in the result
  const out: PlanGroup[] = [];

  for (const group of current) {
    if (!isBuiltInGroupType(group.type)) {
      out.push(refreshUserGroup(group, formerMemberIds, memberIds));
      continue;
    }
    const fresh = regeneratedByKey.get(groupKey(group));
    const refreshed = refreshBuiltInGroup(group, fresh);
    if (!refreshed) continue; // an added group, never verified, whose steps all vanished again
    if (fresh) matched.set(groupKey(group), refreshed);
    out.push(refreshed);
  }

  // Insert the new groups at their default position relative to their neighbours.
  let previous: PlanGroup | undefined;
  regenerated.forEach((fresh, index) => {
    const existing = matched.get(groupKey(fresh));
    if (existing) {
      previous = existing;
      return;
    }
    const added = makeGroup({
      id: fresh.id,
      type: fresh.type,
      displayName: fresh.displayName,
      refreshStatus: 'GROUP_ADDED',
      steps: fresh.steps.map((step) => copyStep(step, { groupId: fresh.id, refreshStatus: 'STEP_ADDED' })),
    });
    let at: number;
    if (fresh.type === 'BUILT_IN_PRECHECK') at = 0;
    else if (previous) at = out.indexOf(previous) + 1;
    else {
      const next = regenerated.slice(index + 1).find((g) => matched.has(groupKey(g)));
      at = next ? out.indexOf(matched.get(groupKey(next))!) : out.length;
    }
    out.splice(at, 0, added);
    previous = added;
  });

  movePauseGroupsInward(out);
  return out;
}

function refreshBuiltInGroup(group: PlanGroup, fresh: PlanGroup | undefined): PlanGroup | undefined {
  const pool = new Map<string, PlanStep[]>();
  for (const step of fresh?.steps ?? []) {
    const list = pool.get(stepKey(step)) ?? [];
    list.push(step);
    pool.set(stepKey(step), list);
  }
  const steps: PlanStep[] = [];
  let live = 0;
  let changed = false;
  for (const step of group.steps) {
    if (isUserStepType(step.type)) {
      steps.push(copyStep(step));
      continue;
    }
    const candidates = pool.get(stepKey(step));
    if (candidates && candidates.length > 0) {
      candidates.shift();
      live += 1;
      if (step.refreshStatus === 'STEP_ADDED') changed = true;
      steps.push(copyStep(step, { refreshStatus: step.refreshStatus === 'STEP_ADDED' ? 'STEP_ADDED' : null }));
    } else if (step.refreshStatus !== 'STEP_ADDED') {
      changed = true;
      steps.push(copyStep(step, { refreshStatus: 'STEP_DELETED' }));
    }
    // else: added by an earlier refresh, never verified, gone again → dropped.
  }
  for (const step of fresh?.steps ?? []) {
    const candidates = pool.get(stepKey(step));
    if (candidates && candidates[0] === step) {
      candidates.shift();
      live += 1;
      changed = true;
      steps.push(copyStep(step, { id: newPlanElementId('step'), groupId: group.id, refreshStatus: 'STEP_ADDED' }));
    }
  }

  let refreshStatus: DrPlanGroupRefreshStatus | undefined;
  if (live === 0) {
    if (group.refreshStatus === 'GROUP_ADDED') return undefined;
    refreshStatus = 'GROUP_DELETED';
  } else if (group.refreshStatus === 'GROUP_ADDED') refreshStatus = 'GROUP_ADDED';
  else if (changed) refreshStatus = 'GROUP_MODIFIED';
  return makeGroup({ id: group.id, type: group.type, displayName: group.displayName, steps, refreshStatus });
}

function refreshUserGroup(
  group: PlanGroup,
  formerMemberIds: ReadonlySet<string>,
  memberIds: ReadonlySet<string>,
): PlanGroup {
  let changed = false;
  const steps = group.steps.map((step) => {
    const instanceId = step.userDefinedStep?.runOnInstanceId;
    const orphaned = instanceId !== undefined && formerMemberIds.has(instanceId) && !memberIds.has(instanceId);
    if (orphaned) changed = true;
    return copyStep(step, { refreshStatus: orphaned ? 'STEP_DELETED' : null });
  });
  return makeGroup({
    id: group.id,
    type: group.type,
    displayName: group.displayName,
    isPauseEnabled: group.isPauseEnabled,
    steps,
    refreshStatus: changed ? 'GROUP_MODIFIED' : undefined,
  });
}

function movePauseGroupsInward(groups: PlanGroup[]): void {
  const live = () => groups.filter((g) => g.refreshStatus !== 'GROUP_DELETED');
  let visible = live();
  if (visible.length < 3) return;
  if (visible[0].type === 'USER_DEFINED_PAUSE') {
    const pause = visible[0];
    groups.splice(groups.indexOf(pause), 1);
    groups.splice(groups.indexOf(visible[1]) + 1, 0, pause);
    visible = live();
  }
  const last = visible[visible.length - 1];
  if (last.type === 'USER_DEFINED_PAUSE') {
    groups.splice(groups.indexOf(last), 1);
    groups.splice(groups.indexOf(visible[visible.length - 2]), 0, last);
  }
}

// ---------------------------------------------------------------------------------------------
// UpdateDrPlan: planGroups
// ---------------------------------------------------------------------------------------------

export interface PlanGroupsUpdateContext {
  /** The emulator's region, for user-defined steps whose instance or function OCID carries none. */
  region: string;
}

/**
 * The user-defined step kinds a user may create: all but the service's own automatic prechecks
 * (`*_PRECHECK` without `USER_DEFINED_CUSTOM`).
 */
const USER_CREATABLE_STEP_TYPES = DR_PLAN_USER_DEFINED_STEP_TYPES.filter(
  (type) => !type.endsWith('_PRECHECK') || type.endsWith('_USER_DEFINED_CUSTOM_PRECHECK'),
);

type JsonObject = Record<string, unknown>;

const invalid = (message: string) => errors.invalidParameter(message);

function asObject(value: unknown, path: string): JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw invalid(`${path} must be a JSON object.`);
  return value as JsonObject;
}

/** A field's value, with JSON `null` read as absent (the Go SDK omits nil fields; others send null). */
function field(obj: JsonObject, key: string): unknown {
  const value = obj[key];
  return value === null ? undefined : value;
}

function optionalNonEmptyString(obj: JsonObject, key: string, path: string): string | undefined {
  const value = field(obj, key);
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '') throw invalid(`${path}.${key} must be a non-empty string.`);
  return value;
}

function optionalDisplayName(obj: JsonObject, path: string): string | undefined {
  const value = field(obj, 'displayName');
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '' || value.length > MAX_DISPLAY_NAME_LENGTH)
    throw invalid(`${path}.displayName must be a non-empty string of at most ${MAX_DISPLAY_NAME_LENGTH} characters.`);
  return value;
}

/** An optional free-text field: an empty string counts as absent (Terraform sends "" for unset ones). */
function optionalText(obj: JsonObject, key: string, path: string): string | undefined {
  const value = field(obj, key);
  if (value === undefined || value === '') return undefined;
  if (typeof value !== 'string') throw invalid(`${path}.${key} must be a string.`);
  return value;
}

function requiredText(obj: JsonObject, key: string, path: string): string {
  const value = field(obj, key);
  if (value === undefined || value === '') throw errors.missingParameter(`${path}.${key}`);
  if (typeof value !== 'string' || value.trim() === '') throw invalid(`${path}.${key} must be a non-empty string.`);
  return value;
}

function requiredOcid(obj: JsonObject, key: string, path: string): string {
  const value = requiredText(obj, key, path);
  if (!isOcid(value)) throw invalid(`${path}.${key} must be an OCID.`);
  return value;
}

function optionalArray(obj: JsonObject, key: string, path: string): unknown[] | undefined {
  const value = field(obj, key);
  if (value === undefined) return undefined;
  if (!Array.isArray(value)) throw invalid(`${path}.${key} must be an array.`);
  return value;
}

interface StepScalars {
  displayName?: string;
  errorMode?: DrPlanStepErrorMode;
  timeout?: number;
  isEnabled?: boolean;
}

function readStepScalars(obj: JsonObject, path: string): StepScalars {
  const scalars: StepScalars = {};
  const displayName = optionalDisplayName(obj, path);
  if (displayName !== undefined) scalars.displayName = displayName;
  const errorMode = field(obj, 'errorMode');
  if (errorMode !== undefined) {
    if (!isOneOf(DR_PLAN_STEP_ERROR_MODES, errorMode))
      throw invalid(`${path}.errorMode must be one of ${DR_PLAN_STEP_ERROR_MODES.join(', ')}.`);
    scalars.errorMode = errorMode;
  }
  const timeout = field(obj, 'timeout');
  if (timeout !== undefined) {
    if (typeof timeout !== 'number' || !Number.isSafeInteger(timeout) || timeout <= 0)
      throw invalid(`${path}.timeout must be a positive integer (seconds).`);
    scalars.timeout = timeout;
  }
  const isEnabled = field(obj, 'isEnabled');
  if (isEnabled !== undefined) {
    if (typeof isEnabled !== 'boolean') throw invalid(`${path}.isEnabled must be a boolean.`);
    scalars.isEnabled = isEnabled;
  }
  return scalars;
}

function withScalars(step: PlanStep, scalars: StepScalars): PlanStep {
  const copy = copyStep(step);
  if (scalars.displayName !== undefined) copy.displayName = scalars.displayName;
  if (scalars.errorMode !== undefined) copy.errorMode = scalars.errorMode;
  if (scalars.timeout !== undefined) copy.timeout = scalars.timeout;
  if (scalars.isEnabled !== undefined) copy.isEnabled = scalars.isEnabled;
  return copy;
}

/**
 * Parses an `Update…StepDetails` user-defined step (the whole object replaces the step's
 * current one). The `…Region` fields are not part of the update models: the region stays as
 * it was when the instance or function is unchanged, and is otherwise taken from the OCID
 * (or the emulator's region when the OCID carries none).
 */
function parseUserDefinedStep(
  raw: unknown,
  path: string,
  previous: UserDefinedStep | undefined,
  ctx: PlanGroupsUpdateContext,
): UserDefinedStep {
  const obj = asObject(raw, path);
  const stepType = field(obj, 'stepType');
  if (stepType === undefined || stepType === '') throw errors.missingParameter(`${path}.stepType`);
  if (!isOneOf(USER_CREATABLE_STEP_TYPES, stepType))
    throw invalid(`${path}.stepType must be one of ${USER_CREATABLE_STEP_TYPES.join(', ')}.`);

  if (stepType.startsWith('INVOKE_FUNCTION')) {
    const functionId = requiredOcid(obj, 'functionId', path);
    const uds: UserDefinedStep = {
      stepType,
      functionId,
      functionRegion:
        previous?.functionId === functionId && previous.functionRegion
          ? previous.functionRegion
          : (regionOfOcid(functionId) ?? ctx.region),
    };
    const requestBody = optionalText(obj, 'requestBody', path);
    if (requestBody !== undefined) uds.requestBody = requestBody;
    return uds;
  }

  const runOnInstanceId = requiredOcid(obj, 'runOnInstanceId', path);
  const uds: UserDefinedStep = {
    stepType,
    runOnInstanceId,
    runOnInstanceRegion:
      previous?.runOnInstanceId === runOnInstanceId && previous.runOnInstanceRegion
        ? previous.runOnInstanceRegion
        : (regionOfOcid(runOnInstanceId) ?? ctx.region),
  };
  if (stepType.startsWith('RUN_OBJECTSTORE_SCRIPT')) {
    const locationPath = `${path}.objectStorageScriptLocation`;
    const rawLocation = field(obj, 'objectStorageScriptLocation');
    if (rawLocation === undefined) throw errors.missingParameter(locationPath);
    const location = asObject(rawLocation, locationPath);
    uds.objectStorageScriptLocation = {
      namespace: requiredText(location, 'namespace', locationPath),
      bucket: requiredText(location, 'bucket', locationPath),
      object: requiredText(location, 'object', locationPath),
    };
    const scriptCommand = optionalText(obj, 'scriptCommand', path);
    if (scriptCommand !== undefined) uds.scriptCommand = scriptCommand;
  } else {
    uds.scriptCommand = requiredText(obj, 'scriptCommand', path);
  }
  const runAsUser = optionalText(obj, 'runAsUser', path);
  if (runAsUser !== undefined) uds.runAsUser = runAsUser;
  return uds;
}

function stepTypeForUserDefined(uds: UserDefinedStep): DrPlanStepType {
  return uds.stepType.endsWith('_USER_DEFINED_CUSTOM_PRECHECK') ? 'USER_DEFINED_CUSTOM_PRECHECK' : 'USER_DEFINED';
}

/** Lists step entries, checking each is an object and that no id repeats within the group. */
function readStepEntries(rawSteps: unknown[], path: string): Array<{ obj: JsonObject; path: string; id?: string }> {
  const seen = new Set<string>();
  return rawSteps.map((raw, j) => {
    const stepPath = `${path}.steps[${j}]`;
    const obj = asObject(raw, stepPath);
    const id = optionalNonEmptyString(obj, 'id', stepPath);
    if (id !== undefined) {
      if (seen.has(id)) throw invalid(`${stepPath}.id '${id}' is listed more than once in ${path}.steps.`);
      seen.add(id);
    }
    return id === undefined ? { obj, path: stepPath } : { obj, path: stepPath, id };
  });
}

function updateBuiltInSteps(group: PlanGroup, rawSteps: unknown[] | undefined, path: string): PlanStep[] {
  if (rawSteps === undefined) return group.steps.map((step) => copyStep(step));
  const byId = new Map(group.steps.map((step) => [step.id, step]));
  const updates = new Map<string, PlanStep>();
  for (const entry of readStepEntries(rawSteps, path)) {
    if (entry.id === undefined)
      throw invalid(
        `${entry.path}.id is required: steps cannot be added to a ${group.type} group (only to USER_DEFINED groups).`,
      );
    const existing = byId.get(entry.id);
    if (!existing)
      throw invalid(`${entry.path}.id '${entry.id}' does not match any step of group '${group.displayName}'.`);
    const rawUds = field(entry.obj, 'userDefinedStep');
    if (rawUds !== undefined) {
      const requestedType = asObject(rawUds, `${entry.path}.userDefinedStep`).stepType;
      if (!existing.userDefinedStep || requestedType !== existing.userDefinedStep.stepType)
        throw invalid(`${entry.path}.userDefinedStep cannot be changed on a step of a ${group.type} group.`);
    }
    updates.set(entry.id, withScalars(existing, readStepScalars(entry.obj, entry.path)));
  }
  // Membership is the service's: omitted steps stay, and the order stays the service's (the
  // steps of a group run in parallel).
  return group.steps.map((step) => updates.get(step.id) ?? copyStep(step));
}

function updateUserDefinedSteps(
  groupId: string,
  groupLabel: string,
  currentSteps: readonly PlanStep[],
  rawSteps: unknown[],
  path: string,
  ctx: PlanGroupsUpdateContext,
): PlanStep[] {
  const byId = new Map(currentSteps.map((step) => [step.id, step]));
  return readStepEntries(rawSteps, path).map((entry) => {
    const scalars = readStepScalars(entry.obj, entry.path);
    const rawUds = field(entry.obj, 'userDefinedStep');
    if (entry.id !== undefined) {
      const existing = byId.get(entry.id);
      if (!existing) throw invalid(`${entry.path}.id '${entry.id}' does not match any step of group '${groupLabel}'.`);
      const step = withScalars(existing, scalars);
      if (rawUds !== undefined) {
        const uds = parseUserDefinedStep(rawUds, `${entry.path}.userDefinedStep`, existing.userDefinedStep, ctx);
        step.userDefinedStep = uds;
        step.type = stepTypeForUserDefined(uds);
        step.typeDisplayName = typeDisplayNameOf(step.type);
      }
      return orderStepKeys(step);
    }
    if (rawUds === undefined) throw errors.missingParameter(`${entry.path}.userDefinedStep`);
    const uds = parseUserDefinedStep(rawUds, `${entry.path}.userDefinedStep`, undefined, ctx);
    const type = stepTypeForUserDefined(uds);
    return orderStepKeys({
      id: newPlanElementId('step'),
      groupId,
      type,
      displayName: scalars.displayName ?? typeDisplayNameOf(uds.stepType),
      typeDisplayName: typeDisplayNameOf(type),
      errorMode: scalars.errorMode ?? DEFAULT_STEP_ERROR_MODE,
      timeout: scalars.timeout ?? DEFAULT_STEP_TIMEOUT_SECONDS,
      isEnabled: scalars.isEnabled ?? true,
      userDefinedStep: uds,
    });
  });
}

function readPauseFlag(obj: JsonObject, path: string, type: DrPlanGroupType): boolean | undefined {
  const value = field(obj, 'isPauseEnabled');
  if (value === undefined) return undefined;
  if (type !== 'USER_DEFINED_PAUSE')
    throw invalid(`${path}.isPauseEnabled is only allowed on USER_DEFINED_PAUSE groups.`);
  if (typeof value !== 'boolean') throw invalid(`${path}.isPauseEnabled must be a boolean.`);
  return value;
}

function checkPauseSteps(rawSteps: unknown[] | undefined, path: string): void {
  if (rawSteps !== undefined && rawSteps.length > 0)
    throw invalid(`${path}.steps must be empty for a USER_DEFINED_PAUSE group.`);
}

function readGroupType(obj: JsonObject, path: string): DrPlanGroupType | undefined {
  const type = field(obj, 'type');
  if (type === undefined) return undefined;
  if (!isOneOf(DR_PLAN_GROUP_TYPES, type))
    throw invalid(`${path}.type must be one of ${DR_PLAN_GROUP_TYPES.join(', ')}.`);
  return type;
}

function updateExistingGroup(group: PlanGroup, obj: JsonObject, path: string, ctx: PlanGroupsUpdateContext): PlanGroup {
  const type = readGroupType(obj, path);
  if (type !== undefined && type !== group.type)
    throw invalid(`${path}.type cannot be changed (from ${group.type} to ${type}).`);
  const displayName = optionalDisplayName(obj, path);
  if (displayName !== undefined && displayName !== group.displayName && isBuiltInGroupType(group.type))
    throw invalid(`${path}.displayName of a ${group.type} group cannot be changed.`);
  const isPauseEnabled = readPauseFlag(obj, path, group.type);
  const rawSteps = optionalArray(obj, 'steps', path);

  let steps: PlanStep[];
  if (isBuiltInGroupType(group.type)) steps = updateBuiltInSteps(group, rawSteps, path);
  else if (group.type === 'USER_DEFINED_PAUSE') {
    checkPauseSteps(rawSteps, path);
    steps = group.steps.map((step) => copyStep(step));
  } else if (rawSteps === undefined) steps = group.steps.map((step) => copyStep(step));
  else steps = updateUserDefinedSteps(group.id, displayName ?? group.displayName, group.steps, rawSteps, path, ctx);

  return makeGroup({
    id: group.id,
    type: group.type,
    displayName: displayName ?? group.displayName,
    steps,
    refreshStatus: group.refreshStatus,
    isPauseEnabled: isPauseEnabled ?? group.isPauseEnabled,
  });
}

function createGroup(obj: JsonObject, path: string, ctx: PlanGroupsUpdateContext): PlanGroup {
  const type = readGroupType(obj, path);
  if (type === undefined) throw errors.missingParameter(`${path}.type`);
  if (isBuiltInGroupType(type))
    throw invalid(
      `${path}.type ${type} cannot be created: new groups must be USER_DEFINED or USER_DEFINED_PAUSE (an entry without an id is a new group).`,
    );
  const displayName = optionalDisplayName(obj, path);
  if (displayName === undefined) throw errors.missingParameter(`${path}.displayName`);
  const isPauseEnabled = readPauseFlag(obj, path, type);
  const rawSteps = optionalArray(obj, 'steps', path);
  const id = newPlanElementId('group');
  if (type === 'USER_DEFINED_PAUSE') {
    checkPauseSteps(rawSteps, path);
    return makeGroup({ id, type, displayName, steps: [], isPauseEnabled: isPauseEnabled ?? true });
  }
  return makeGroup({
    id,
    type,
    displayName,
    steps: updateUserDefinedSteps(id, displayName, [], rawSteps ?? [], path, ctx),
  });
}

/**
 * UpdateDrPlan's `planGroups` (`UpdateDrPlanGroupDetails[]`, which terraform-provider-oci sends back whole from its state): the full, ordered list of the plan's
 * groups. Returns the plan's new groups or throws an OciServiceError (400) naming the JSON path
 * of the first problem.
 *
 * - An entry with an `id` is that existing group: its type cannot change; BUILT_IN and
 *   BUILT_IN_PRECHECK groups keep their name and step membership (listed steps, by id, may
 *   change displayName, errorMode, timeout and isEnabled; omitted ones stay unchanged).
 * - An entry without an `id` is a new USER_DEFINED or USER_DEFINED_PAUSE group.
 * - Every BUILT_IN / BUILT_IN_PRECHECK group must be listed; user-defined groups left out are
 *   deleted.
 * - A user-defined group's `steps`, when given, is its full ordered list: entries with an id
 *   are its existing steps, entries without are new steps, which need a `userDefinedStep`.
 * - Omitted fields keep their current values (an absent `isPauseEnabled` included); read-only
 *   fields (`groupId`, `memberId`, `type` of steps, `typeDisplayName`, `refreshStatus`, the
 *   user-defined step's regions) are ignored, so the plan's own `planGroups` as GET returns
 *   them, or as Terraform sends them back, apply as a no-op.
 */
export function applyPlanGroupsUpdate(
  current: readonly PlanGroup[],
  requested: unknown,
  ctx: PlanGroupsUpdateContext,
): PlanGroup[] {
  if (!Array.isArray(requested)) throw invalid('planGroups must be an array of plan groups.');
  const byId = new Map(current.map((group) => [group.id, group]));
  const listed = new Set<string>();
  const result = requested.map((raw, i) => {
    const path = `planGroups[${i}]`;
    const obj = asObject(raw, path);
    const id = optionalNonEmptyString(obj, 'id', path);
    if (id === undefined) return createGroup(obj, path, ctx);
    const existing = byId.get(id);
    if (!existing) throw invalid(`${path}.id '${id}' does not match any group of this DR plan.`);
    if (listed.has(id)) throw invalid(`${path}.id '${id}' is listed more than once in planGroups.`);
    listed.add(id);
    return updateExistingGroup(existing, obj, path, ctx);
  });
  for (const group of current) {
    if (isBuiltInGroupType(group.type) && !listed.has(group.id))
      throw invalid(
        `planGroups must list the ${group.type} group '${group.displayName}' (id ${group.id}): built-in groups cannot be removed.`,
      );
  }
  return result;
}
