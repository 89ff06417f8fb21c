import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { OciServiceError } from '../core/errors';
import { RateLimiter } from './rate-limit';

describe('RateLimiter', () => {
  it('allows a burst of the limit, refuses the next with 429 TooManyRequests, and refills over time', () => {
    let now = 0;
    const limiter = new RateLimiter(3, () => now);
    for (let i = 0; i < 3; i++) limiter.take('t1');
    assert.throws(
      () => limiter.take('t1'),
      (e: OciServiceError) => e.status === 429 && e.code === 'TooManyRequests',
    );
    limiter.take('t2'); // another tenancy has its own bucket
    now += 1000 / 3; // one token back
    limiter.take('t1');
    assert.throws(
      () => limiter.take('t1'),
      (e: OciServiceError) => e.status === 429,
    );
  });

  it('lets a limit under one request a second through at that rate, not refuse every request', () => {
    let now = 0;
    const limiter = new RateLimiter(0.5, () => now);
    limiter.take('t1');
    assert.throws(
      () => limiter.take('t1'),
      (e: OciServiceError) => e.status === 429,
    );
    now += 2000; // 0.5 a second: one request every 2 s
    limiter.take('t1');
  });
});
