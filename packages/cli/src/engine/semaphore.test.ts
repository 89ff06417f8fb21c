import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Semaphore } from './semaphore';

const tick = () => new Promise<void>((r) => setImmediate(r));

test('never runs more than n at once, and a slot given back is not taken twice', async () => {
  const sem = new Semaphore(2);
  let running = 0;
  let most = 0;
  const work = async () => {
    running++;
    most = Math.max(most, running);
    await tick();
    running--;
  };
  // Acquires arriving while a release hands its slot to a waiter must not overshoot the bound.
  await Promise.all(Array.from({ length: 20 }, (_, i) => sem.run(work, i % 3)));
  assert.equal(most, 2);
  // All slots are back: n more run at once without waiting.
  const releases = await Promise.all([sem.acquire(), sem.acquire()]);
  releases.forEach((r) => {
    r();
    r(); // a second call gives nothing back
  });
  const again = await Promise.all([sem.acquire(), sem.acquire()]);
  let third = false;
  void sem.acquire().then(() => (third = true));
  await tick();
  assert.equal(third, false);
  again[0]();
  await tick();
  assert.equal(third, true);
});

test('a released slot goes to the one waiting, not to an acquire that arrives at the same moment', async () => {
  const sem = new Semaphore(1);
  const a = await sem.acquire();
  const holders: string[] = [];
  const b = sem.acquire().then((r) => (holders.push('b'), r));
  await tick();
  a();
  const c = sem.acquire().then((r) => (holders.push('c'), r));
  await tick();
  assert.deepEqual(holders, ['b']);
  (await b)();
  await c;
  assert.deepEqual(holders, ['b', 'c']);
});

test('serves waiters round-robin across keys, in order within a key', async () => {
  const sem = new Semaphore(1);
  const first = await sem.acquire('a');
  const order: string[] = [];
  const waiters = [
    ...['a1', 'a2', 'a3', 'a4'].map((n) => sem.run(async () => void order.push(n), 'a')),
    ...['b1', 'b2'].map((n) => sem.run(async () => void order.push(n), 'b')),
  ];
  first();
  await Promise.all(waiters);
  assert.deepEqual(order, ['a1', 'b1', 'a2', 'b2', 'a3', 'a4']);
});
