/** A small closed-loop HTTP load generator: `concurrency` loops issue requests for `seconds`. */
export interface LoadResult {
  requests: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
}

export const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

export const median = (values: number[]): number =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );

export async function load(options: {
  url: (i: number) => string;
  /** Fixed headers, or per request (e.g. pre-signed ones, so signing stays out of the measurement). */
  headers?: Record<string, string> | ((i: number) => Record<string, string>);
  concurrency: number;
  seconds: number;
}): Promise<LoadResult> {
  const latencies: number[] = [];
  const deadline = performance.now() + options.seconds * 1000;
  let counter = 0;
  const loop = async () => {
    while (performance.now() < deadline) {
      const started = performance.now();
      const i = counter++;
      const headers = typeof options.headers === 'function' ? options.headers(i) : options.headers;
      const response = await fetch(options.url(i), { headers });
      await response.arrayBuffer();
      if (!response.ok) throw new Error(`HTTP ${response.status} from ${response.url}`);
      latencies.push(performance.now() - started);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: options.concurrency }, loop));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    requests: latencies.length,
    perSecond: latencies.length / elapsed,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
  };
}
