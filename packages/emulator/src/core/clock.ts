/**
 * The emulator's only source of time. Lifecycle states are derived from stored timestamps and
 * this clock when a resource is read, so tests and the admin API can move time forward instead
 * of sleeping, and nothing depends on timers.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

/** Wall-clock time plus an adjustable offset (moved by `POST /_ocikit/clock`). */
export class AdjustableClock implements Clock {
  private offsetMs = 0;

  now(): number {
    return Date.now() + this.offsetMs;
  }

  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('time only moves forward');
    this.offsetMs += ms;
  }
}

/** RFC 3339 with milliseconds, as OCI serialises times (`2026-11-22T02:19:32.123Z`). */
export const rfc3339 = (ms: number): string => new Date(ms).toISOString();
