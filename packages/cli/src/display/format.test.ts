import assert from 'node:assert/strict';
import test from 'node:test';
import { stepDuration, timeAgo } from './format';

test("timeAgo prints a past time as Pulumi's stack ls does (go-humanize)", () => {
  const now = new Date('2026-11-25T12:00:00Z');
  const ago = (ms: number) => timeAgo(new Date(now.getTime() - ms), now);
  const minute = 60_000;
  const day = 24 * 60 * minute;
  assert.equal(ago(500), 'now');
  assert.equal(ago(1500), '1 second ago');
  assert.equal(ago(42_000), '42 seconds ago');
  assert.equal(ago(90_000), '1 minute ago');
  assert.equal(ago(59 * minute), '59 minutes ago');
  assert.equal(ago(61 * minute), '1 hour ago');
  assert.equal(ago(5 * 60 * minute), '5 hours ago');
  assert.equal(ago(day + minute), '1 day ago');
  assert.equal(ago(3 * day), '3 days ago');
  assert.equal(ago(8 * day), '1 week ago');
  assert.equal(ago(20 * day), '2 weeks ago');
  assert.equal(ago(45 * day), '1 month ago');
  assert.equal(ago(100 * day), '3 months ago');
  assert.equal(ago(400 * day), '1 year ago');
  assert.equal(ago(600 * day), '2 years ago');
  assert.equal(ago(3 * 360 * day), '3 years ago');
  assert.equal(timeAgo(new Date(now.getTime() + 5 * minute), now), '5 minutes from now');
});

test("a step's elapsed time prints as Pulumi's progress display prints it", () => {
  // Done: under a second to the hundredth (%.2f, an exact tie to even), else whole seconds, cut.
  assert.equal(stepDuration(0, true), '0.00s');
  assert.equal(stepDuration(7, true), '0.01s');
  assert.equal(stepDuration(420, true), '0.42s');
  assert.equal(stepDuration(125, true), '0.12s');
  assert.equal(stepDuration(375, true), '0.38s');
  assert.equal(stepDuration(999, true), '1.00s');
  assert.equal(stepDuration(1999, true), '1s');
  assert.equal(stepDuration(75_600, true), '75s');
  // Running: whole seconds, cut.
  assert.equal(stepDuration(420, false), '0s');
  assert.equal(stepDuration(4_900, false), '4s');
  assert.equal(stepDuration(75_600, false), '75s');
});
