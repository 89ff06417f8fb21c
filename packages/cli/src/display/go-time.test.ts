import { afterEach, test } from 'node:test';
import assert from 'node:assert/strict';
import { goLocalTime } from './go-time';

const saved = process.env.TZ;
afterEach(() => {
  if (saved === undefined) delete process.env.TZ;
  else process.env.TZ = saved;
});

const at = (tz: string, time: string) => {
  process.env.TZ = tz;
  return goLocalTime(time);
};

test("a time as Go's %v prints it in the local zone Go loads from TZ (time/zoneinfo_unix.go initLocal)", () => {
  // The zone's abbreviation from the tz database, standard and daylight time.
  assert.equal(at('Europe/Berlin', '2026-07-02T03:04:05Z'), '2026-07-02 05:04:05 +0200 CEST');
  assert.equal(at(':Europe/Berlin', '2026-01-02T03:04:05Z'), '2026-01-02 04:04:05 +0100 CET');
  assert.equal(at('/usr/share/zoneinfo/Asia/Kolkata', '2026-01-02T03:04:05Z'), '2026-01-02 08:34:05 +0530 IST');
  // A zone the database names by its offset.
  assert.equal(at('America/Sao_Paulo', '2026-01-02T03:04:05Z'), '2026-01-02 00:04:05 -0300 -03');
  // An empty TZ is UTC; the fraction is kept as written, its trailing zeros trimmed (".999999999").
  assert.equal(at('', '2026-01-02T08:34:05.123456780+05:30'), '2026-01-02 03:04:05.12345678 +0000 UTC');
  assert.equal(at('UTC', '2026-01-02T03:04:05.000Z'), '2026-01-02 03:04:05 +0000 UTC');
});
