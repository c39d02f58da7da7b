/**
 * The load runners of the HTTP benchmarks, with nothing of the app in them (bench-wall-client.ts
 * runs them in a process of its own): closed loop at full speed (`load`), open loop at a fixed
 * rate (`atRate`), percentiles and one printed line per figure.
 */
export const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);
export const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);

export interface Result {
  label: string;
  requests: number;
  seconds: number;
  p50: number;
  p99: number;
  errors: number;
}

/** The value at index floor(p% × n) of an ascending list (the figures in docs/benchmarks.md). */
export function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

function summary(label: string, latencies: number[], seconds: number, errors: number): Result {
  latencies.sort((a, b) => a - b);
  return {
    label,
    requests: latencies.length,
    seconds,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    errors,
  };
}

/** Runs `total` calls with `CONCURRENCY` in flight (closed loop) and measures each call. */
export async function load(
  label: string,
  total: number,
  call: (i: number) => Promise<boolean>,
): Promise<Result> {
  const latencies: number[] = [];
  let next = 0;
  let errors = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < total) {
        const i = next++;
        const t = performance.now();
        const ok = await call(i).catch(() => false);
        latencies.push(performance.now() - t);
        if (!ok) errors += 1;
      }
    }),
  );
  return summary(label, latencies, (performance.now() - started) / 1000, errors);
}

/**
 * `rate` calls a second for `seconds`, each started on time whatever the answers (open loop:
 * a slow answer does not slow the arrivals down, so queueing shows in the latencies).
 */
export async function atRate(
  label: string,
  rate: number,
  seconds: number,
  call: () => Promise<boolean>,
): Promise<Result> {
  const total = rate * seconds;
  const latencies: number[] = [];
  let errors = 0;
  const started = performance.now();
  const pending: Promise<void>[] = [];
  for (let i = 0; i < total; i += 1) {
    const wait = started + (i * 1000) / rate - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const t = performance.now();
    pending.push(
      call()
        .catch(() => false)
        .then((ok) => {
          latencies.push(performance.now() - t);
          if (!ok) errors += 1;
        }),
    );
  }
  await Promise.all(pending);
  return summary(label, latencies, (performance.now() - started) / 1000, errors);
}

export function formatResult(r: Result, labelWidth: number): string {
  return `${r.label.padEnd(labelWidth)} ${(r.requests / r.seconds).toFixed(0).padStart(6)} req/s   p50 ${r.p50.toFixed(1).padStart(6)} ms   p99 ${r.p99.toFixed(1).padStart(6)} ms   errors ${r.errors}`;
}
