// Phase timings for performance work: with OCIKIT_TRACE=1 ocikit prints, on stderr at the end of a
// run, when each phase was reached (ms since this process started, so Node's own start is counted)
// and, per kind of per-resource work (Check, Diff, Create, state write…), the count, the total and
// the mean time. Off by default: then every call is a no-op check of one boolean.
import { performance } from 'node:perf_hooks';

const enabled = process.env.OCIKIT_TRACE === '1' || process.env.OCIKIT_TRACE === 'true';
const marks: Array<[string, number]> = [];
const spans = new Map<string, { count: number; total: number; max: number }>();

export const trace = {
  enabled,

  /** Records that a phase was reached: the first time only, or (`last`) the latest time. */
  mark(name: string, last = false): void {
    if (!enabled) return;
    const i = marks.findIndex(([n]) => n === name);
    if (i < 0) marks.push([name, performance.now()]);
    else if (last) marks[i][1] = performance.now();
  },

  /** Adds one measured piece of work of kind `name` (ms). */
  add(name: string, ms: number): void {
    if (!enabled) return;
    const s = spans.get(name) ?? { count: 0, total: 0, max: 0 };
    s.count++;
    s.total += ms;
    s.max = Math.max(s.max, ms);
    spans.set(name, s);
  },

  /** Times a promise (or value) as one piece of work of kind `name`. */
  async time<T>(name: string, fn: () => Promise<T>): Promise<T> {
    if (!enabled) return fn();
    const t0 = performance.now();
    try {
      return await fn();
    } finally {
      trace.add(name, performance.now() - t0);
    }
  },

  timeSync<T>(name: string, fn: () => T): T {
    if (!enabled) return fn();
    const t0 = performance.now();
    try {
      return fn();
    } finally {
      trace.add(name, performance.now() - t0);
    }
  },

  /** The report: phases in order, then per-kind totals. */
  report(): string {
    const lines = ['ocikit trace (ms since the ocikit process started):'];
    for (const [name, at] of [...marks].sort((a, b) => a[1] - b[1]))
      lines.push(`  ${at.toFixed(0).padStart(7)}  ${name}`);
    if (spans.size) lines.push('  work            count    total ms   mean ms    max ms');
    for (const [name, s] of spans)
      lines.push(
        `  ${name.padEnd(16)}${String(s.count).padStart(5)}${s.total.toFixed(0).padStart(12)}${(s.total / s.count)
          .toFixed(1)
          .padStart(10)}${s.max.toFixed(0).padStart(10)}`,
      );
    const mem = process.memoryUsage();
    lines.push(
      `  memory: peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB, now RSS ${(mem.rss / 2 ** 20).toFixed(0)} MB, heap used ${(mem.heapUsed / 2 ** 20).toFixed(0)} MB`,
    );
    return lines.join('\n') + '\n';
  },

  flush(): void {
    if (!enabled) return;
    process.stderr.write(trace.report());
    marks.length = 0;
    spans.clear();
  },
};
