import { rfc3339, type Clock } from '../../core/clock';
import { errors } from '../../core/errors';
import { assertIfMatch } from '../../core/etag';
import { newOcid } from '../../core/ids';
import type { Entity, Transition } from '../../core/lifecycle';
import { isKnownRegion } from '../../core/regions';
import type { Repository } from '../../core/repository';
import type { EmulatorSettings } from '../../core/settings';
import type { RequestContext } from '../../http/operation';
import { paginateSummaries, parsePage } from '../../http/pagination';
import type { KindDefinition } from '../../store/store';
import { deleteIsNoOp, isGone, isTransient, lifecycleRefusal } from '../common/lifecycle-policy';
import { compact, deletionTransitions, listOrder, ocidSchema } from '../common/resources';
import {
  partOf,
  revertPatch,
  type CancelPatch,
  type FinalAction,
  type Started,
  type WorkRequests,
} from '../common/work-requests';
import type {
  DrProtectionGroupLifecycleState,
  DrProtectionGroupLifecycleSubState,
  DrProtectionGroupMemberType,
  DrProtectionGroupRole,
  OperationType,
  SortOrder,
} from './enums';
import type { ProtectionGroupMember } from './plan-groups';
import type { DrPlans, PlanChanges } from './plans';
import { BASE_PATH, type DefinedTags, type DrProtectionGroupBody, type Tags } from './resources';

export type { DrProtectionGroupBody } from './resources';

/** `DrProtectionGroupSummary`: the List item, without `logLocation` and `members`. */
export function protectionGroupSummary(
  group: DrProtectionGroupBody,
): Omit<DrProtectionGroupBody, 'logLocation' | 'members'> {
  const { logLocation: _log, members: _members, ...summary } = group;
  return summary;
}

/** One table; a column for every ListDrProtectionGroups filter and sort key. */
export const protectionGroupKind: KindDefinition = {
  name: 'dr_protection_groups',
  columns: {
    compartmentId: { type: 'TEXT', value: (e: Entity<DrProtectionGroupBody>) => e.body.compartmentId },
    lifecycleState: { type: 'TEXT', value: (e: Entity<DrProtectionGroupBody>) => e.body.lifecycleState },
    lifecycleSubState: { type: 'TEXT', value: (e: Entity<DrProtectionGroupBody>) => e.body.lifecycleSubState ?? null },
    role: { type: 'TEXT', value: (e: Entity<DrProtectionGroupBody>) => e.body.role },
    displayName: { type: 'TEXT', value: (e: Entity<DrProtectionGroupBody>) => e.body.displayName },
    timeCreated: { type: 'TEXT', value: (e: Entity<DrProtectionGroupBody>) => e.body.timeCreated },
  },
  summary: (e: Entity<DrProtectionGroupBody>) => protectionGroupSummary(e.body),
};

// ---------------------------------------------------------------------------------------------
// Members
// ---------------------------------------------------------------------------------------------

const bool = { type: 'boolean' } as const;
const text = { type: 'string' } as const;
const objectValue = { type: 'object' } as const;
const listOfObjects = { type: 'array', items: { type: 'object' } } as const;

/**
 * The settings each member type has besides `memberId` and `memberType`, with their JSON types
 * (`Create…/Update…/DrProtectionGroupMember<Type>` in the SDK models, which share their field
 * lists). Nested mapping objects are kept as given. Fields of other member types are dropped,
 * as OCI's polymorphic deserialisation drops them.
 */
export const MEMBER_PROPERTIES: Readonly<Record<DrProtectionGroupMemberType, Readonly<Record<string, object>>>> = {
  COMPUTE_INSTANCE: {
    isMovable: bool,
    vnicMapping: listOfObjects,
    destinationCompartmentId: ocidSchema,
    destinationDedicatedVmHostId: ocidSchema,
  },
  COMPUTE_INSTANCE_MOVABLE: {
    isRetainFaultDomain: bool,
    destinationCapacityReservationId: ocidSchema,
    vnicMappings: listOfObjects,
    destinationCompartmentId: ocidSchema,
    destinationDedicatedVmHostId: ocidSchema,
    fileSystemOperations: listOfObjects,
  },
  COMPUTE_INSTANCE_NON_MOVABLE: {
    isStartStopEnabled: bool,
    fileSystemOperations: listOfObjects,
    blockVolumeOperations: listOfObjects,
    blockVolumeAttachAndMountOperations: objectValue,
  },
  VOLUME_GROUP: {
    destinationBackupPolicyId: ocidSchema,
    sourceVolumeToDestinationEncryptionKeyMappings: listOfObjects,
    commonDestinationKey: objectValue,
    destinationCompartmentId: ocidSchema,
  },
  DATABASE: { passwordVaultSecretId: ocidSchema },
  AUTONOMOUS_DATABASE: {
    autonomousDatabaseStandbyTypeForDrDrills: {
      type: 'string',
      enum: ['FULL_CLONE', 'REFRESHABLE_CLONE', 'SNAPSHOT_STANDBY'],
    },
    passwordVaultSecretId: ocidSchema,
    destinationEncryptionKey: objectValue,
  },
  AUTONOMOUS_CONTAINER_DATABASE: {
    connectionStringType: { type: 'string', enum: ['SNAPSHOT_SERVICE', 'PRIMARY_SERVICE'] },
  },
  LOAD_BALANCER: { destinationLoadBalancerId: ocidSchema, backendSetMappings: listOfObjects },
  NETWORK_LOAD_BALANCER: { destinationNetworkLoadBalancerId: ocidSchema, backendSetMappings: listOfObjects },
  FILE_SYSTEM: {
    destinationAvailabilityDomain: text,
    exportMappings: listOfObjects,
    destinationEncryptionKey: objectValue,
    destinationSnapshotPolicyId: ocidSchema,
    destinationCompartmentId: ocidSchema,
  },
  OKE_CLUSTER: {
    peerClusterId: ocidSchema,
    jumpHostId: ocidSchema,
    backupLocation: objectValue,
    backupConfig: objectValue,
    loadBalancerMappings: listOfObjects,
    networkLoadBalancerMappings: listOfObjects,
    vaultMappings: listOfObjects,
    managedNodePoolConfigs: listOfObjects,
    virtualNodePoolConfigs: listOfObjects,
    resourceModifierMappings: listOfObjects,
  },
  OBJECT_STORAGE_BUCKET: {
    namespaceName: { type: 'string', minLength: 1 },
    bucketName: { type: 'string', minLength: 1 },
  },
  MYSQL_DB_SYSTEM: {
    peerDbSystemId: ocidSchema,
    gtidReconciliationTimeout: { type: 'integer', minimum: 0 },
    isContinueOnGtidReconciliationTimeout: bool,
    dbSystemAdminUserDetails: objectValue,
    dbSystemReplicationUserDetails: objectValue,
  },
  INTEGRATION_INSTANCE: {},
};

/** Member fields a member type requires besides `memberId` and `memberType`. */
export const MEMBER_REQUIRED: Readonly<Partial<Record<DrProtectionGroupMemberType, readonly string[]>>> = {
  OBJECT_STORAGE_BUCKET: ['namespaceName', 'bucketName'],
};

/** The members as stored: each type's own fields only, in the model's order; duplicates refused. */
function normalizeMembers(members: ProtectionGroupMember[]): ProtectionGroupMember[] {
  const seen = new Set<string>();
  return members.map((member, i) => {
    if (seen.has(member.memberId)) {
      throw errors.invalidParameter(`members[${i}].memberId '${member.memberId}' is listed more than once.`);
    }
    seen.add(member.memberId);
    const properties = MEMBER_PROPERTIES[member.memberType as DrProtectionGroupMemberType] ?? {};
    const out: ProtectionGroupMember = { memberId: member.memberId, memberType: member.memberType };
    for (const key of Object.keys(properties))
      if (member[key] !== undefined && member[key] !== null) out[key] = member[key];
    return out;
  });
}

/** Members compare by content, whatever their order. */
function sameMembers(a: ProtectionGroupMember[] = [], b: ProtectionGroupMember[] = []): boolean {
  const canonical = (members: ProtectionGroupMember[]) =>
    JSON.stringify([...members].sort((x, y) => (x.memberId < y.memberId ? -1 : x.memberId > y.memberId ? 1 : 0)));
  return canonical(a) === canonical(b);
}

// ---------------------------------------------------------------------------------------------
// Requests
// ---------------------------------------------------------------------------------------------

export interface AssociationDetails {
  peerId?: string;
  peerRegion?: string;
  role: DrProtectionGroupRole;
}

export interface CreateDrProtectionGroupDetails {
  compartmentId: string;
  displayName: string;
  logLocation: { namespace: string; bucket: string };
  association?: AssociationDetails;
  members?: ProtectionGroupMember[];
  freeformTags?: Tags;
  definedTags?: DefinedTags;
}

export interface UpdateDrProtectionGroupDetails {
  displayName?: string;
  logLocation?: { namespace: string; bucket: string };
  members?: ProtectionGroupMember[];
  freeformTags?: Tags;
  definedTags?: DefinedTags;
}

export interface ListDrProtectionGroupsQuery {
  compartmentId: string;
  lifecycleState?: DrProtectionGroupLifecycleState;
  lifecycleSubState?: DrProtectionGroupLifecycleSubState;
  role?: DrProtectionGroupRole;
  drProtectionGroupId?: string;
  displayName?: string;
  limit?: number;
  page?: string;
  sortOrder?: SortOrder;
  sortBy?: 'timeCreated' | 'displayName';
}

export interface DrProtectionGroupDependencies {
  groups: Repository<DrProtectionGroupBody>;
  plans: DrPlans;
  workRequests: WorkRequests;
  clock: Clock;
  settings: EmulatorSettings;
}

/** Associated groups have opposite roles. */
const oppositeRole = (role: DrProtectionGroupRole): DrProtectionGroupRole =>
  role === 'PRIMARY' ? 'STANDBY' : 'PRIMARY';

/** One group's part in a work request: how it looks while the work runs, and when it is done. */
interface GroupChange {
  entity: Entity<DrProtectionGroupBody>;
  during: DrProtectionGroupBody;
  action: FinalAction;
  /** The scheduled end; ACTIVE by default. */
  transitions?: Transition[];
}

/**
 * The rules of DR protection groups: creation (optionally associated at once), full-replacement
 * member updates, association with a peer in any region of this emulator, role changes,
 * compartment moves and deletion, and what each does to the plans of the pair.
 *
 * Every change is a work request: the group reads UPDATING (or CREATING / DELETING) with its
 * new content until the work ends, then ACTIVE; cancelling the work request restores the
 * groups and plans it touched.
 *
 * Error codes where OCI's are not documented (deliberate choices):
 * - 409 IncorrectState while a group (or a plan of its pair) is CREATING or UPDATING: it ends
 *   by itself, and SDKs retry it.
 * - 409 Conflict for lasting conflicts: the group is already associated (or not associated
 *   when that is needed), it still has DR plans, or it is DELETING/DELETED/FAILED.
 * - 400 InvalidParameter for requests that can never succeed: a peer region that is not the
 *   peer's, a group associated with itself, the role UNCONFIGURED where PRIMARY or STANDBY
 *   is needed.
 */
export class DrProtectionGroups {
  constructor(private readonly deps: DrProtectionGroupDependencies) {}

  private get kind(): string {
    return this.deps.groups.kind.name;
  }

  private now(): number {
    return this.deps.clock.now();
  }

  private entityUri(id: string): string {
    return `${BASE_PATH}/drProtectionGroups/${id}`;
  }

  /** The group named in a path: 404 when it does not exist in the request's region. */
  private require(ctx: RequestContext, id: string): Entity<DrProtectionGroupBody> {
    const group = this.deps.groups.find(id, ctx.region);
    if (!group) throw errors.notAuthorizedOrNotFound(`DR protection group ${id}`);
    return group;
  }

  /** Only an ACTIVE group can change; CREATING/UPDATING end by themselves, the rest do not. */
  private assertActive(group: DrProtectionGroupBody, operation: string): void {
    if (group.lifecycleState === 'ACTIVE') return;
    const message = `DR protection group ${group.id} is ${group.lifecycleState}; ${operation} needs it ACTIVE.`;
    throw lifecycleRefusal(group.lifecycleState, message);
  }

  /** The peer of an associated group, when it still exists (in any region). */
  private peerOf(group: DrProtectionGroupBody): Entity<DrProtectionGroupBody> | undefined {
    const peer = group.peerId ? this.deps.groups.find(group.peerId) : undefined;
    return peer && !isGone(peer.body.lifecycleState) ? peer : undefined;
  }

  /**
   * The group a new association names: it must exist (in the region given, which defaults to
   * the request's region; inferred, not documented), be ACTIVE, and not be associated yet.
   */
  private requirePeerForAssociation(ctx: RequestContext, selfId: string, details: AssociationDetails, prefix = '') {
    const field = (name: string) => `${prefix}${name}`;
    if (details.role !== 'PRIMARY' && details.role !== 'STANDBY') {
      throw errors.invalidParameter(
        `Invalid field '${field('role')}': an association needs the role PRIMARY or STANDBY, not ${details.role}.`,
      );
    }
    if (!details.peerId) throw errors.missingParameter(field('peerId'));
    const peerRegion = details.peerRegion ?? ctx.region;
    if (!isKnownRegion(peerRegion)) {
      throw errors.invalidParameter(`Invalid field '${field('peerRegion')}': '${peerRegion}' is not a known region.`);
    }
    if (details.peerId === selfId)
      throw errors.invalidParameter('A DR protection group cannot be associated with itself.');
    const peer = this.deps.groups.find(details.peerId);
    if (!peer || isGone(peer.body.lifecycleState))
      throw errors.relatedResourceNotFound(field('peerId'), details.peerId);
    if (peer.region !== peerRegion) {
      throw errors.invalidParameter(
        `Invalid field '${field('peerRegion')}': DR protection group ${details.peerId} is in region ${peer.region}, not ${peerRegion}.`,
      );
    }
    this.assertActive(peer.body, 'an association');
    if (peer.body.peerId || peer.body.role !== 'UNCONFIGURED') {
      throw errors.conflict(
        `DR protection group ${details.peerId} is already associated (role ${peer.body.role}); disassociate it first.`,
      );
    }
    return peer;
  }

  /**
   * Runs one protection-group work request over the groups it changes: saves each group as it
   * reads while the work runs, schedules its end (ACTIVE unless given) and records how to undo
   * it all, including what the change did to plans.
   */
  private run(
    ctx: RequestContext,
    operationType: OperationType,
    changes: GroupChange[],
    plans: PlanChanges = { onCancel: [] },
    onCancel: CancelPatch[] = [],
  ): string {
    const primary = changes[0];
    const wr = this.deps.workRequests.start({
      region: ctx.region,
      operationType,
      compartmentId: primary.during.compartmentId,
      resources: changes.map((c) => ({
        entityType: 'DrProtectionGroup',
        identifier: c.entity.id,
        entityUri: this.entityUri(c.entity.id),
        action: c.action,
      })),
      onCancel: [
        ...changes.map((c) => revertPatch(this.kind, c.entity.body, c.during)),
        ...plans.onCancel,
        ...onCancel,
      ],
    });
    const done = rfc3339(wr.finishesAt);
    for (const change of changes) {
      const end = change.transitions ?? [{ at: wr.finishesAt, set: { lifecycleState: 'ACTIVE', timeUpdated: done } }];
      this.deps.groups.save({
        ...change.entity,
        body: change.during,
        transitions: [...change.entity.transitions, ...partOf(wr.id, end)],
      });
    }
    return wr.id;
  }

  /**
   * Runs a change of the pair's roles or association: every changed group's plans follow its
   * new role (INACTIVE unless it is the STANDBY of a pair), undone together on cancel.
   */
  private runRoleChange(ctx: RequestContext, operationType: OperationType, changes: GroupChange[]): string {
    const planChanges: PlanChanges = { onCancel: [] };
    for (const change of changes) this.deps.plans.roleChanged(change.during, planChanges);
    return this.run(ctx, operationType, changes, planChanges);
  }

  create(ctx: RequestContext, details: CreateDrProtectionGroupDetails): Started<DrProtectionGroupBody> {
    const now = this.now();
    const id = newOcid('drprotectiongroup', ctx.region);
    const peer = details.association && this.requirePeerForAssociation(ctx, id, details.association, 'association.');
    if (peer) this.deps.plans.assertPlansAtRest([peer.id]);
    const group: DrProtectionGroupBody = compact({
      id,
      compartmentId: details.compartmentId,
      displayName: details.displayName,
      role: peer && details.association ? details.association.role : ('UNCONFIGURED' as const),
      peerId: peer?.id,
      peerRegion: peer?.region,
      logLocation: { namespace: details.logLocation.namespace, bucket: details.logLocation.bucket },
      members: normalizeMembers(details.members ?? []),
      timeCreated: rfc3339(now),
      timeUpdated: rfc3339(now),
      lifecycleState: 'CREATING' as const,
      freeformTags: details.freeformTags ?? {},
      definedTags: details.definedTags ?? {},
    });
    const entity: Entity<DrProtectionGroupBody> = { id, region: ctx.region, body: group, transitions: [] };
    const changes: GroupChange[] = [
      // Cancelling the creation leaves a FAILED group (the patch passed to `run` below).
      { entity, during: group, action: 'CREATED' },
    ];
    const planChanges: PlanChanges = { onCancel: [] };
    if (peer) {
      const peerDuring = this.associated(peer.body, group.role, id, ctx.region, now);
      this.deps.plans.roleChanged(peerDuring, planChanges);
      changes.push({ entity: peer, during: peerDuring, action: 'UPDATED' });
    }
    const workRequestId = this.run(ctx, 'CREATE_DR_PROTECTION_GROUP', changes, planChanges, [
      {
        kind: this.kind,
        id,
        set: { lifecycleState: 'FAILED', lifeCycleDetails: 'The creation of the DR protection group was canceled.' },
      },
    ]);
    return { resource: group, workRequestId };
  }

  /** The peer side of an association with `selfId`, which takes `selfRole`. */
  private associated(
    peer: DrProtectionGroupBody,
    selfRole: DrProtectionGroupRole,
    selfId: string,
    selfRegion: string,
    now: number,
  ) {
    return {
      ...peer,
      role: oppositeRole(selfRole),
      peerId: selfId,
      peerRegion: selfRegion,
      lifecycleState: 'UPDATING' as const,
      timeUpdated: rfc3339(now),
    };
  }

  /** The group without a peer. */
  private unassociated(group: DrProtectionGroupBody, now: number): DrProtectionGroupBody {
    const { peerId: _peer, peerRegion: _region, ...rest } = group;
    return { ...rest, role: 'UNCONFIGURED', lifecycleState: 'UPDATING', timeUpdated: rfc3339(now) };
  }

  get(ctx: RequestContext, id: string): DrProtectionGroupBody {
    return this.require(ctx, id).body;
  }

  list(ctx: RequestContext, query: ListDrProtectionGroupsQuery) {
    const where: Record<string, string> = { region: ctx.region, compartmentId: query.compartmentId };
    if (query.lifecycleState) where.lifecycleState = query.lifecycleState;
    if (query.lifecycleSubState) where.lifecycleSubState = query.lifecycleSubState;
    if (query.role) where.role = query.role;
    if (query.drProtectionGroupId) where.id = query.drProtectionGroupId;
    if (query.displayName) where.displayName = query.displayName;
    return paginateSummaries(parsePage(query), listOrder(query), (page) =>
      this.deps.groups.summaryPage({ where, ...page }),
    );
  }

  /**
   * UpdateDrProtectionGroup: `members`, when given, is the full list (OCI replaces the members; it does not merge them). A change
   * of members puts the plans of both groups of the pair in need of a refresh.
   */
  update(
    ctx: RequestContext,
    id: string,
    details: UpdateDrProtectionGroupDetails,
    ifMatch?: string,
  ): { workRequestId: string } {
    const entity = this.require(ctx, id);
    assertIfMatch(ifMatch, entity.body);
    this.assertActive(entity.body, 'an update');
    const members = details.members === undefined ? entity.body.members : normalizeMembers(details.members);
    const membersChanged = !sameMembers(members, entity.body.members);
    const peer = this.peerOf(entity.body);
    if (membersChanged) this.deps.plans.assertPlansAtRest([id, peer?.id]);
    const during: DrProtectionGroupBody = compact({
      ...entity.body,
      displayName: details.displayName ?? entity.body.displayName,
      logLocation: details.logLocation
        ? { namespace: details.logLocation.namespace, bucket: details.logLocation.bucket }
        : entity.body.logLocation,
      members,
      freeformTags: details.freeformTags ?? entity.body.freeformTags,
      definedTags: details.definedTags ?? entity.body.definedTags,
      lifecycleState: 'UPDATING' as const,
      timeUpdated: rfc3339(this.now()),
    });
    const planChanges: PlanChanges = { onCancel: [] };
    if (membersChanged) this.deps.plans.membersChanged([id, peer?.id], planChanges);
    return {
      workRequestId: this.run(ctx, 'UPDATE_DR_PROTECTION_GROUP', [{ entity, during, action: 'UPDATED' }], planChanges),
    };
  }

  /**
   * DeleteDrProtectionGroup: refused while the group has DR plans (OCI does not document the code: 409 Conflict,
   * or IncorrectState when the only ones left are being deleted). An associated group's peer is
   * left unassociated, and its plans INACTIVE.
   */
  delete(ctx: RequestContext, id: string, ifMatch?: string): { workRequestId?: string } {
    const entity = this.require(ctx, id);
    assertIfMatch(ifMatch, entity.body);
    if (deleteIsNoOp(entity.body.lifecycleState)) return {};
    if (isTransient(entity.body.lifecycleState)) {
      throw errors.incorrectState(
        `DR protection group ${id} is ${entity.body.lifecycleState}; it can be deleted once that is done.`,
      );
    }
    const plans = this.deps.plans.plansOf(id);
    const remaining = plans.filter((p) => p.body.lifecycleState !== 'DELETING');
    if (remaining.length) {
      throw errors.conflict(
        `DR protection group ${id} still has ${remaining.length} DR plan(s) (${remaining.map((p) => p.id).join(', ')}); delete them first.`,
      );
    }
    if (plans.length)
      throw errors.incorrectState(`The DR plans of DR protection group ${id} are being deleted; try again shortly.`);

    const now = this.now();
    const peer = this.peerOf(entity.body);
    const changes: GroupChange[] = [];
    const planChanges: PlanChanges = { onCancel: [] };
    const { lifeCycleDetails: _details, ...rest } = entity.body;
    const deleting: DrProtectionGroupBody = { ...rest, lifecycleState: 'DELETING', timeUpdated: rfc3339(now) };
    changes.push({
      entity,
      during: deleting,
      action: 'DELETED',
      transitions: deletionTransitions(now, this.deps.settings),
    });
    if (peer) {
      this.assertActive(peer.body, 'deleting its peer');
      this.deps.plans.assertPlansAtRest([peer.id]);
      const peerDuring = this.unassociated(peer.body, now);
      this.deps.plans.roleChanged(peerDuring, planChanges);
      changes.push({ entity: peer, during: peerDuring, action: 'UPDATED' });
    }
    return { workRequestId: this.run(ctx, 'DELETE_DR_PROTECTION_GROUP', changes, planChanges) };
  }

  /**
   * AssociateDrProtectionGroup: `role` is this group's; the peer takes the other role, as in
   * terraform-provider-oci's acceptance test, which associates a STANDBY with its PRIMARY. The peer may be in another region of this
   * emulator; `peerRegion` must be its region.
   */
  associate(ctx: RequestContext, id: string, details: AssociationDetails, ifMatch?: string): { workRequestId: string } {
    const entity = this.require(ctx, id);
    assertIfMatch(ifMatch, entity.body);
    this.assertActive(entity.body, 'an association');
    if (entity.body.peerId) {
      throw errors.conflict(
        `DR protection group ${id} is already associated with ${entity.body.peerId}; disassociate it first.`,
      );
    }
    const peer = this.requirePeerForAssociation(ctx, id, details);
    this.deps.plans.assertPlansAtRest([id, peer.id]);
    const now = this.now();
    const during: DrProtectionGroupBody = {
      ...entity.body,
      role: details.role,
      peerId: peer.id,
      peerRegion: peer.region,
      lifecycleState: 'UPDATING',
      timeUpdated: rfc3339(now),
    };
    const peerDuring = this.associated(peer.body, details.role, id, entity.region, now);
    return {
      workRequestId: this.runRoleChange(ctx, 'ASSOCIATE_DR_PROTECTION_GROUP', [
        { entity, during, action: 'UPDATED' },
        { entity: peer, during: peerDuring, action: 'UPDATED' },
      ]),
    };
  }

  /** DisassociateDrProtectionGroup: both groups become UNCONFIGURED; their plans INACTIVE. */
  disassociate(ctx: RequestContext, id: string, ifMatch?: string): { workRequestId: string } {
    const entity = this.require(ctx, id);
    assertIfMatch(ifMatch, entity.body);
    this.assertActive(entity.body, 'a disassociation');
    if (!entity.body.peerId) throw errors.conflict(`DR protection group ${id} is not associated with a peer.`);
    const peer = this.peerOf(entity.body);
    if (peer) this.assertActive(peer.body, 'a disassociation of its peer');
    this.deps.plans.assertPlansAtRest([id, peer?.id]);
    const now = this.now();
    const changes: GroupChange[] = [{ entity, during: this.unassociated(entity.body, now), action: 'UPDATED' }];
    if (peer) changes.push({ entity: peer, during: this.unassociated(peer.body, now), action: 'UPDATED' });
    return { workRequestId: this.runRoleChange(ctx, 'DISASSOCIATE_DR_PROTECTION_GROUP', changes) };
  }

  /**
   * UpdateDrProtectionGroupRole: sets this group's role and gives the peer the other one (the
   * pair always has one PRIMARY and one STANDBY). Plans of the group that is no longer STANDBY
   * become INACTIVE; INACTIVE plans of the new STANDBY become usable again, ACTIVE unless they
   * still carried a NEEDS_REFRESH/NEEDS_VERIFICATION sub-state (members changed meanwhile).
   */
  updateRole(
    ctx: RequestContext,
    id: string,
    role: DrProtectionGroupRole,
    ifMatch?: string,
  ): { workRequestId: string } {
    const entity = this.require(ctx, id);
    assertIfMatch(ifMatch, entity.body);
    if (role !== 'PRIMARY' && role !== 'STANDBY') {
      throw errors.invalidParameter(
        `Invalid field 'role': '${role}'; the role of an associated group is PRIMARY or STANDBY (disassociate to unconfigure it).`,
      );
    }
    this.assertActive(entity.body, 'a role change');
    const peer = this.peerOf(entity.body);
    if (!entity.body.peerId || !peer) {
      throw errors.conflict(
        `DR protection group ${id} is not associated with a peer; only associated groups have a role to change.`,
      );
    }
    this.assertActive(peer.body, 'a role change of its peer');
    this.deps.plans.assertPlansAtRest([id, peer.id]);
    const now = this.now();
    const during: DrProtectionGroupBody = {
      ...entity.body,
      role,
      lifecycleState: 'UPDATING',
      timeUpdated: rfc3339(now),
    };
    const peerDuring: DrProtectionGroupBody = {
      ...peer.body,
      role: oppositeRole(role),
      lifecycleState: 'UPDATING',
      timeUpdated: rfc3339(now),
    };
    return {
      workRequestId: this.runRoleChange(ctx, 'UPDATE_ROLE_DR_PROTECTION_GROUP', [
        { entity, during, action: 'UPDATED' },
        { entity: peer, during: peerDuring, action: 'UPDATED' },
      ]),
    };
  }

  /** ChangeDrProtectionGroupCompartment: the group moves, and its plans with it. */
  changeCompartment(
    ctx: RequestContext,
    id: string,
    compartmentId: string,
    ifMatch?: string,
  ): { workRequestId: string } {
    const entity = this.require(ctx, id);
    assertIfMatch(ifMatch, entity.body);
    this.assertActive(entity.body, 'a compartment change');
    const during: DrProtectionGroupBody = {
      ...entity.body,
      compartmentId,
      lifecycleState: 'UPDATING',
      timeUpdated: rfc3339(this.now()),
    };
    const planChanges: PlanChanges = { onCancel: [] };
    this.deps.plans.compartmentChanged(id, compartmentId, planChanges);
    return {
      workRequestId: this.run(ctx, 'MOVE_DR_PROTECTION_GROUP', [{ entity, during, action: 'UPDATED' }], planChanges),
    };
  }

  /**
   * The sandbox's pair: a PRIMARY and a STANDBY group, associated and ACTIVE from the start
   * (no work requests), ready for plans in the STANDBY group.
   */
  seedAssociatedPair(pair: {
    compartmentId: string;
    logLocation: { namespace: string; bucket: string };
    primary: { region: string; displayName: string; members: ProtectionGroupMember[] };
    standby: { region: string; displayName: string; members: ProtectionGroupMember[] };
  }): { primaryId: string; standbyId: string } {
    const now = rfc3339(this.now());
    const primaryId = newOcid('drprotectiongroup', pair.primary.region);
    const standbyId = newOcid('drprotectiongroup', pair.standby.region);
    const body = (
      side: typeof pair.primary,
      id: string,
      role: DrProtectionGroupRole,
      peerId: string,
      peerRegion: string,
    ) => ({
      id,
      region: side.region,
      transitions: [],
      body: {
        id,
        compartmentId: pair.compartmentId,
        displayName: side.displayName,
        role,
        peerId,
        peerRegion,
        logLocation: { ...pair.logLocation },
        members: normalizeMembers(side.members),
        timeCreated: now,
        timeUpdated: now,
        lifecycleState: 'ACTIVE' as const,
        freeformTags: { 'ocikit-sandbox': 'true' },
        definedTags: {},
      },
    });
    this.deps.groups.save(body(pair.primary, primaryId, 'PRIMARY', standbyId, pair.standby.region));
    this.deps.groups.save(body(pair.standby, standbyId, 'STANDBY', primaryId, pair.primary.region));
    return { primaryId, standbyId };
  }
}
