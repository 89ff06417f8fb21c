/**
 * The emulator's only source of time. Lifecycle states are derived from stored timestamps and
 * this clock when a resource is read, so tests and the admin API can move time forward instead
 * of sleeping, and nothing depends on timers.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

/** The latest time a JavaScript Date (and so an RFC 3339 time here) can hold: +275760-09-13. */
const LATEST_MS = 8.64e15;

/** Wall-clock time plus an adjustable offset (moved by `POST /_ocikit/clock`). */
export class AdjustableClock implements Clock {
  private readonly listeners = new Set<(offsetMs: number) => void>();

  /** `offsetMs`: how far ahead of the wall clock it starts (a data directory's saved offset). */
  constructor(private offsetMs = 0) {}

  now(): number {
    return Date.now() + this.offsetMs;
  }

  advance(ms: number): void {
    if (ms < 0) throw new RangeError('time only moves forward');
    if (!(this.now() + ms <= LATEST_MS)) throw new RangeError(`time cannot pass ${rfc3339(LATEST_MS)}`);
    this.offsetMs += ms;
    for (const listener of this.listeners) listener(this.offsetMs);
  }

  /** Calls `listener` with the new offset after every advance, until the returned function is called. */
  onAdvance(listener: (offsetMs: number) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** RFC 3339 with milliseconds, as OCI serialises times (`2026-11-22T02:19:32.123Z`). */
export const rfc3339 = (ms: number): string => new Date(ms).toISOString();
