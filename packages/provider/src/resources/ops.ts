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

/** Waits for a work request to end; returns its final status. */
export async function waitWorkRequest(
  ctx: OpContext,
  id: string,
  get: (id: string) => Promise<{ workRequest: WorkRequestLike; retryAfter?: number }>,
): Promise<string> {
  return waitFor<string>({
    what: `${ctx.subject}: work request ${id}`,
    timeoutMs: ctx.timeoutMs,
    signal: ctx.signal,
    onProgress: (m) => ctx.progress(m),
    poll: async (): Promise<Poll<string>> => {
      const r = await call(ctx.subject, 'GetWorkRequest', () => get(id));
      const status = r.workRequest.status ?? 'UNKNOWN';
      const pct = r.workRequest.percentComplete;
      return {
        done: WR_DONE.has(status),
        value: status,
        progress: `work request ${status.toLowerCase()}${pct !== undefined ? ` ${Math.round(pct)}%` : ''}`,
        retryAfterMs: r.retryAfter ? r.retryAfter * 1000 : undefined,
      };
    },
  });
}

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

/** Waits for a work request and fails, with the service's reasons, unless it SUCCEEDED. */
export async function waitWorkRequestSucceeded(
  ctx: OpContext,
  api: WorkRequestApi,
  operation: string,
  wrId: string | undefined,
): Promise<void> {
  if (!wrId) return;
  const status = await waitWorkRequest(ctx, wrId, (id) => api.getWorkRequest({ workRequestId: id }));
  if (status === 'SUCCEEDED') return;
  let why = '';
  try {
    const r = await api.listWorkRequestErrors({ workRequestId: wrId });
    why = r.workRequestErrorCollection.items.map((x) => x.message).join('; ');
  } catch {
    // the status alone still explains the failure
  }
  throw new ProviderError(`${ctx.subject}: ${operation} work request ${wrId} ended ${status}${why ? `: ${why}` : ''}`);
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
