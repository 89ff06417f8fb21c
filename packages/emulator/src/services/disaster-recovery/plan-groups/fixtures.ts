/** Test fixtures shared by the plan-groups tests: a realistic primary/standby pair and a customised plan. */
import assert from 'node:assert/strict';
import * as enums from '../enums';
import { type PlanGroup, type ProtectionGroupMember, applyPlanGroupsUpdate, generatePlanGroups } from './index';
import { OciServiceError } from '../../../core/errors';

// ---------------------------------------------------------------------------------------------
// Fixtures: a realistic primary/standby pair (primary in Ashburn, standby in Phoenix)
// ---------------------------------------------------------------------------------------------

export const ocid = (type: string, regionKey: string, name: string) =>
  `ocid1.${type}.oc1.${regionKey}.amaaaaaaaexample${name}`;

export const P = {
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

export const S = {
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

export const primaryMembers: ProtectionGroupMember[] = Object.values(P);
export const standbyMembers: ProtectionGroupMember[] = Object.values(S);

export const generate = (planType: enums.DrPlanType, primary = primaryMembers, standby = standbyMembers) =>
  generatePlanGroups({ planType, primaryMembers: primary, standbyMembers: standby });

export const names = (groups: PlanGroup[]) => groups.map((g) => g.displayName);
export const groupNamed = (groups: PlanGroup[], displayName: string): PlanGroup => {
  const group = groups.find((g) => g.displayName === displayName);
  assert.ok(group, `no group named '${displayName}' in [${names(groups).join(', ')}]`);
  return group;
};
export const stepSummary = (group: PlanGroup) => group.steps.map((s) => `${s.type}@${s.memberId ?? '-'}`);
export const allSteps = (groups: PlanGroup[]) => groups.flatMap((g) => g.steps);
export const json = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
/** The groups with every id replaced by its position, to compare content across fresh ids. */
export const withoutIds = (groups: PlanGroup[]) =>
  groups.map((g) => ({ ...g, id: '-', steps: g.steps.map((s) => ({ ...s, id: '-', groupId: '-' })) }));

export function sdkValues(enumObject: object): string[] {
  return Object.values(enumObject).filter((v): v is string => typeof v === 'string' && v !== 'UNKNOWN_VALUE');
}

export function assertOciError(
  fn: () => unknown,
  expected: { status?: number; code: string; includes: string[] },
): void {
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
// A plan with user customisations, used by clone/refresh/update tests
// ---------------------------------------------------------------------------------------------

export const REGION = 'us-phoenix-1';
export const scriptStep = (instanceId: string, command = '/opt/app/start.sh') => ({
  displayName: `Start app on ${instanceId.slice(-8)}`,
  userDefinedStep: { stepType: 'RUN_LOCAL_SCRIPT', runOnInstanceId: instanceId, scriptCommand: command },
});

/** A switchover plan plus a user-defined group (scripts on a member and on a non-member) and a pause group. */
export function customisedPlan(): PlanGroup[] {
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
export function terraformForm(groups: PlanGroup[]): unknown[] {
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
