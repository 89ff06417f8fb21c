import { AsyncLocalStorage } from 'node:async_hooks';
import { rfc3339, type Clock } from '../../core/clock';
import { errors } from '../../core/errors';
import { assertIfMatch } from '../../core/etag';
import { newOcid } from '../../core/ids';
import type { Entity, Transition } from '../../core/lifecycle';
import { Repository } from '../../core/repository';
import { isVisible } from '../../core/tenancy-scope';
import { paginate, paginateBackwards, paginateQuery, parsePage, type Page } from '../../http/pagination';
import { listColumn, type Store } from '../../store/store';

export type WorkRequestStatus = 'ACCEPTED' | 'IN_PROGRESS' | 'SUCCEEDED' | 'FAILED' | 'CANCELING' | 'CANCELED';
export type FinalAction = 'CREATED' | 'UPDATED' | 'DELETED';

export interface WorkRequestResource {
  entityType: string;
  actionType: string;
  identifier: string;
  entityUri?: string;
}

/** OCI's WorkRequest, the same shape in both services. */
export interface WorkRequestBody {
  id: string;
  operationType: string;
  status: WorkRequestStatus;
  compartmentId: string;
  resources: WorkRequestResource[];
  percentComplete: number;
  timeAccepted: string;
  timeStarted?: string;
  timeFinished?: string;
}

/** A change to undo on another entity when its work request is cancelled before it finishes. */
export interface CancelPatch {
  kind: string;
  id: string;
  set?: Record<string, unknown>;
  unset?: string[];
}

interface WorkRequestInternal extends Record<string, unknown> {
  failure?: { code: string; message: string };
  onCancel?: CancelPatch[];
  resultActions: FinalAction[];
}

export interface StartWorkRequest {
  region: string;
  operationType: string;
  compartmentId: string;
  resources: Array<{ entityType: string; identifier: string; entityUri?: string; action: FinalAction }>;
  /** Makes the work request end FAILED with this error (the resources still name their action). */
  failure?: { code: string; message: string };
  onCancel?: CancelPatch[];
  /** Overrides the emulator's transition delay (e.g. model training time). */
  durationMs?: number;
}

export interface StartedWorkRequest {
  id: string;
  /** When the work ends: resources should schedule their own transitions at this time. */
  finishesAt: number;
}

interface FailureScope {
  failure: { code: string; message: string };
  started: Array<{ workRequests: WorkRequests; id: string; identifiers: string[]; finishesAt: number }>;
}

const failureScope = new AsyncLocalStorage<FailureScope>();

/**
 * Runs one service call (synchronous) so that every work request it starts ends FAILED with
 * `failure`, and the resources those work requests create or change end FAILED instead of their
 * scheduled outcome: the `fail-work-request` fault, one mechanism for every operation of both
 * services rather than code in each handler.
 */
export function withWorkRequestFailure<T>(failure: { code: string; message: string }, call: () => T): T {
  const scope: FailureScope = { failure, started: [] };
  const result = failureScope.run(scope, call);
  for (const started of scope.started) started.workRequests.failResources(started);
  return result;
}

/**
 * Work requests of one service: ACCEPTED → IN_PROGRESS (half-way) → SUCCEEDED or FAILED, with
 * `timeFinished` set at the end (the SDK waiter and Terraform poll until it is), derived from the
 * clock like every other lifecycle. Resources show IN_PROGRESS until the work ends and then
 * their action (CREATED/UPDATED/DELETED), also when it failed, because Terraform reads them.
 */
export class WorkRequests {
  readonly repository: Repository<WorkRequestBody>;
  private readonly repositoriesByKind = new Map<string, Repository<object>>();

  constructor(
    store: Store,
    private readonly clock: Clock,
    private readonly options: {
      table: string;
      ocidType: string;
      transitionDelayMs: number;
      /** The resources' details field: Disaster Recovery spells it lifeCycleDetails, AI Language lifecycleDetails. */
      detailsField: 'lifeCycleDetails' | 'lifecycleDetails';
    },
  ) {
    this.repository = new Repository<WorkRequestBody>(
      store,
      {
        name: options.table,
        columns: {
          compartmentId: { type: 'TEXT', value: (e) => e.body.compartmentId },
          status: { type: 'TEXT', value: (e) => e.body.status },
          timeAccepted: { type: 'TEXT', value: (e) => e.body.timeAccepted },
          // Every resource the work request touches (associating a pair touches both groups).
          resourceIds: {
            type: 'TEXT',
            value: (e) => listColumn(e.body.resources.map((r: WorkRequestResource) => r.identifier)),
          },
        },
      },
      clock,
    );
  }

  /** Lets cancellation undo changes on entities of this kind. */
  registerKind(repository: Repository<object>): void {
    this.repositoriesByKind.set(repository.kind.name, repository);
  }

  start(request: StartWorkRequest): StartedWorkRequest {
    const scope = failureScope.getStore();
    if (scope && !request.failure) request = { ...request, failure: scope.failure };
    const now = this.clock.now();
    const duration = request.durationMs ?? this.options.transitionDelayMs;
    const startedAt = now + Math.floor(duration / 2);
    const finishesAt = now + duration;
    const id = newOcid(this.options.ocidType, request.region);
    const resources = (action: (r: StartWorkRequest['resources'][number]) => string) =>
      request.resources.map((r) => ({
        entityType: r.entityType,
        actionType: action(r),
        identifier: r.identifier,
        ...(r.entityUri ? { entityUri: r.entityUri } : {}),
      }));
    const internal: WorkRequestInternal = { resultActions: request.resources.map((r) => r.action) };
    if (request.failure) internal.failure = request.failure;
    if (request.onCancel) internal.onCancel = request.onCancel;
    this.repository.save({
      id,
      region: request.region,
      body: {
        id,
        operationType: request.operationType,
        status: 'ACCEPTED',
        compartmentId: request.compartmentId,
        resources: resources(() => 'IN_PROGRESS'),
        percentComplete: 0,
        timeAccepted: rfc3339(now),
      },
      internal,
      transitions: [
        { at: startedAt, set: { status: 'IN_PROGRESS', timeStarted: rfc3339(startedAt), percentComplete: 50 } },
        {
          at: finishesAt,
          set: {
            status: request.failure ? 'FAILED' : 'SUCCEEDED',
            percentComplete: 100,
            timeFinished: rfc3339(finishesAt),
            resources: resources((r) => r.action),
          },
        },
      ],
    });
    scope?.started.push({
      workRequests: this,
      id,
      identifiers: request.resources.map((r) => r.identifier),
      finishesAt,
    });
    return { id, finishesAt };
  }

  /**
   * Makes the resources of a failing work request end FAILED when it ends: their scheduled
   * changes from then on (ACTIVE, DELETED, purge) are replaced by FAILED with the failure's message.
   */
  failResources(started: { id: string; identifiers: string[]; finishesAt: number }): void {
    const failure = (this.repository.find(started.id)?.internal as WorkRequestInternal | undefined)?.failure;
    if (!failure) return;
    for (const identifier of started.identifiers) {
      for (const repository of this.repositoriesByKind.values()) {
        const target = repository.find(identifier);
        if (!target) continue;
        const details = this.options.detailsField;
        const before = target.transitions.filter((t) => t.at < started.finishesAt);
        const failed: Transition = {
          at: started.finishesAt,
          set: { lifecycleState: 'FAILED', [details]: failure.message, timeUpdated: rfc3339(started.finishesAt) },
        };
        repository.save({ ...target, transitions: [...before, failed] });
      }
    }
  }

  /**
   * DR's GetWorkRequest `retry-after` (decimal seconds) for unfinished work: the time until it is
   * due to finish, between 0.1 and 1 s, so it never asks a client that honours it (ocikit's plugin
   * does) to wait more than a second, nor past the finish (also when a test moves the clock).
   */
  retryAfterSeconds(entity: Entity<WorkRequestBody>): number | undefined {
    if (entity.body.timeFinished) return undefined;
    const finishesAt = Math.max(...entity.transitions.map((t) => t.at), this.clock.now());
    return Math.min(1, Math.max(0.1, Math.ceil((finishesAt - this.clock.now()) / 100) / 10));
  }

  get(id: string, region: string): Entity<WorkRequestBody> {
    const entity = this.repository.find(id, region);
    if (!entity) throw errors.notAuthorizedOrNotFound(`work request ${id}`);
    return entity;
  }

  list(
    region: string,
    filters: {
      compartmentId?: string;
      workRequestId?: string;
      status?: string;
      resourceId?: string;
      sortOrder?: 'ASC' | 'DESC';
    },
    page: Page,
  ) {
    const where: Record<string, string> = { region };
    if (filters.compartmentId) where.compartmentId = filters.compartmentId;
    if (filters.workRequestId) where.id = filters.workRequestId;
    if (filters.status) where.status = filters.status;
    const includes = filters.resourceId ? { resourceIds: filters.resourceId } : undefined;
    // Only the caller's tenancy's work requests (DR's compartmentId is optional, so the query alone
    // does not scope it): rows of others are skipped, reading on until the page is full.
    return paginateQuery(page, [{ column: 'timeAccepted', direction: filters.sortOrder ?? 'DESC' }], (query) => {
      const visible: WorkRequestBody[] = [];
      let after = query.after;
      for (;;) {
        const rows = this.repository.list({ where, includes, ...query, ...(after ? { after } : {}) });
        for (const row of rows) if (isVisible(row.body)) visible.push(row.body);
        const last = rows[rows.length - 1];
        if (!last || rows.length < (query.limit ?? Infinity) || visible.length >= (query.limit ?? Infinity))
          return visible.slice(0, query.limit);
        after = { values: [last.body.timeAccepted], id: last.id };
      }
    });
  }

  /** Errors are visible once the work request has failed. */
  errors(id: string, region: string): Array<{ code: string; message: string; timestamp: string }> {
    const entity = this.get(id, region);
    const failure = (entity.internal as WorkRequestInternal | undefined)?.failure;
    if (entity.body.status !== 'FAILED' || !failure) return [];
    return [{ ...failure, timestamp: entity.body.timeFinished! }];
  }

  /** Logs follow the work request's progress so far. */
  logs(id: string, region: string): Array<{ message: string; timestamp: string }> {
    const wr = this.get(id, region).body;
    const subject = `${wr.operationType} for ${wr.resources.map((r) => r.identifier).join(', ')}`;
    const logs = [{ message: `Accepted ${subject}.`, timestamp: wr.timeAccepted }];
    if (wr.timeStarted) logs.push({ message: `Started ${subject}.`, timestamp: wr.timeStarted });
    if (wr.timeFinished) {
      const ending =
        { SUCCEEDED: 'Succeeded', FAILED: 'Failed', CANCELED: 'Canceled' }[wr.status as 'SUCCEEDED'] ?? wr.status;
      logs.push({ message: `${ending}: ${subject}.`, timestamp: wr.timeFinished });
    }
    return logs;
  }

  /**
   * Cancels unfinished work: the work request ends CANCELED, the scheduled changes it would
   * have made are dropped and the registered undo patches applied. Finished work cannot be
   * cancelled (409 Conflict, which no client retries).
   */
  cancel(id: string, region: string, ifMatch: string | undefined): void {
    const entity = this.get(id, region);
    assertIfMatch(ifMatch, entity.body);
    if (entity.body.timeFinished) {
      throw errors.conflict(
        `Work request ${id} has already finished with status ${entity.body.status} and cannot be canceled.`,
      );
    }
    const now = rfc3339(this.clock.now());
    const internal = (entity.internal ?? {}) as WorkRequestInternal;
    this.repository.save({
      ...entity,
      body: {
        ...entity.body,
        status: 'CANCELED',
        timeFinished: now,
        // No timeStarted for work cancelled while ACCEPTED: OCI's is the ACCEPTED → IN_PROGRESS
        // transition (oci-go-sdk workrequests/work_request.go), which it never made.
        resources: entity.body.resources.map((r) => ({ ...r, actionType: 'RELATED' })),
      },
      transitions: [],
    });
    for (const patch of internal.onCancel ?? []) {
      const repository = this.repositoriesByKind.get(patch.kind);
      const target = repository?.find(patch.id);
      if (!repository || !target) continue;
      const body = { ...target.body, ...patch.set };
      for (const key of patch.unset ?? []) delete body[key];
      repository.save({ ...target, body, transitions: target.transitions.filter((t) => t.workRequestId !== id) });
    }
  }
}

/** What a create answers: the new resource (still CREATING) and the work request creating it. */
export interface Started<T> {
  resource: T;
  workRequestId: string;
}

/**
 * The undo patch that puts `before`'s fields back on an entity that a work request changed into
 * `after`, for WorkRequests.cancel.
 */
export function revertPatch(kind: string, before: { id: string }, after: object): CancelPatch {
  const b = before as Record<string, unknown>;
  const a = after as Record<string, unknown>;
  const set: Record<string, unknown> = {};
  const unset: string[] = [];
  for (const key of new Set([...Object.keys(b), ...Object.keys(a)])) {
    if (b[key] === undefined) {
      if (a[key] !== undefined) unset.push(key);
    } else if (JSON.stringify(a[key]) !== JSON.stringify(b[key])) {
      set[key] = b[key];
    }
  }
  return { kind, id: before.id, set, unset };
}

/** Tags a scheduled change with the work request it belongs to, so cancelling that drops it. */
export const partOf = (workRequestId: string, transitions: Transition[]): Transition[] =>
  transitions.map((t) => ({ ...t, workRequestId }));

/**
 * One page of a work request's errors or logs, by timestamp: `defaultOrder` unless the query's
 * `sortOrder` says otherwise. The APIs' defaults follow their sort keys (Disaster Recovery's
 * timeAccepted newest first; AI Language's timeCreated newest first, displayName ascending), so
 * each passes its own; the paging is this one. A running work request's entries only grow at
 * the newest end, so newest first pages backwards from a position counted from the oldest:
 * an entry logged between two pages does not make one repeat.
 */
export function entriesPage<T extends { timestamp: string }>(
  entries: T[],
  query: { limit?: number; page?: string; sortOrder?: 'ASC' | 'DESC' },
  defaultOrder: 'ASC' | 'DESC',
) {
  const oldestFirst = [...entries].sort((a, b) => a.timestamp.localeCompare(b.timestamp));
  const page = parsePage(query);
  if ((query.sortOrder ?? defaultOrder) === 'DESC') return paginateBackwards(page, oldestFirst);
  return paginate(page, (limit, offset) => oldestFirst.slice(offset, offset + limit));
}
