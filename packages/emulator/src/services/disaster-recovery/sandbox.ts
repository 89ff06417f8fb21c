import { newOcid } from '../../core/ids';
import type { SandboxContext } from '../service';
import type { DrProtectionGroups } from './protection-groups';

/** What the Disaster Recovery part of the sandbox seed created (served under `disasterRecovery` by `GET /_ocikit/sandbox`). */
export interface DrSandboxIds {
  /** The PRIMARY group, in the home region. */
  primaryProtectionGroupId: string;
  /** The STANDBY group, in the peer region: create DR plans here (with a client for `standbyRegion`). */
  standbyProtectionGroupId: string;
  primaryRegion: string;
  standbyRegion: string;
  compartmentId: string;
  /** Where both groups keep their operation logs. */
  logNamespace: string;
  logBucket: string;
  /** The resources each group protects. */
  members: {
    primary: {
      movableInstanceId: string;
      nonMovableInstanceId: string;
      volumeGroupId: string;
      databaseId: string;
      loadBalancerId: string;
      fileSystemId: string;
    };
    standby: {
      nonMovableInstanceId: string;
      databaseId: string;
      loadBalancerId: string;
    };
  };
}

/**
 * The sandbox's DR pair: an associated PRIMARY (home region) / STANDBY (peer region) pair,
 * ACTIVE at once, protecting a typical application stack. The movable instance, the volume
 * group and the file system live in the primary and move at a switchover; non-movable
 * instances, the Data Guard database pair and the load balancers exist in both regions. A plan
 * of any type can be created in the STANDBY group straight away and gets generated groups.
 */
export function seedDisasterRecoverySandbox(groups: DrProtectionGroups, context: SandboxContext): DrSandboxIds {
  const primaryRegion = context.homeRegion;
  const standbyRegion = context.peerRegion;
  const logNamespace = 'ocikit';
  const logBucket = 'dr-operation-logs';
  const primary = {
    movableInstanceId: newOcid('instance', primaryRegion),
    nonMovableInstanceId: newOcid('instance', primaryRegion),
    volumeGroupId: newOcid('volumegroup', primaryRegion),
    databaseId: newOcid('database', primaryRegion),
    loadBalancerId: newOcid('loadbalancer', primaryRegion),
    fileSystemId: newOcid('filesystem', primaryRegion),
  };
  const standby = {
    nonMovableInstanceId: newOcid('instance', standbyRegion),
    databaseId: newOcid('database', standbyRegion),
    loadBalancerId: newOcid('loadbalancer', standbyRegion),
  };
  const pair = groups.seedAssociatedPair({
    compartmentId: context.compartmentId,
    logLocation: { namespace: logNamespace, bucket: logBucket },
    primary: {
      region: primaryRegion,
      displayName: 'sandbox-primary',
      members: [
        {
          memberId: primary.movableInstanceId,
          memberType: 'COMPUTE_INSTANCE_MOVABLE',
          isRetainFaultDomain: false,
          destinationCompartmentId: context.compartmentId,
        },
        {
          memberId: primary.nonMovableInstanceId,
          memberType: 'COMPUTE_INSTANCE_NON_MOVABLE',
          isStartStopEnabled: true,
        },
        {
          memberId: primary.volumeGroupId,
          memberType: 'VOLUME_GROUP',
          destinationCompartmentId: context.compartmentId,
        },
        { memberId: primary.databaseId, memberType: 'DATABASE' },
        {
          memberId: primary.loadBalancerId,
          memberType: 'LOAD_BALANCER',
          destinationLoadBalancerId: standby.loadBalancerId,
          backendSetMappings: [
            { isBackendSetForNonMovable: false, sourceBackendSetName: 'app', destinationBackendSetName: 'app' },
          ],
        },
        { memberId: primary.fileSystemId, memberType: 'FILE_SYSTEM', destinationCompartmentId: context.compartmentId },
      ],
    },
    standby: {
      region: standbyRegion,
      displayName: 'sandbox-standby',
      members: [
        {
          memberId: standby.nonMovableInstanceId,
          memberType: 'COMPUTE_INSTANCE_NON_MOVABLE',
          isStartStopEnabled: true,
        },
        { memberId: standby.databaseId, memberType: 'DATABASE' },
        { memberId: standby.loadBalancerId, memberType: 'LOAD_BALANCER' },
      ],
    },
  });
  return {
    primaryProtectionGroupId: pair.primaryId,
    standbyProtectionGroupId: pair.standbyId,
    primaryRegion,
    standbyRegion,
    compartmentId: context.compartmentId,
    logNamespace,
    logBucket,
    members: { primary, standby },
  };
}
