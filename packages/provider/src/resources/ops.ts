// Shared steps of the resource modules: the work-request wait and lifecycle waits, both on the one waiter.
import { randomUUID } from 'node:crypto';
import { call, isNotFound } from '../errors';
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
