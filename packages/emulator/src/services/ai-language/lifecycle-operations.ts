import { rfc3339 } from '../../core/clock';
import { errors } from '../../core/errors';
import { assertIfMatch } from '../../core/etag';
import type { Entity, Transition } from '../../core/lifecycle';
import type { Repository } from '../../core/repository';
import type { RequestContext } from '../../http/operation';
import type { ColumnValue } from '../../store/store';
import { deleteIsNoOp, isTransient, lifecycleRefusal } from '../common/lifecycle-policy';
import { deletionTransitions } from '../common/resources';
import type { FinalAction, StartedWorkRequest, StartWorkRequest } from '../common/work-requests';
import { entityUri, type ResourceBody, type UpdateResourceDetails } from './resources';
import type { AiLanguageDependencies } from './dependencies';
import { compact } from '../common/resources';
import { ENTITY_TYPES, type LifecycleState, type OperationType } from './enums';

/** The AI Language resource kinds, as error messages and operation names (`Update<Kind>`) spell them. */
export type ResourceKind = 'Project' | 'Model' | 'Endpoint';

/** How work requests and URIs name each kind. */
const NAMES = {
  Project: {
    entityType: ENTITY_TYPES.project,
    collection: 'projects',
    operations: { CREATED: 'CREATE_PROJECT', UPDATED: 'UPDATE_PROJECT', DELETED: 'DELETE_PROJECT' },
  },
  Model: {
    entityType: ENTITY_TYPES.model,
    collection: 'models',
    operations: { CREATED: 'CREATE_MODEL', UPDATED: 'UPDATE_MODEL', DELETED: 'DELETE_MODEL' },
  },
  Endpoint: {
    entityType: ENTITY_TYPES.endpoint,
    collection: 'endpoints',
    operations: { CREATED: 'CREATE_ENDPOINT', UPDATED: 'UPDATE_ENDPOINT', DELETED: 'DELETE_ENDPOINT' },
  },
} as const satisfies Record<
  ResourceKind,
  { entityType: string; collection: Parameters<typeof entityUri>[0]; operations: Record<FinalAction, OperationType> }
>;

/** Children that keep a parent from being deleted: the `where` rows of `repository`, named `what` in the error. */
export type Children = Array<{
  what: string;
  repository: Repository<{ lifecycleState: string }>;
  where: Record<string, ColumnValue>;
}>;

/** How a create or update ends: ACTIVE when its work request finishes (tagged with it, so cancelling it drops the change). */
export function activeWhenDone(work: StartedWorkRequest): Transition {
  return {
    at: work.finishesAt,
    set: { lifecycleState: 'ACTIVE', timeUpdated: rfc3339(work.finishesAt) },
    workRequestId: work.id,
  };
}

/**
 * The lifecycle operations projects, models and endpoints share: update and delete run as work
 * requests (UPDATING → ACTIVE, DELETING → DELETED → gone), a compartment move is immediate. Each
 * service keeps its own rules: what else an update changes and which children block a delete.
 */
export class LifecycleOperations<T extends ResourceBody> {
  private readonly names: (typeof NAMES)[ResourceKind];

  constructor(
    private readonly c: AiLanguageDependencies,
    readonly kind: ResourceKind,
    private readonly repository: Repository<T>,
  ) {
    this.names = NAMES[kind];
  }

  /** The resource in the request's region, or 404. */
  find(ctx: RequestContext, id: string): Entity<T> {
    const entity = this.repository.find(id, ctx.region);
    if (!entity) throw errors.notAuthorizedOrNotFound(`${this.kind.toLowerCase()} ${id}`);
    return entity;
  }

  /** Starts the kind's CREATE_*, UPDATE_* or DELETE_* work request on resource `id`. */
  startWork(
    ctx: RequestContext,
    action: FinalAction,
    id: string,
    compartmentId: string,
    options: Pick<StartWorkRequest, 'failure' | 'durationMs'> = {},
  ): StartedWorkRequest {
    return this.c.workRequests.start({
      region: ctx.region,
      operationType: this.names.operations[action],
      compartmentId,
      resources: [
        { entityType: this.names.entityType, identifier: id, entityUri: entityUri(this.names.collection, id), action },
      ],
      ...options,
    });
  }

  /**
   * Applies `details` and what `changes` returns for the kind, then goes UPDATING → ACTIVE.
   * `changes` runs once the resource may change and before the work request starts, so the
   * kind's own checks refuse a request without leaving a work request behind.
   */
  update(
    ctx: RequestContext,
    id: string,
    details: UpdateResourceDetails,
    ifMatch: string | undefined,
    changes: (body: T) => Partial<T> = () => ({}),
  ): { workRequestId: string } {
    const entity = this.find(ctx, id);
    assertIfMatch(ifMatch, entity.body);
    assertChangeable(this.kind, entity.body, `Update${this.kind}`);
    const own = changes(entity.body);
    const now = this.c.clock.now();
    const work = this.startWork(ctx, 'UPDATED', id, entity.body.compartmentId);
    this.repository.save({
      ...entity,
      body: compact({
        ...entity.body,
        ...own,
        displayName: details.displayName ?? entity.body.displayName,
        description: details.description ?? entity.body.description,
        freeformTags: details.freeformTags ?? entity.body.freeformTags,
        definedTags: details.definedTags ?? entity.body.definedTags,
        lifecycleState: 'UPDATING' as const,
        timeUpdated: rfc3339(now),
      }),
      transitions: [...entity.transitions, activeWhenDone(work)],
    });
    return { workRequestId: work.id };
  }

  /** DELETING → DELETED (readable for the retention period) → gone. A FAILED resource can be deleted. */
  delete(
    ctx: RequestContext,
    id: string,
    ifMatch: string | undefined,
    children: Children = [],
  ): { workRequestId?: string } {
    const entity = this.find(ctx, id);
    assertIfMatch(ifMatch, entity.body);
    if (deleteIsNoOp(entity.body.lifecycleState)) return {};
    assertChangeable(this.kind, entity.body, `Delete${this.kind}`, { allowFailed: true });
    assertNoLiveChildren(`${this.kind} ${id}`, children);
    const now = this.c.clock.now();
    const work = this.startWork(ctx, 'DELETED', id, entity.body.compartmentId);
    this.repository.save({
      ...entity,
      body: { ...entity.body, lifecycleState: 'DELETING' as const, timeUpdated: rfc3339(now) },
      transitions: deletionTransitions(now, this.c.settings, work.id),
    });
    return { workRequestId: work.id };
  }

  /**
   * Immediate, with no work request: the API gives compartment moves no `OperationType`, so there
   * is nothing to track and the resource stays ACTIVE.
   */
  changeCompartment(ctx: RequestContext, id: string, compartmentId: string, ifMatch?: string): void {
    const entity = this.find(ctx, id);
    assertIfMatch(ifMatch, entity.body);
    assertChangeable(this.kind, entity.body, `Change${this.kind}Compartment`);
    if (entity.body.compartmentId === compartmentId) return;
    this.repository.save({
      ...entity,
      body: { ...entity.body, compartmentId, timeUpdated: rfc3339(this.c.clock.now()) },
    });
  }
}

/**
 * Refuses to change a resource whose lifecycle state does not allow it, by the lifecycle policy
 * of every resource (services/common/lifecycle-policy.ts): ACTIVE (and FAILED when
 * `allowFailed`, so a failed resource can be deleted) may change; CREATING and UPDATING answer
 * 409 IncorrectState (they end by themselves); DELETING and FAILED 409 Conflict (they never
 * become ACTIVE), and so does DELETED (a delete of it is a no-op instead, see deleteIsNoOp).
 */
function assertChangeable(
  kind: ResourceKind,
  body: { id: string; lifecycleState: LifecycleState },
  operation: string,
  options: { allowFailed?: boolean } = {},
): void {
  const state = body.lifecycleState;
  if (state === 'ACTIVE' || (state === 'FAILED' && options.allowFailed)) return;
  throw lifecycleRefusal(
    state,
    isTransient(state)
      ? `${kind} ${body.id} is ${state}; ${operation} is possible once it is ACTIVE.`
      : state === 'FAILED'
        ? `${kind} ${body.id} is FAILED; ${operation} is not possible. Delete it and create a new one.`
        : `${kind} ${body.id} is ${state}; ${operation} is not possible.`,
  );
}

/**
 * Refuses to delete a parent while children remain: 409 Conflict while any child is not being
 * deleted (it needs the caller to act), 409 IncorrectState while the only remaining children
 * are DELETING (they end DELETED by themselves and the SDKs retry IncorrectState). DELETED
 * children do not count, as the API documentation says.
 */
function assertNoLiveChildren(parent: string, children: Children): void {
  for (const { what, repository, where } of children) {
    const all = repository.count(where);
    const deleted = repository.count({ ...where, lifecycleState: 'DELETED' });
    const deleting = repository.count({ ...where, lifecycleState: 'DELETING' });
    const live = all - deleted - deleting;
    if (live > 0) {
      throw errors.conflict(
        `${parent} still has ${live} ${what} that ${live === 1 ? 'is' : 'are'} not DELETED; delete ${live === 1 ? 'it' : 'them'} first.`,
      );
    }
    if (deleting > 0) {
      throw errors.incorrectState(
        `${parent} still has ${deleting} ${what} being deleted; retry once ${deleting === 1 ? 'it is' : 'they are'} DELETED.`,
      );
    }
  }
}
