// Shared steps of the resource modules: the work-request wait and lifecycle waits, both on the one waiter.
import { createHash, randomUUID } from 'node:crypto';
import { call, describeError, isInvalidatedRetryToken, isNotFound, ProviderError } from '../errors';
import { waitFor, type Poll } from '../wait';
import type { OpContext } from './resource';
import type { Props } from '../wire';

export function retryToken(): string {
  // One token per logical operation: the SDK's own retries resend it, so a lost response or an
  // injected 429/503 replays the first result instead of creating a second resource.
  return `ocikit-${randomUUID()}`;
}

/**
 * The retry token of a create that ocikit's engine keyed (`OpContext.createKey`): derived from the
 * key, the URN and the inputs. The engine gives each create a key of its own and records it with
 * the pending create, so an engine killed after it sent a create but before it recorded the new id
 * sends the same create with the same key on its next run: OCI replays the first answer (for 24
 * hours), and the resource is adopted, not created twice. A replacement, or the same program in
 * another stack folder, is another create with another key, and so a new resource. Without a key
 * (the Pulumi CLI, which leaves an interrupted create to the user) each create has a token of its own.
 */
export function createRetryToken(urn: string, inputs: Props, createKey: string): string {
  const hash = createHash('sha256').update(createKey).update('\0').update(urn).update('\0');
  return `ocikit-${hash.update(canonicalJson(inputs)).digest('hex').slice(0, 40)}`;
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .filter((k) => (value as Props)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Props)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value ?? null);
}

const GONE = new Set(['DELETING', 'DELETED']);

/**
 * Sends a create with its retry token (see createRetryToken) and waits for the resource to
 * settle; when the token's create made a resource that is gone since, creates again with a fresh
 * token. OCI answers such a token 409 InvalidatedRetryToken ("an entity created with the same
 * token has since been deleted"); a replay whose resource is gone by the time it settles is the
 * same case.
 */
export async function createIdempotently<T extends { lifecycleState?: string }>(
  ctx: OpContext,
  inputs: Props,
  o: {
    send: (opcRetryToken: string) => Promise<{ id: string; workRequestId?: string }>;
    settle: (id: string, workRequestId: string | undefined) => Promise<T | undefined>;
    onCreated: (id: string) => void;
  },
): Promise<T | undefined> {
  const createWith = async (opcRetryToken: string) => {
    const sent = await o.send(opcRetryToken);
    o.onCreated(sent.id);
    return o.settle(sent.id, sent.workRequestId);
  };
  let settled: T | undefined;
  try {
    settled = await createWith(ctx.createKey ? createRetryToken(ctx.urn, inputs, ctx.createKey) : retryToken());
  } catch (e) {
    if (!ctx.createKey || !isInvalidatedRetryToken(e)) throw e;
    ctx.progress('the retry token of the first create was refused (409 InvalidatedRetryToken): creating anew');
  }
  if (!settled || GONE.has(settled.lifecycleState ?? '')) settled = await createWith(retryToken());
  return settled;
}

interface WorkRequestLike {
  status?: string;
  percentComplete?: number;
  operationType?: string;
}
const WR_DONE = new Set(['SUCCEEDED', 'FAILED', 'CANCELED']);

/** The two services' work-request operations, as their SDK clients name them. */
export interface WorkRequestApi {
  getWorkRequest(r: { workRequestId: string }): Promise<{ workRequest: WorkRequestLike; retryAfter?: number }>;
  listWorkRequestErrors(r: {
    workRequestId: string;
  }): Promise<{ workRequestErrorCollection: { items: Array<{ message: string }> } }>;
}

/** GET that answers undefined on 404 and names the operation otherwise. */
export async function getOrGone<T>(ctx: OpContext, operation: string, get: () => Promise<T>): Promise<T | undefined> {
  try {
    return await get();
  } catch (e) {
    if (isNotFound(e)) return undefined;
    throw new ProviderError(describeError(ctx.subject, operation, e));
  }
}

/** How the shared steps reach one resource kind: its GET and its service's work requests. */
export interface ResourceAccess<T extends { lifecycleState?: string }> {
  /** The GET's operation name, for messages (`GetDrPlan`). */
  getOperation: string;
  workRequests(ctx: OpContext): WorkRequestApi;
  /** The raw GET (rejects on 404). */
  get(ctx: OpContext, id: string): Promise<T>;
  /**
   * The latest delete work request of a resource whose delete answers without one (DeleteDrPlan:
   * OCI's API returns no opc-work-request-id), found through ListWorkRequests.
   */
  deleteWorkRequest?(ctx: OpContext, resource: T, id: string): Promise<string | undefined>;
}

/** The resource, or undefined when it is gone (404). */
export function readResource<T extends { lifecycleState?: string }>(
  ctx: OpContext,
  access: ResourceAccess<T>,
  id: string,
): Promise<T | undefined> {
  return getOrGone(ctx, access.getOperation, () => access.get(ctx, id));
}

/** Waits for the operation's work request and for the resource to leave `transient`. */
export function settle<T extends { lifecycleState?: string }>(
  ctx: OpContext,
  access: ResourceAccess<T>,
  o: {
    operation: string;
    workRequestId: string | undefined;
    id: string;
    transient: string;
    /** States that prove the operation succeeded (see waitSettled). */
    ready?: (r: T) => boolean;
  },
): Promise<T | undefined> {
  return waitSettled(ctx, {
    ready: o.ready,
    api: access.workRequests(ctx),
    operation: o.operation,
    getOperation: access.getOperation,
    workRequestId: o.workRequestId,
    transient: o.transient,
    get: () => access.get(ctx, o.id),
  });
}

/**
 * Delete (404 = already gone), then wait for DELETED or 404. While the resource shows DELETING
 * (or nothing yet) one GET per poll suffices; when it shows another state (ACTIVE, FAILED, …)
 * the delete's work request says whether it is still to start or has failed, so a failed delete
 * ends with the service's reasons instead of waiting for DELETED until the timeout.
 */
export async function deleteAndWait<T extends { lifecycleState?: string }>(
  ctx: OpContext,
  access: ResourceAccess<T>,
  o: { operation: string; id: string; del: () => Promise<{ opcWorkRequestId?: string } | unknown> },
): Promise<void> {
  let wrId: string | undefined;
  try {
    wrId = ((await o.del()) as { opcWorkRequestId?: string } | undefined)?.opcWorkRequestId;
  } catch (e) {
    if (isNotFound(e)) return;
    throw new ProviderError(describeError(ctx.subject, o.operation, e));
  }
  const api = access.workRequests(ctx);
  await waitFor<undefined>({
    what: `${ctx.subject} to be DELETED`,
    timeoutMs: ctx.timeoutMs,
    signal: ctx.signal,
    onProgress: (m) => ctx.progress(m),
    poll: async () => {
      const r = await getOrGone(ctx, access.getOperation, () => access.get(ctx, o.id));
      if (!r || r.lifecycleState === 'DELETED') return { done: true, value: undefined };
      if (r.lifecycleState !== 'DELETING') wrId ??= await access.deleteWorkRequest?.(ctx, r, o.id);
      if (r.lifecycleState !== 'DELETING' && wrId) {
        const id = wrId;
        const wr = await call(ctx.subject, 'GetWorkRequest', () => api.getWorkRequest({ workRequestId: id }));
        const status = wr.workRequest.status ?? '';
        if (status === 'FAILED' || status === 'CANCELED')
          throw await workRequestFailed(ctx, api, o.operation, id, status);
      }
      return { done: false, value: undefined, progress: `state ${r.lifecycleState}` };
    },
  });
}

/** The error of a work request that ended FAILED or CANCELED, with the service's reasons. */
async function workRequestFailed(
  ctx: OpContext,
  api: WorkRequestApi,
  operation: string,
  wrId: string,
  status: string | undefined,
): Promise<ProviderError> {
  let why = '';
  try {
    const r = await api.listWorkRequestErrors({ workRequestId: wrId });
    why = r.workRequestErrorCollection.items
      .map((x) => x.message.trim())
      .filter(Boolean)
      .join('; ');
  } catch {
    // the status alone still explains the failure
  }
  return new ProviderError(`${ctx.subject}: ${operation} work request ${wrId} ended ${status}${why ? `: ${why}` : ''}`);
}

/**
 * Waits for a work request to end AND for its resource to leave `transient`, polling both in
 * parallel so completion costs one round trip, not two. Fails (with the service's reasons) when
 * the work request did not succeed. Returns the resource (undefined if it is gone).
 * With `ready`, the first poll reads the resource alone: a resource in a state only the
 * operation's success leads to (a created plan that is ACTIVE) proves the work request succeeded,
 * so a create that is already done costs one GET, as the SDK's waiter would after its own
 * work-request wait; otherwise every poll reads both.
 */
export async function waitSettled<T extends { lifecycleState?: string }>(
  ctx: OpContext,
  o: {
    api: WorkRequestApi;
    operation: string;
    getOperation: string;
    workRequestId?: string;
    get: () => Promise<T>;
    transient: string;
    ready?: (r: T) => boolean;
  },
): Promise<T | undefined> {
  const wrId = o.workRequestId;
  let status = wrId ? undefined : 'SUCCEEDED';
  let resourceOnly = !!o.ready;
  const resource = await waitFor<T | undefined>({
    what: `${ctx.subject} to finish ${o.operation}`,
    timeoutMs: ctx.timeoutMs,
    signal: ctx.signal,
    onProgress: (m) => ctx.progress(m),
    poll: async (): Promise<Poll<T | undefined>> => {
      const [wr, r] = await Promise.all([
        status || !wrId || resourceOnly
          ? undefined
          : call(ctx.subject, 'GetWorkRequest', () => o.api.getWorkRequest({ workRequestId: wrId })),
        getOrGone(ctx, o.getOperation, o.get),
      ]);
      if (resourceOnly && r && o.ready!(r)) status = 'SUCCEEDED';
      resourceOnly = false;
      if (wr && WR_DONE.has(wr.workRequest.status ?? '')) status = wr.workRequest.status;
      const pct = wr?.workRequest.percentComplete;
      return {
        done: !!status && (!r || r.lifecycleState !== o.transient),
        value: r,
        progress: wr
          ? `work request ${(wr.workRequest.status ?? '').toLowerCase()}${pct !== undefined ? ` ${Math.round(pct)}%` : ''}`
          : r
            ? `state ${r.lifecycleState}`
            : undefined,
        retryAfterMs: wr?.retryAfter ? wr.retryAfter * 1000 : undefined,
      };
    },
  });
  if (status !== 'SUCCEEDED') throw await workRequestFailed(ctx, o.api, o.operation, wrId!, status);
  return resource;
}
