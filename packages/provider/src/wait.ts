// The one waiter: polls quickly at first and backs off in proportion to the time already waited
// (so completion is noticed within ~6% + 50 ms of when it happens), honours retry-after, stops
// at the deadline and at once on cancel, and reports progress when it changes.

export interface Poll<T> {
  done: boolean;
  value?: T;
  /** Human progress, e.g. "work request IN_PROGRESS 40%"; sent to the engine log when it changes. */
  progress?: string;
  /** The service asked us to wait at least this long (retry-after). */
  retryAfterMs?: number;
}

export interface WaitOptions<T> {
  /** What is being waited for, for messages: `DrPlan "x" to become ACTIVE`. */
  what: string;
  poll: () => Promise<Poll<T>>;
  timeoutMs: number;
  signal: AbortSignal;
  onProgress?: (message: string) => void;
}

export class WaitTimeoutError extends Error {}
export class CancelledError extends Error {
  constructor(what: string) {
    super(`cancelled while waiting for ${what}`);
  }
}

const FIRST_DELAY_MS = 50;
const MAX_DELAY_MS = 10_000;
/** Delay before the next poll after `elapsedMs` of waiting. */
export function nextDelay(elapsedMs: number): number {
  return Math.min(MAX_DELAY_MS, FIRST_DELAY_MS + Math.round(elapsedMs * 0.06));
}

export async function waitFor<T>(o: WaitOptions<T>): Promise<T> {
  const start = Date.now();
  let lastProgress: string | undefined;
  for (;;) {
    if (o.signal.aborted) throw new CancelledError(o.what);
    const r = await o.poll();
    if (r.done) return r.value as T;
    if (r.progress && r.progress !== lastProgress) {
      lastProgress = r.progress;
      o.onProgress?.(r.progress);
    }
    const elapsed = Date.now() - start;
    const left = o.timeoutMs - elapsed;
    if (left <= 0) {
      throw new WaitTimeoutError(
        `timed out after ${formatDuration(o.timeoutMs)} waiting for ${o.what}${lastProgress ? ` (last: ${lastProgress})` : ''}; raise customTimeouts to wait longer`,
      );
    }
    await sleep(Math.min(left, Math.max(nextDelay(elapsed), r.retryAfterMs ?? 0)), o.signal, o.what);
  }
}

function formatDuration(ms: number): string {
  if (ms >= 60_000) return `${Math.round(ms / 60_000)} min`;
  return ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`;
}

function sleep(ms: number, signal: AbortSignal, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new CancelledError(what));
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new CancelledError(what));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
