import { signedFetch, type SigningIdentity } from '../support/signed-fetch';
import { models, type DisasterRecoveryClient } from 'oci-disasterrecovery';
import { newOcid } from '../../src/core/ids';
import { fastWaiter, type TestEmulator } from '../support/emulator';

/** The region the tests put STANDBY groups in (the home region is the emulator's default, us-ashburn-1). */
export const PEER_REGION = 'us-phoenix-1';
export const HOME_REGION = 'us-ashburn-1';

import { newCompartmentId } from '../support/emulator';
export { newCompartmentId };
export const logLocation = { namespace: 'ns', bucket: 'dr-logs' };

/** Members of a small application stack in `region`, as CreateDrProtectionGroupDetails lists them. */
export function primaryMembers(region = HOME_REGION): models.CreateDrProtectionGroupMemberDetails[] {
  return [
    {
      memberId: newOcid('instance', region),
      memberType: 'COMPUTE_INSTANCE_MOVABLE',
    } as models.CreateDrProtectionGroupMemberDetails,
    {
      memberId: newOcid('volumegroup', region),
      memberType: 'VOLUME_GROUP',
    } as models.CreateDrProtectionGroupMemberDetails,
  ];
}

export function standbyMembers(region = PEER_REGION): models.CreateDrProtectionGroupMemberDetails[] {
  return [
    { memberId: newOcid('database', region), memberType: 'DATABASE' } as models.CreateDrProtectionGroupMemberDetails,
  ];
}

export interface Pair {
  compartmentId: string;
  /** Client for the home region, where the PRIMARY group lives. */
  home: DisasterRecoveryClient;
  /** Client for PEER_REGION, where the STANDBY group (and its plans) live. */
  peer: DisasterRecoveryClient;
  primary: models.DrProtectionGroup;
  standby: models.DrProtectionGroup;
}

/**
 * Creates a STANDBY group in PEER_REGION, then a PRIMARY group in the home region associated
 * with it at creation (as Terraform's acceptance test does), and waits until both are ACTIVE.
 */
export async function createPair(
  t: TestEmulator,
  options: {
    compartmentId?: string;
    primaryMembers?: models.CreateDrProtectionGroupMemberDetails[];
    standbyMembers?: models.CreateDrProtectionGroupMemberDetails[];
    /** Lets a work request finish; by default polls it (transition delay 0). */
    settle?: (client: DisasterRecoveryClient, workRequestId: string | undefined) => Promise<unknown>;
  } = {},
): Promise<Pair> {
  const settle = options.settle ?? finished;
  const compartmentId = options.compartmentId ?? (await newCompartmentId());
  const home = t.dr();
  const peer = t.dr(PEER_REGION);
  const standbyCreated = await peer.createDrProtectionGroup({
    createDrProtectionGroupDetails: {
      compartmentId,
      displayName: 'standby',
      logLocation,
      members: options.standbyMembers ?? standbyMembers(),
    },
  });
  await settle(peer, standbyCreated.opcWorkRequestId);
  const primaryCreated = await home.createDrProtectionGroup({
    createDrProtectionGroupDetails: {
      compartmentId,
      displayName: 'primary',
      logLocation,
      members: options.primaryMembers ?? primaryMembers(),
      association: {
        role: models.DrProtectionGroupRole.Primary,
        peerId: standbyCreated.drProtectionGroup.id,
        peerRegion: PEER_REGION,
      },
    },
  });
  await settle(home, primaryCreated.opcWorkRequestId);
  const primary = (await home.getDrProtectionGroup({ drProtectionGroupId: primaryCreated.drProtectionGroup.id }))
    .drProtectionGroup;
  const standby = (await peer.getDrProtectionGroup({ drProtectionGroupId: standbyCreated.drProtectionGroup.id }))
    .drProtectionGroup;
  return { compartmentId, home, peer, primary, standby };
}

/** Creates a plan in the pair's STANDBY group and waits until it is ACTIVE (or NEEDS_ATTENTION). */
export async function createPlan(
  pair: Pair,
  details: Partial<models.CreateDrPlanDetails> = {},
): Promise<models.DrPlan> {
  const created = await pair.peer.createDrPlan({
    createDrPlanDetails: {
      displayName: 'plan',
      type: 'SWITCHOVER' as models.DrPlanType,
      drProtectionGroupId: pair.standby.id,
      ...details,
    },
  });
  const waited = await pair.peer
    .createWaiters(fastWaiter())
    .forDrPlan(
      { drPlanId: created.drPlan.id },
      models.DrPlanLifecycleState.Active,
      models.DrPlanLifecycleState.NeedsAttention,
    );
  return waited!.drPlan;
}

/** Waits for a work request to finish and returns it. */
export async function finished(
  client: DisasterRecoveryClient,
  workRequestId: string | undefined,
): Promise<models.WorkRequest> {
  if (!workRequestId) throw new Error('no opc-work-request-id');
  return (await client.createWaiters(fastWaiter()).forWorkRequest({ workRequestId })).workRequest;
}

/** Raw HTTP request, signed as the SDK signs it, for what the SDK cannot send. */
export async function raw(
  t: { url: string; identity: SigningIdentity },
  method: string,
  path: string,
  body?: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, string>; headers: Headers }> {
  const response = await signedFetch(t.identity, `${t.url}${path}`, { method, headers, body });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined, headers: response.headers };
}
