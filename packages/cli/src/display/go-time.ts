// A time as Go's `%v` prints a time.Time in the local zone (Time.String, layout
// "2006-01-02 15:04:05.999999999 -0700 MST"), which `pulumi stack` shows after `Last updated:`.
// The zone's abbreviation is the one Go reads from the tz database: Go's time package loads the
// local zone from $TZ (a name under the zoneinfo directories, or a path; empty or "UTC" is UTC)
// or else /etc/localtime (time/zoneinfo_unix.go initLocal), and names a time after the file's
// last transition with its footer's POSIX TZ rule (zoneinfo_read.go, zoneinfo.go tzset).

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Go's platformZoneSources (time/zoneinfo_unix.go). */
const ZONE_SOURCES = ['/usr/share/zoneinfo/', '/usr/share/lib/zoneinfo/', '/usr/lib/locale/TZ/', '/etc/zoneinfo/'];

/** The tz database file Go reads the local zone from, or none for UTC. */
function localZoneFile(): string | undefined {
  const tz = process.env.TZ;
  if (tz === undefined) return '/etc/localtime';
  const name = tz.startsWith(':') ? tz.slice(1) : tz;
  if (name === '' || name === 'UTC') return undefined;
  if (name.startsWith('/')) return name;
  return ZONE_SOURCES.map((dir) => join(dir, name)).find((file) => existsSync(file));
}

interface Zone {
  /** Each transition's time (seconds) and its type's offset (seconds east of UTC) and name. */
  transitions: Array<{ at: number; offset: number; name: string }>;
  types: Array<{ offset: number; name: string }>;
  /** The names of the footer's POSIX TZ rule with their offsets (standard, then daylight). */
  rule: Array<{ offset: number; name: string }>;
}

/** A TZif file (RFC 8536): its version 2+ (64-bit) block when there is one, and its footer. */
function readZone(file: string): Zone | undefined {
  let data: Buffer;
  try {
    data = readFileSync(file);
  } catch {
    return undefined;
  }
  if (data.length < 44 || data.toString('latin1', 0, 4) !== 'TZif') return undefined;
  const header = (at: number) => {
    const [isut, isstd, leap, time, type, char] = [0, 1, 2, 3, 4, 5].map((i) => data.readUInt32BE(at + 20 + 4 * i));
    return { isut, isstd, leap, time, type, char };
  };
  const blockLength = (h: ReturnType<typeof header>, timeSize: number) =>
    h.time * timeSize + h.time + h.type * 6 + h.char + h.leap * (timeSize + 4) + h.isstd + h.isut;
  let at = 0;
  let timeSize = 4;
  let h = header(0);
  if (data[4] >= 0x32) {
    at = 44 + blockLength(h, 4);
    timeSize = 8;
    h = header(at);
  }
  const body = at + 44;
  const typesAt = body + h.time * timeSize + h.time;
  const charsAt = typesAt + h.type * 6;
  const abbreviation = (index: number) => {
    const end = data.indexOf(0, charsAt + index);
    return data.toString('latin1', charsAt + index, end < 0 ? charsAt + h.char : end);
  };
  const types = Array.from({ length: h.type }, (_, i) => ({
    offset: data.readInt32BE(typesAt + 6 * i),
    name: abbreviation(data[typesAt + 6 * i + 5]),
  }));
  const transitions = Array.from({ length: h.time }, (_, i) => ({
    at: timeSize === 8 ? Number(data.readBigInt64BE(body + 8 * i)) : data.readInt32BE(body + 4 * i),
    ...types[data[body + h.time * timeSize + i]],
  }));
  const footer = timeSize === 8 ? data.toString('latin1', at + 44 + blockLength(h, 8)).split('\n')[1] : undefined;
  return { transitions, types, rule: footer ? ruleNames(footer) : [] };
}

/** The names in a POSIX TZ rule (`CET-1CEST,M3.5.0,M10.5.0/3`, `<+0530>-5:30`) with their offsets. */
function ruleNames(rule: string): Zone['rule'] {
  const name = '(<[^>]*>|[A-Za-z]+)';
  const offset = '([+-]?\\d+(?::\\d+){0,2})';
  const match = new RegExp(`^${name}${offset}(?:${name}${offset}?)?`).exec(rule);
  if (!match) return [];
  const seconds = (text: string) => {
    const [h, m = 0, s = 0] = text.replace(/^[+-]/, '').split(':').map(Number);
    return (text.startsWith('-') ? 1 : -1) * (h * 3600 + m * 60 + s);
  };
  const bare = (n: string) => n.replace(/^<|>$/g, '');
  const standard = { name: bare(match[1]), offset: seconds(match[2]) };
  if (!match[3]) return [standard];
  return [standard, { name: bare(match[3]), offset: match[4] ? seconds(match[4]) : standard.offset + 3600 }];
}

/**
 * The local zone's name at `time` with `offset` (seconds east of UTC, as this process's clock has
 * it): the type of the last transition before it, or after the last one the footer rule's name
 * with that offset, as Go's Location.lookup picks it.
 */
function zoneName(time: number, offset: number): string {
  const file = localZoneFile();
  const zone = file ? readZone(file) : undefined;
  if (!zone) return 'UTC';
  const seconds = Math.floor(time / 1000);
  const last = zone.transitions.at(-1);
  const candidates = [
    ...(last && seconds >= last.at ? zone.rule : []),
    ...zone.transitions.filter((t) => t.at <= seconds).reverse(),
    ...zone.rule,
    ...zone.types,
  ];
  return candidates.find((c) => c.offset === offset)?.name ?? goOffset(offset);
}

/** `-0700`, Go's layout for an offset. */
function goOffset(seconds: number): string {
  const minutes = Math.abs(Math.round(seconds / 60));
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${seconds < 0 ? '-' : '+'}${pad(Math.floor(minutes / 60))}${pad(minutes % 60)}`;
}

/**
 * An RFC 3339 time (a checkpoint's manifest time) in the local zone as Go's `%v` prints it:
 * `2026-11-27 18:47:07.123456789 +0530 IST`, the fraction as written (its trailing zeros trimmed).
 */
export function goLocalTime(rfc3339: string): string {
  const time = Date.parse(rfc3339);
  const offset = -new Date(time).getTimezoneOffset() * 60;
  const [date, clock] = new Date(time + offset * 1000).toISOString().split('T');
  const fraction = (/T[\d:]+\.(\d+)/.exec(rfc3339)?.[1] ?? '').replace(/0+$/, '');
  return `${date} ${clock.slice(0, 8)}${fraction ? `.${fraction}` : ''} ${goOffset(offset)} ${zoneName(time, offset)}`;
}
