// Shared steps of the resource modules: the work-request wait and lifecycle waits, both on the one waiter.
import { randomUUID } from 'node:crypto';
import { call, describeError, isNotFound, ProviderError } from '../errors';
import { waitFor, type Poll } from '../wait';
import type { OpContext } from './resource';

export function retryToken(): string {
  // One token per logical operation: the SDK's own retries resend it, so a lost response or an
  // injected 429/503 replays the first result instead of creating a second resource.
  return `ocikit-${randomUUID()}`;
}

interface WorkRequestLike {
  status?: string;
  percentComplete?: number;
  operationType?: string;
}
const WR_DONE = new Set(['SUCCEEDED', 'FAILED', 'CANCELED']);

/** Polls a GET until `isDone(state)`; a 404 answers `undefined` (gone). */
export async function waitLifecycle<T extends { lifecycleState?: string }>(
  ctx: OpContext,
  o: { operation: string; what: string; get: () => Promise<T>; isDone: (r: T | undefined) => boolean },
): Promise<T | undefined> {
  return waitFor<T | undefined>({
    what: `${ctx.subject} ${o.what}`,
    timeoutMs: ctx.timeoutMs,
    signal: ctx.signal,
    onProgress: (m) => ctx.progress(m),
    poll: async () => {
      let r: T | undefined;
      try {
        r = await o.get();
      } catch (e) {
        if (!isNotFound(e)) return call(ctx.subject, o.operation, () => Promise.reject(e));
      }
      return { done: o.isDone(r), value: r, progress: r ? `state ${r.lifecycleState}` : 'gone' };
    },
  });
}

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

/** Delete (404 = already gone), then wait for DELETED or 404. */
export async function deleteAndWait<T extends { lifecycleState?: string }>(
  ctx: OpContext,
  o: { operation: string; getOperation: string; del: () => Promise<unknown>; get: () => Promise<T> },
): Promise<void> {
  try {
    await o.del();
  } catch (e) {
    if (isNotFound(e)) return;
    throw new ProviderError(describeError(ctx.subject, o.operation, e));
  }
  await waitLifecycle(ctx, {
    operation: o.getOperation,
    what: 'to be DELETED',
    get: o.get,
    isDone: (r) => !r || r.lifecycleState === 'DELETED',
  });
}

/**
 * Waits for a work request to end AND for its resource to leave `transient`, polling both in
 * parallel so completion costs one round trip, not two. Fails (with the service's reasons) when
 * the work request did not succeed. Returns the resource (undefined if it is gone).
 */
export async function waitSettled<T extends { lifecycleState?: string }>(
  ctx: OpContext,
  o: { api: WorkRequestApi; operation: string; workRequestId?: string; get: () => Promise<T>; transient: string },
): Promise<T | undefined> {
  const wrId = o.workRequestId;
  let status = wrId ? undefined : 'SUCCEEDED';
  const resource = await waitFor<T | undefined>({
    what: `${ctx.subject} to finish ${o.operation}`,
    timeoutMs: ctx.timeoutMs,
    signal: ctx.signal,
    onProgress: (m) => ctx.progress(m),
    poll: async (): Promise<Poll<T | undefined>> => {
      const [wr, r] = await Promise.all([
        status || !wrId
          ? undefined
          : call(ctx.subject, 'GetWorkRequest', () => o.api.getWorkRequest({ workRequestId: wrId })),
        getOrGone(ctx, o.operation.replace(/^\w+?(?=[A-Z])/, 'Get'), o.get),
      ]);
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
  if (status !== 'SUCCEEDED') {
    let why = '';
    try {
      const r = await o.api.listWorkRequestErrors({ workRequestId: wrId! });
      why = r.workRequestErrorCollection.items.map((x) => x.message).join('; ');
    } catch {
      // the status alone still explains the failure
    }
    throw new ProviderError(
      `${ctx.subject}: ${o.operation} work request ${wrId} ended ${status}${why ? `: ${why}` : ''}`,
    );
  }
  return resource;
}
