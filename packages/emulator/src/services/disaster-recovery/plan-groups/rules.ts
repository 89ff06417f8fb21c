/**
 * The member-type × plan-type rules table: which built-in groups a plan type has, in which
 * order, and which steps each protection-group member yields on which side of the DR pair.
 */
import { type DrPlanStepType, type DrPlanType, type DrProtectionGroupMemberType } from '../enums';
import { ProtectionGroupMember } from './model';

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

export type RulesByPlanType = Readonly<Record<DrPlanType, readonly PlanStepRule[]>>;

export const NONE: readonly PlanStepRule[] = [];

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

export const MEMBER_CONDITIONS: Readonly<Record<MemberCondition, (member: ProtectionGroupMember) => boolean>> = {
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
