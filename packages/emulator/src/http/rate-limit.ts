import { errors } from '../core/errors';

/**
 * Per-tenancy throttling, as OCI applies it: a token bucket of `requestsPerSecond` tokens a
 * second with a burst of the same size; a request that finds the bucket empty is 429
 * TooManyRequests (which the SDKs retry with backoff). Off unless `--rate-limit` is given.
 */
export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(
    private readonly requestsPerSecond: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  take(tenancyId: string): void {
    const now = this.now();
    const bucket = this.buckets.get(tenancyId) ?? { tokens: this.requestsPerSecond, at: now };
    bucket.tokens = Math.min(
      this.requestsPerSecond,
      bucket.tokens + ((now - bucket.at) / 1000) * this.requestsPerSecond,
    );
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
