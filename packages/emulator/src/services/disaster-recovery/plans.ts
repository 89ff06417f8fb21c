import { rfc3339, type Clock } from '../../core/clock';
import { errors } from '../../core/errors';
import { assertIfMatch } from '../../core/etag';
import { newOcid } from '../../core/ids';
import type { Entity, Transition } from '../../core/lifecycle';
import type { Repository } from '../../core/repository';
import type { EmulatorSettings } from '../../core/settings';
import type { RequestContext } from '../../http/operation';
import { paginateSummaries, parsePage } from '../../http/pagination';
import type { KindDefinition } from '../../store/store';
import { deleteIsNoOp, isGone, isTransient, lifecycleRefusal } from '../common/lifecycle-policy';
import { compact, deletionTransitions, listOrder } from '../common/resources';
import { partOf, revertPatch, type CancelPatch, type Started, type WorkRequests } from '../common/work-requests';
import type { DrPlanLifecycleState, DrPlanLifecycleSubState, DrPlanType, SortOrder } from './enums';
import {
  applyPlanGroupsUpdate,
  clonePlanGroups,
  generatePlanGroups,
  refreshPlanGroups,
  verifyPlanGroups,
  type PlanGroup,
} from './plan-groups';
import type { DrProtectionGroupBody } from './resources';
import { BASE_PATH, type DefinedTags, type Tags } from './resources';

// ---------------------------------------------------------------------------------------------
// DR plans
// ---------------------------------------------------------------------------------------------

/** `DrPlan` exactly as the API serves it. */
export interface DrPlanBody {
  id: string;
  displayName: string;
  compartmentId: string;
  type: DrPlanType;
  timeCreated: string;
  timeUpdated: string;
  drProtectionGroupId: string;
  peerDrProtectionGroupId: string;
  peerRegion: string;
  sourcePlanId?: string;
  planGroups: PlanGroup[];
  lifecycleState: DrPlanLifecycleState;
  lifecycleSubState?: DrPlanLifecycleSubState;
  lifeCycleDetails?: string;
  freeformTags?: Tags;
  definedTags?: DefinedTags;
  systemTags?: DefinedTags;
}

/** `DrPlanSummary`: the List item, without `planGroups` and `sourcePlanId`. */
export function planSummary(plan: DrPlanBody): Omit<DrPlanBody, 'planGroups' | 'sourcePlanId'> {
  const { planGroups: _groups, sourcePlanId: _source, ...summary } = plan;
  return summary;
}

/** One table; a column for every ListDrPlans filter and sort key. */
export const planKind: KindDefinition = {
  name: 'dr_plans',
  columns: {
    drProtectionGroupId: { type: 'TEXT', value: (e: Entity<DrPlanBody>) => e.body.drProtectionGroupId },
    compartmentId: { type: 'TEXT', value: (e: Entity<DrPlanBody>) => e.body.compartmentId },
    lifecycleState: { type: 'TEXT', value: (e: Entity<DrPlanBody>) => e.body.lifecycleState },
    lifecycleSubState: { type: 'TEXT', value: (e: Entity<DrPlanBody>) => e.body.lifecycleSubState ?? null },
    type: { type: 'TEXT', value: (e: Entity<DrPlanBody>) => e.body.type },
    displayName: { type: 'TEXT', value: (e: Entity<DrPlanBody>) => e.body.displayName },
    timeCreated: { type: 'TEXT', value: (e: Entity<DrPlanBody>) => e.body.timeCreated },
  },
  summary: (e: Entity<DrPlanBody>) => planSummary(e.body),
  indexes: [
    ['drProtectionGroupId', 'timeCreated'],
    ['drProtectionGroupId', 'displayName'],
  ],
};

export interface CreateDrPlanDetails {
  displayName: string;
  type: DrPlanType;
  drProtectionGroupId: string;
  sourcePlanId?: string;
  freeformTags?: Tags;
  definedTags?: DefinedTags;
}

export interface UpdateDrPlanDetails {
  displayName?: string;
  /** Validated by `applyPlanGroupsUpdate`, which owns the planGroups rules. */
  planGroups?: unknown;
  freeformTags?: Tags;
  definedTags?: DefinedTags;
}

export interface ListDrPlansQuery {
  drProtectionGroupId: string;
  lifecycleState?: DrPlanLifecycleState;
  lifecycleSubState?: DrPlanLifecycleSubState;
  drPlanId?: string;
  drPlanType?: DrPlanType;
  displayName?: string;
  limit?: number;
  page?: string;
  sortOrder?: SortOrder;
  sortBy?: 'timeCreated' | 'displayName';
}

export interface DrPlanDependencies {
  plans: Repository<DrPlanBody>;
  groups: Repository<DrProtectionGroupBody>;
  workRequests: WorkRequests;
  clock: Clock;
  settings: EmulatorSettings;
}

/** What a change of the plans' protection groups did to them, for the caller's work request. */
export interface PlanChanges {
  /** Undo patches, applied when the protection-group work request is cancelled. */
  onCancel: CancelPatch[];
}

const DETAILS = {
  needsRefresh: 'The members of the DR protection groups changed: refresh the plan, then verify it.',
  needsVerification: 'The plan was refreshed: review the changes and verify the plan.',
  inactive: 'The DR protection group of this plan is not the STANDBY of an associated pair.',
  canceled: 'The creation of the plan was canceled.',
} as const;

/**
 * The rules of DR plans: what CreateDrPlan requires of its protection group, the lifecycle and
 * sub-state machine of update/refresh/verify/delete (as OCI's DR plan documentation describes it), and what changes of the
 * protection groups do to their plans.
 *
 * Error codes where OCI's are not documented (deliberate choices):
 * - 409 IncorrectState only for states that end by themselves (CREATING, UPDATING): SDKs retry it.
 * - 409 Conflict for states that do not change on their own (refresh of an ACTIVE plan, verify
 *   before refresh, an INACTIVE, FAILED or deleted plan): the TypeScript SDK retries
 *   IncorrectState up to 8 times with backoff, which would only delay the inevitable error.
 * - 400 InvalidParameter when the request names a protection group that cannot hold plans (not
 *   STANDBY, or not associated): the request itself is wrong, and Terraform retries every 409
 *   for minutes but fails fast on 400.
 */
export class DrPlans {
  constructor(private readonly deps: DrPlanDependencies) {}

  private get kind(): string {
    return this.deps.plans.kind.name;
  }

  private now(): number {
    return this.deps.clock.now();
  }

  private entityUri(id: string): string {
    return `${BASE_PATH}/drPlans/${id}`;
  }

  /** The plan named in a path: 404 when it does not exist in the request's region. */
  private require(ctx: RequestContext, id: string): Entity<DrPlanBody> {
    const plan = this.deps.plans.find(id, ctx.region);
    if (!plan) throw errors.notAuthorizedOrNotFound(`DR plan ${id}`);
    return plan;
  }

  /** Rejects changes to a plan that is busy (transient, retryable) or finished (lasting). */
  private assertChangeable(plan: DrPlanBody, operation: string): void {
    const state = plan.lifecycleState;
    if (!isTransient(state) && !isGone(state) && state !== 'FAILED') return;
    throw lifecycleRefusal(
      state,
      isTransient(state)
        ? `DR plan ${plan.id} is ${state}; ${operation} is possible once it is done.`
        : `DR plan ${plan.id} is ${state}; ${operation} is not possible.`,
    );
  }

  /** A plan's protection group must be at rest while the plan changes (one operation per pair at a time). */
  private assertGroupAtRest(plan: DrPlanBody): DrProtectionGroupBody | undefined {
    const group = this.deps.groups.find(plan.drProtectionGroupId)?.body;
    if (group && isTransient(group.lifecycleState)) {
      throw errors.incorrectState(
        `DR protection group ${group.id} of the plan is ${group.lifecycleState}; try again once it is ACTIVE.`,
      );
    }
    return group;
  }

  private members(groupId: string | undefined) {
    return (groupId ? this.deps.groups.find(groupId)?.body.members : undefined) ?? [];
  }

  /** The plan groups the members of a STANDBY group and its PRIMARY peer call for now. */
  private generate(type: DrPlanType, group: DrProtectionGroupBody): { groups: PlanGroup[]; memberIds: Set<string> } {
    const primaryMembers = this.members(group.peerId);
    const standbyMembers = group.members ?? [];
    return {
      groups: generatePlanGroups({ planType: type, primaryMembers, standbyMembers }),
      memberIds: new Set([...primaryMembers, ...standbyMembers].map((m) => m.memberId)),
    };
  }

  create(ctx: RequestContext, details: CreateDrPlanDetails): Started<DrPlanBody> {
    const groupEntity = this.deps.groups.find(details.drProtectionGroupId, ctx.region);
    if (!groupEntity || isGone(groupEntity.body.lifecycleState)) {
      throw errors.relatedResourceNotFound('drProtectionGroupId', details.drProtectionGroupId);
    }
    const group = groupEntity.body;
    if (isTransient(group.lifecycleState)) {
      throw errors.incorrectState(
        `DR protection group ${group.id} is ${group.lifecycleState}; plans can be created once it is ACTIVE.`,
      );
    }
    if (group.lifecycleState !== 'ACTIVE') {
      throw errors.conflict(
        `DR protection group ${group.id} is ${group.lifecycleState}; plans can only be created in an ACTIVE group.`,
      );
    }
    if (group.role !== 'STANDBY' || !group.peerId || !group.peerRegion) {
      throw errors.invalidParameter(
        `DR plans can only be created in the STANDBY DR protection group of an associated pair; ` +
          `${group.id} has role ${group.role}${group.peerId ? '' : ' and no peer'}.`,
      );
    }

    let planGroups: PlanGroup[];
    let needsRefresh = false;
    if (details.sourcePlanId !== undefined) {
      const source = this.deps.plans.find(details.sourcePlanId, ctx.region)?.body;
      if (!source || isGone(source.lifecycleState)) {
        throw errors.relatedResourceNotFound('sourcePlanId', details.sourcePlanId);
      }
      // Inferred, not documented: a clone stays within its protection group and plan type: its steps act on
      // that pair's members and are the step types of that plan type.
      if (source.drProtectionGroupId !== group.id) {
        throw errors.invalidParameter(
          `sourcePlanId ${source.id} belongs to another DR protection group than ${group.id}.`,
        );
      }
      if (source.type !== details.type) {
        throw errors.invalidParameter(
          `sourcePlanId ${source.id} is a ${source.type} plan; it cannot be cloned into a ${details.type} plan.`,
        );
      }
      planGroups = clonePlanGroups(source.planGroups);
      // The clone drops refresh labels, so a source that was out of date leaves the clone out of date.
      needsRefresh = source.lifecycleSubState !== undefined;
    } else {
      planGroups = this.generate(details.type, group).groups;
    }

    const now = this.now();
    const id = newOcid('drplan', ctx.region);
    const plan: DrPlanBody = compact({
      id,
      displayName: details.displayName,
      compartmentId: group.compartmentId,
      type: details.type,
      timeCreated: rfc3339(now),
      timeUpdated: rfc3339(now),
      drProtectionGroupId: group.id,
      peerDrProtectionGroupId: group.peerId,
      peerRegion: group.peerRegion,
      sourcePlanId: details.sourcePlanId,
      planGroups,
      lifecycleState: 'CREATING' as const,
      freeformTags: details.freeformTags ?? {},
      definedTags: details.definedTags ?? {},
    });
    const wr = this.deps.workRequests.start({
      region: ctx.region,
      operationType: 'CREATE_DR_PLAN',
      compartmentId: plan.compartmentId,
      resources: [{ entityType: 'DrPlan', identifier: id, entityUri: this.entityUri(id), action: 'CREATED' }],
      onCancel: [{ kind: this.kind, id, set: { lifecycleState: 'FAILED', lifeCycleDetails: DETAILS.canceled } }],
    });
    const done = rfc3339(wr.finishesAt);
    const ready: Record<string, unknown> = needsRefresh
      ? {
          lifecycleState: 'NEEDS_ATTENTION',
          lifecycleSubState: 'NEEDS_REFRESH',
          lifeCycleDetails: DETAILS.needsRefresh,
          timeUpdated: done,
        }
      : { lifecycleState: 'ACTIVE', timeUpdated: done };
    this.deps.plans.save({
      id,
      region: ctx.region,
      body: plan,
      transitions: partOf(wr.id, [{ at: wr.finishesAt, set: ready }]),
    });
    return { resource: plan, workRequestId: wr.id };
  }

  get(ctx: RequestContext, id: string): DrPlanBody {
    return this.require(ctx, id).body;
  }

  list(ctx: RequestContext, query: ListDrPlansQuery) {
    // The group named must be one the caller can read here, as its GET: another tenancy's, another
    // region's and one that does not exist are one answer (NotAuthorizedOrNotFound tells none apart).
    if (!this.deps.groups.find(query.drProtectionGroupId, ctx.region))
      throw errors.notAuthorizedOrNotFound(`DR protection group ${query.drProtectionGroupId}`);
    const where: Record<string, string> = { region: ctx.region, drProtectionGroupId: query.drProtectionGroupId };
    if (query.lifecycleState) where.lifecycleState = query.lifecycleState;
    if (query.lifecycleSubState) where.lifecycleSubState = query.lifecycleSubState;
    if (query.drPlanId) where.id = query.drPlanId;
    if (query.drPlanType) where.type = query.drPlanType;
    if (query.displayName) where.displayName = query.displayName;
    return paginateSummaries(parsePage(query), listOrder(query), (page) =>
      this.deps.plans.summaryPage({ where, ...page }),
    );
  }

  /**
   * Starts a change of the plan: the new body is visible at once (UPDATING), the work request
   * returns it to `settled` when it ends, and cancelling it restores the plan as it was.
   */
  private change(
    ctx: RequestContext,
    plan: Entity<DrPlanBody>,
    operationType: 'UPDATE_DR_PLAN' | 'REFRESH_DR_PLAN' | 'VERIFY_DR_PLAN',
    during: DrPlanBody,
    settled: Pick<Transition, 'set' | 'unset'>,
  ): string {
    const wr = this.deps.workRequests.start({
      region: ctx.region,
      operationType,
      compartmentId: plan.body.compartmentId,
      resources: [{ entityType: 'DrPlan', identifier: plan.id, entityUri: this.entityUri(plan.id), action: 'UPDATED' }],
      onCancel: [revertPatch(this.kind, plan.body, during)],
    });
    const end: Transition = {
      at: wr.finishesAt,
      ...settled,
      set: { ...settled.set, timeUpdated: rfc3339(wr.finishesAt) },
    };
    this.deps.plans.save({ ...plan, body: during, transitions: [...plan.transitions, ...partOf(wr.id, [end])] });
    return wr.id;
  }

  update(ctx: RequestContext, id: string, details: UpdateDrPlanDetails, ifMatch?: string): { workRequestId: string } {
    const plan = this.require(ctx, id);
    assertIfMatch(ifMatch, plan.body);
    this.assertChangeable(plan.body, 'an update');
    this.assertGroupAtRest(plan.body);
    const planGroups =
      details.planGroups === undefined
        ? plan.body.planGroups
        : applyPlanGroupsUpdate(plan.body.planGroups, details.planGroups, { region: ctx.region });
    const during: DrPlanBody = compact({
      ...plan.body,
      displayName: details.displayName ?? plan.body.displayName,
      freeformTags: details.freeformTags ?? plan.body.freeformTags,
      definedTags: details.definedTags ?? plan.body.definedTags,
      planGroups,
      lifecycleState: 'UPDATING' as const,
      timeUpdated: rfc3339(this.now()),
    });
    return {
      workRequestId: this.change(ctx, plan, 'UPDATE_DR_PLAN', during, {
        set: { lifecycleState: plan.body.lifecycleState },
      }),
    };
  }

  /**
   * DeleteDrPlan answers without a work request (OCI's API has none for it), but one is kept so
   * ListWorkRequests shows the deletion. A plan already being deleted is deleted again as a no-op.
   */
  delete(ctx: RequestContext, id: string, ifMatch?: string): void {
    const plan = this.require(ctx, id);
    assertIfMatch(ifMatch, plan.body);
    if (deleteIsNoOp(plan.body.lifecycleState)) return;
    if (isTransient(plan.body.lifecycleState)) {
      throw errors.incorrectState(`DR plan ${id} is ${plan.body.lifecycleState}; it can be deleted once that is done.`);
    }
    this.assertGroupAtRest(plan.body);
    const now = this.now();
    const { lifecycleSubState: _sub, lifeCycleDetails: _details, ...rest } = plan.body;
    const deleting: DrPlanBody = { ...rest, lifecycleState: 'DELETING', timeUpdated: rfc3339(now) };
    const wr = this.deps.workRequests.start({
      region: ctx.region,
      operationType: 'DELETE_DR_PLAN',
      compartmentId: plan.body.compartmentId,
      resources: [{ entityType: 'DrPlan', identifier: id, entityUri: this.entityUri(id), action: 'DELETED' }],
      onCancel: [revertPatch(this.kind, plan.body, deleting)],
    });
    this.deps.plans.save({
      ...plan,
      body: deleting,
      transitions: [...plan.transitions, ...partOf(wr.id, deletionTransitions(now, this.deps.settings, wr.id))],
    });
  }

  /**
   * Refresh: only a NEEDS_ATTENTION plan whose sub-state is NEEDS_REFRESH. The
   * groups and steps are regenerated from both protection groups' members now and the
   * differences labelled; the plan then needs a verify.
   */
  refresh(ctx: RequestContext, id: string, ifMatch?: string): { workRequestId: string } {
    const plan = this.require(ctx, id);
    assertIfMatch(ifMatch, plan.body);
    this.assertChangeable(plan.body, 'a refresh');
    if (plan.body.lifecycleState !== 'NEEDS_ATTENTION' || plan.body.lifecycleSubState !== 'NEEDS_REFRESH') {
      throw errors.conflict(
        `DR plan ${id} is ${describeState(plan.body)}; only a NEEDS_ATTENTION plan whose sub-state is NEEDS_REFRESH can be refreshed.`,
      );
    }
    const group = this.assertGroupAtRest(plan.body);
    if (!group) throw errors.conflict(`The DR protection group of plan ${id} no longer exists.`);
    const regenerated = this.generate(plan.body.type, group);
    const during: DrPlanBody = {
      ...plan.body,
      planGroups: refreshPlanGroups(plan.body.planGroups, regenerated.groups, { memberIds: regenerated.memberIds }),
      lifecycleState: 'UPDATING',
      lifecycleSubState: 'REFRESHING',
      timeUpdated: rfc3339(this.now()),
    };
    const settled = {
      set: {
        lifecycleState: 'NEEDS_ATTENTION',
        lifecycleSubState: 'NEEDS_VERIFICATION',
        lifeCycleDetails: DETAILS.needsVerification,
      },
    };
    return { workRequestId: this.change(ctx, plan, 'REFRESH_DR_PLAN', during, settled) };
  }

  /**
   * Verify (its preconditions are not documented; inferred from the refresh workflow): only after a refresh (NEEDS_ATTENTION /
   * NEEDS_VERIFICATION). Removes what the refresh labelled deleted, clears every label and
   * makes the plan ACTIVE again.
   */
  verify(ctx: RequestContext, id: string, ifMatch?: string): { workRequestId: string } {
    const plan = this.require(ctx, id);
    assertIfMatch(ifMatch, plan.body);
    this.assertChangeable(plan.body, 'a verify');
    if (plan.body.lifecycleState !== 'NEEDS_ATTENTION' || plan.body.lifecycleSubState !== 'NEEDS_VERIFICATION') {
      throw errors.conflict(
        `DR plan ${id} is ${describeState(plan.body)}; only a NEEDS_ATTENTION plan whose sub-state is NEEDS_VERIFICATION ` +
          '(a refreshed plan) can be verified.',
      );
    }
    this.assertGroupAtRest(plan.body);
    const during: DrPlanBody = {
      ...plan.body,
      planGroups: verifyPlanGroups(plan.body.planGroups),
      lifecycleState: 'UPDATING',
      lifecycleSubState: 'VERIFYING',
      timeUpdated: rfc3339(this.now()),
    };
    return {
      workRequestId: this.change(ctx, plan, 'VERIFY_DR_PLAN', during, {
        set: { lifecycleState: 'ACTIVE' },
        unset: ['lifecycleSubState', 'lifeCycleDetails'],
      }),
    };
  }

  // -------------------------------------------------------------------------------------------
  // What protection-group changes do to plans
  // -------------------------------------------------------------------------------------------

  /** The plans of a protection group that still exist (not DELETED), in every region. */
  plansOf(groupId: string): Array<Entity<DrPlanBody>> {
    return this.deps.plans
      .list({ where: { drProtectionGroupId: groupId } })
      .filter((p) => p.body.lifecycleState !== 'DELETED');
  }

  /**
   * A protection group's change that moves its plans must wait for plans that are being
   * created or changed: their own work requests would otherwise overwrite the new state.
   */
  assertPlansAtRest(groupIds: Array<string | undefined>): void {
    for (const groupId of groupIds) {
      if (!groupId) continue;
      const busy = this.plansOf(groupId).find((p) => isTransient(p.body.lifecycleState));
      if (busy) {
        throw errors.incorrectState(
          `DR plan ${busy.id} of DR protection group ${groupId} is ${busy.body.lifecycleState}; try again once it is done.`,
        );
      }
    }
  }

  private rewrite(plan: Entity<DrPlanBody>, next: DrPlanBody, changes: PlanChanges): void {
    if (JSON.stringify(next) === JSON.stringify(plan.body)) return;
    changes.onCancel.push(revertPatch(this.kind, plan.body, next));
    this.deps.plans.save({ ...plan, body: next });
  }

  /**
   * Members of a protection group changed: as in OCI, the plans of both
   * groups of the pair need a refresh. ACTIVE and NEEDS_ATTENTION plans become
   * NEEDS_ATTENTION / NEEDS_REFRESH (a refreshed but unverified plan is out of date again);
   * INACTIVE plans stay INACTIVE with sub-state NEEDS_REFRESH, which they keep until they are
   * active again.
   */
  membersChanged(groupIds: Array<string | undefined>, changes: PlanChanges): void {
    const now = rfc3339(this.now());
    for (const groupId of groupIds) {
      if (!groupId) continue;
      for (const plan of this.plansOf(groupId)) {
        const state = plan.body.lifecycleState;
        if (state !== 'ACTIVE' && state !== 'NEEDS_ATTENTION' && state !== 'INACTIVE') continue;
        this.rewrite(
          plan,
          {
            ...plan.body,
            lifecycleState: state === 'INACTIVE' ? 'INACTIVE' : 'NEEDS_ATTENTION',
            lifecycleSubState: 'NEEDS_REFRESH',
            lifeCycleDetails: state === 'INACTIVE' ? DETAILS.inactive : DETAILS.needsRefresh,
            timeUpdated: now,
          },
          changes,
        );
      }
    }
  }

  /**
   * A protection group's role or association changed (inferred from the INACTIVE state's
   * documentation): plans can only be used in the STANDBY group of an associated pair. Plans of
   * any other group become INACTIVE, keeping their sub-state; when the group is the STANDBY of
   * a pair again (a role flip back, or a new association), its INACTIVE plans return to
   * ACTIVE, or to NEEDS_ATTENTION when they still need a refresh or verify, and take the
   * current peer. A plan whose peer changed needs a refresh, since its steps act on the old
   * peer's members.
   */
  roleChanged(group: DrProtectionGroupBody, changes: PlanChanges): void {
    const now = rfc3339(this.now());
    const usable = group.role === 'STANDBY' && group.peerId !== undefined && group.peerRegion !== undefined;
    for (const plan of this.plansOf(group.id)) {
      const body = plan.body;
      if (isGone(body.lifecycleState) || body.lifecycleState === 'FAILED') continue;
      if (!usable) {
        if (body.lifecycleState === 'INACTIVE') continue;
        this.rewrite(
          plan,
          { ...body, lifecycleState: 'INACTIVE', lifeCycleDetails: DETAILS.inactive, timeUpdated: now },
          changes,
        );
        continue;
      }
      const peerChanged = body.peerDrProtectionGroupId !== group.peerId;
      const subState: DrPlanLifecycleSubState | undefined = peerChanged ? 'NEEDS_REFRESH' : body.lifecycleSubState;
      if (body.lifecycleState !== 'INACTIVE' && !peerChanged) continue;
      this.rewrite(
        plan,
        compact({
          ...body,
          peerDrProtectionGroupId: group.peerId!,
          peerRegion: group.peerRegion!,
          lifecycleState: subState ? ('NEEDS_ATTENTION' as const) : ('ACTIVE' as const),
          lifecycleSubState: subState,
          lifeCycleDetails:
            subState === undefined
              ? undefined
              : subState === 'NEEDS_VERIFICATION'
                ? DETAILS.needsVerification
                : DETAILS.needsRefresh,
          timeUpdated: now,
        }),
        changes,
      );
    }
  }

  /** Inferred, not documented: a plan's compartment is its protection group's: plans move with their group. */
  compartmentChanged(groupId: string, compartmentId: string, changes: PlanChanges): void {
    for (const plan of this.plansOf(groupId)) {
      this.rewrite(plan, { ...plan.body, compartmentId }, changes);
    }
  }
}

function describeState(plan: DrPlanBody): string {
  return plan.lifecycleSubState ? `${plan.lifecycleState} (${plan.lifecycleSubState})` : plan.lifecycleState;
}
