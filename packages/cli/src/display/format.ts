/** Value rendering shared by the plan, the outputs and `stack output`. */

export const SECRET_SIG = '4dabf18193072939515e22adb298388d';
export const SECRET_VALUE = '1b47061264138c4ac30d75fd1eb44270';
export const UNKNOWN = '04da6b54-80e4-46f7-96ec-b56ff0331ba9';

export function isSecret(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as Record<string, unknown>)[SECRET_SIG] === SECRET_VALUE;
}

/**
 * Replaces secrets by "[secret]" (unless shown) and unknowns by "[unknown]", as Pulumi prints them
 * (printPrimitivePropertyValue, pkg/backend/display/object_diff.go). `keepUnknowns` (`stack
 * output`): an unknown stays the placeholder the state holds, as Pulumi's getStackOutputs prints it
 * (stack.SerializeProperties writes a computed value as computedValuePlaceholder).
 */
export function reveal(value: unknown, showSecrets = false, keepUnknowns = false): unknown {
  if (value === UNKNOWN && !keepUnknowns) return '[unknown]';
  if (isSecret(value)) {
    const inner = value as Record<string, unknown>;
    return showSecrets && 'value' in inner ? reveal(inner.value, true, keepUnknowns) : '[secret]';
  }
  if (Array.isArray(value)) return value.map((item) => reveal(item, showSecrets, keepUnknowns));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, reveal(v, showSecrets, keepUnknowns)]));
  return value;
}

/**
 * A step's elapsed time (whole milliseconds) as Pulumi's progress display prints it
 * (pkg/backend/display/progress.go): while it runs, whole seconds (getStepInProgressDescription's
 * `%ds` of int(secondsElapsed)); once done, under a second to the hundredth (getStepDoneDescription's
 * `%.2fs`), else whole seconds, truncated (`%ds` of int(opDuration)): `0.42s`, `1s`, `75s`.
 */
export function stepDuration(ms: number, done: boolean): string {
  if (!done || ms >= 1000) return `${Math.floor(ms / 1000)}s`;
  // Go's %.2f rounds an exact tie to even where toFixed rounds it up: of whole milliseconds,
  // only 125, 375, 625 and 875 are ties a float holds exactly.
  if (ms % 250 === 125) {
    const down = (ms - 5) / 10;
    return `0.${down % 2 ? down + 1 : down}s`;
  }
  return `${(ms / 1000).toFixed(2)}s`;
}

/**
 * The summary's duration as Pulumi's renderSummaryEvent prints it: rounded up to the second, in
 * Go's time.Duration form (`0s`, `59s`, `1m5s`, `1h0m3s`).
 */
export function summaryDuration(ms: number): string {
  const s = Math.ceil(ms / 1000);
  if (s < 60) return `${s}s`;
  const h = Math.floor(s / 3600);
  const m = `${Math.floor((s % 3600) / 60)}m${s % 60}s`;
  return h ? `${h}h${m}` : m;
}

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const WEEK = 7 * DAY;
const MONTH = 30 * DAY;
const YEAR = 12 * MONTH;
/** go-humanize's magnitudes (what Pulumi's `stack ls` and `stack` print with): below, text, unit. */
const MAGNITUDES: Array<[number, string, number]> = [
  [SECOND, 'now', 1],
  [2 * SECOND, '1 second', 1],
  [MINUTE, '%d seconds', SECOND],
  [2 * MINUTE, '1 minute', 1],
  [HOUR, '%d minutes', MINUTE],
  [2 * HOUR, '1 hour', 1],
  [DAY, '%d hours', HOUR],
  [2 * DAY, '1 day', 1],
  [WEEK, '%d days', DAY],
  [2 * WEEK, '1 week', 1],
  [MONTH, '%d weeks', WEEK],
  [2 * MONTH, '1 month', 1],
  [YEAR, '%d months', MONTH],
  [18 * MONTH, '1 year', 1],
  [2 * YEAR, '2 years', 1],
  [37 * YEAR, '%d years', YEAR],
  [Infinity, 'a long while', 1],
];

/** A past time as Pulumi shows it (go-humanize's Time): `now`, `5 minutes ago`, `2 days ago`… */
export function timeAgo(then: Date, now = new Date()): string {
  const diff = now.getTime() - then.getTime();
  const label = diff >= 0 ? 'ago' : 'from now';
  const ms = Math.abs(diff);
  const [, text, unit] = MAGNITUDES.find(([below]) => ms < below)!;
  if (text === 'now') return text;
  return `${text.replace('%d', String(Math.floor(ms / unit)))} ${label}`;
}
