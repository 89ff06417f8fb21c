import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CancelledError, nextDelay, waitFor, WaitTimeoutError } from './wait';

test('polls quickly first, then backs off in proportion to the time waited', () => {
  assert.equal(nextDelay(0), 50);
  assert.ok(nextDelay(3_000) < nextDelay(60_000));
  assert.equal(nextDelay(3_600_000), 10_000);
});

test('returns the value when done and reports each new progress once', async () => {
  let n = 0;
  const progress: string[] = [];
  const v = await waitFor({
    what: 'x',
    timeoutMs: 5_000,
    signal: new AbortController().signal,
    onProgress: (m) => progress.push(m),
    poll: async () => ({ done: ++n === 3, value: n, progress: n < 2 ? 'a' : 'b' }),
  });
  assert.equal(v, 3);
  assert.deepEqual(progress, ['a', 'b']);
});

test('cancel stops a wait at once, even one sleeping on retry-after', async () => {
  const ac = new AbortController();
  const w = waitFor({
    what: 'plan',
    timeoutMs: 60_000,
    signal: ac.signal,
    poll: async () => ({ done: false, retryAfterMs: 30_000 }),
  });
  setTimeout(() => ac.abort(), 20);
  await assert.rejects(w, CancelledError);
});

test('a timeout names what was awaited and how to wait longer', async () => {
  await assert.rejects(
    waitFor({
      what: 'DrPlan "p"',
      timeoutMs: 120,
      signal: new AbortController().signal,
      poll: async () => ({ done: false }),
    }),
    (e: Error) => e instanceof WaitTimeoutError && /DrPlan "p"/.test(e.message) && /customTimeouts/.test(e.message),
  );
});
