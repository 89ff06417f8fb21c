import { test } from 'node:test';
import assert from 'node:assert/strict';
import { APITYPE_MAPS, goJson, goTimeJson } from './go-json';

test("goJson writes what JSON.stringify writes, but for Go's escapes and, when sorted, Go's map order", () => {
  const value = {
    s: '<a&b>\u2028x\u2029"\\\n',
    n: [1, 0.5, 1e21, 1e-7, null, true],
    o: { e: {}, l: [] },
    u: undefined,
  };
  assert.equal(goJson(value), JSON.stringify(value).replace('\u2028', '\\u2028').replace('\u2029', '\\u2029'));
  assert.equal(
    goJson(value, { indent: '    ' }),
    JSON.stringify(value, null, 4).replace('\u2028', '\\u2028').replace('\u2029', '\\u2029'),
  );
  // A line separator escaped, HTML characters not (SetEscapeHTML(false)); the text still parses back.
  assert.equal(goJson('<a&b>\u2028'), '"<a&b>\\u2028"');
  assert.equal(JSON.parse(goJson('<a&b>\u2028')), '<a&b>\u2028');
  // With escapeHTML, as json.Marshal (and MarshalIndent) escape them; it still parses back.
  assert.equal(goJson({ '<k>': '<a&b>' }, { escapeHTML: true }), '{"\\u003ck\\u003e":"\\u003ca\\u0026b\\u003e"}');
  assert.deepEqual(JSON.parse(goJson({ '<k>': '<a&b>' }, { escapeHTML: true })), { '<k>': '<a&b>' });
  // Go sorts a map's keys by their bytes: "10" before "2", and in nested maps too.
  assert.equal(goJson({ b: 1, 2: 2, 10: { z: 1, a: 2 } }, { sorted: true }), '{"10":{"a":2,"z":1},"2":2,"b":1}');
  assert.equal(goJson([undefined, () => 1]), '[null,null]');
  assert.equal(goJson(undefined), 'null');
  // A negative zero keeps its sign, as Go's float64 -0 (JSON.stringify writes 0); it parses back as -0.
  assert.equal(goJson({ z: -0, zs: [-0, 0] }), '{"z":-0,"zs":[-0,0]}');
  assert.ok(Object.is(JSON.parse(goJson(-0)), -0));
});

test("goJson with `maps`: a Go map's keys sorted, all the way down, a struct's fields as they are", () => {
  const resource = { urn: 'u', type: 't', inputs: { z: 1, 10: 2, 2: 3, n: { y: 1, x: 2 } }, custom: true };
  assert.equal(
    goJson({ resources: [resource] }, { maps: APITYPE_MAPS }),
    '{"resources":[{"urn":"u","type":"t","inputs":{"10":2,"2":3,"n":{"x":2,"y":1},"z":1},"custom":true}]}',
  );
});

// Go's time.Time MarshalJSON (time.RFC3339Nano): the fraction's trailing zeros trimmed, no fraction
// when it is zero, `Z` for UTC and `±hh:mm` for a zone with an offset; toISOString always wrote 3
// digits and `Z`.
test("goTimeJson writes a time as Go's time.Time MarshalJSON does", () => {
  assert.equal(goTimeJson(new Date('2026-11-27T13:17:07.120Z')), '2026-11-27T13:17:07.12Z');
  assert.equal(goTimeJson(new Date('2026-11-27T13:17:07.123Z')), '2026-11-27T13:17:07.123Z');
  assert.equal(goTimeJson(new Date('2026-11-27T13:17:07.000Z')), '2026-11-27T13:17:07Z');
  const tz = process.env.TZ;
  try {
    process.env.TZ = 'Asia/Kolkata';
    assert.equal(goTimeJson(new Date('2026-11-27T13:17:07.500Z'), 'local'), '2026-11-27T18:47:07.5+05:30');
    assert.equal(goTimeJson(new Date('2026-11-27T13:17:07.500Z')), '2026-11-27T13:17:07.5Z');
    process.env.TZ = 'America/St_Johns';
    assert.equal(goTimeJson(new Date('2026-11-27T01:00:00Z'), 'local'), '2026-11-26T21:30:00-03:30');
    process.env.TZ = 'UTC';
    assert.equal(goTimeJson(new Date('2026-11-27T01:00:00Z'), 'local'), '2026-11-27T01:00:00Z');
  } finally {
    if (tz === undefined) delete process.env.TZ;
    else process.env.TZ = tz;
  }
  // What it writes reads back as the same time.
  const t = new Date('2026-11-27T13:17:07.120Z');
  for (const zone of ['utc', 'local'] as const) assert.equal(Date.parse(goTimeJson(t, zone)), t.getTime());
});
