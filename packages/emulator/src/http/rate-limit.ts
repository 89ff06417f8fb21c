import { errors } from '../core/errors';

/**
 * Per-tenancy throttling, as OCI applies it: a token bucket of `requestsPerSecond` tokens a
 * second with a burst of the same size (at least one request, so that a limit under 1, such as
 * 0.5, lets one request through every 2 s); a request that finds the bucket empty is 429
 * TooManyRequests (which the SDKs retry with backoff). Off unless `--rate-limit` is given.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();
  private readonly burst: number;

  constructor(
    private readonly requestsPerSecond: number,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.burst = Math.max(1, requestsPerSecond);
  }

  take(tenancyId: string): void {
    const now = this.now();
    const bucket = this.buckets.get(tenancyId) ?? { tokens: this.burst, at: now };
    bucket.tokens = Math.min(this.burst, bucket.tokens + ((now - bucket.at) / 1000) * this.requestsPerSecond);
    bucket.at = now;
    this.buckets.set(tenancyId, bucket);
    if (bucket.tokens < 1) {
      throw errors.tooManyRequests(
        `Too many requests for tenancy ${tenancyId}: the limit is ${this.requestsPerSecond} requests per second.`,
      );
    }
    bucket.tokens -= 1;
  }
}
