/**
 * npm run bench:cluster: what being several instances costs, and whether the pair holds a load
 * while one of them restarts. The installation of the two-instance fault test (a private
 * PostgreSQL and Mosquitto, haproxy, the server instances as the systemd unit starts them, booth
 * agents as their own processes with a simulated camera), three runs with the same visitor load
 * (BENCH_CLUSTER_VISITORS visitors, one every BENCH_CLUSTER_INTERVAL_MS, over
 * BENCH_CLUSTER_BOOTHS booths; each signs in with a code, pays in the sandbox and captures):
 *
 * 1. one instance behind haproxy: server CPU time (utime + stime from /proc/<pid>/stat, from the
 *    first visitor until every photo and preview is in) per capture and per API request, the
 *    visitors' p50/p99, captures per minute, delivery time;
 * 2. two instances behind haproxy: the same, and the ratios to (1);
 * 3. two instances, one of them restarted (SIGTERM, started again) in the middle of the load: p99
 *    and the answers a visitor saw fail (lost connections and 5xx, each retried).
 *
 * The background jobs run on their default intervals. docs/benchmarks.md has the figures.
 */
import { cpuSeconds, sleep, until } from '../apps/server/test/cluster/cluster.js';
import { Installation } from '../apps/server/test/cluster/installation.js';
import {
  ApiClient,
  capture,
  pay,
  percentile,
  signIn,
} from '../apps/server/test/cluster/visitors.js';

const VISITORS = Number(process.env.BENCH_CLUSTER_VISITORS ?? 40);
const INTERVAL_MS = Number(process.env.BENCH_CLUSTER_INTERVAL_MS ?? 500);
const BOOTHS = Number(process.env.BENCH_CLUSTER_BOOTHS ?? 4);
/** Visitors per booth before the measured load. */
const WARM_UP = Number(process.env.BENCH_CLUSTER_WARM_UP ?? 3);
/** The quiet window before the load in which each instance's idle CPU is measured. */
const IDLE_MS = 10_000;

/** The defaults of production for the jobs; the rest as the fault test sets it. */
const ENV: Record<string, string> = {
  CAPTURE_SWEEP_INTERVAL_MS: '60000',
  MEDIA_PREVIEW_SWEEP_INTERVAL_MS: '30000',
  MEDIA_PREVIEW_LEASE_SECONDS: '120',
  PAYMENT_RECONCILE_INTERVAL_SECONDS: '60',
  CAPTURE_DELIVERY_MARGIN_SECONDS: '900',
  DEVICE_COMMAND_TIMEOUT_MS: '5000',
};

interface RunResult {
  label: string;
  instances: number;
  captures: number;
  requests: number;
  requestsPerInstance: number[];
  cpuSeconds: number | undefined;
  cpuPerInstance: number[];
  /** CPU seconds per second of each instance doing nothing. */
  idlePerSecond: number[];
  elapsedMs: number;
  p50: number;
  p99: number;
  failedAnswers: number;
  capturesPerMinute: number;
  deliveryP50: number;
  deliveryP99: number;
}

let phoneCounter = 0;
const phone = () => {
  phoneCounter += 1;
  return `+916${String(process.pid % 10000).padStart(4, '0')}${String(phoneCounter).padStart(5, '0')}`;
};

/** "request completed" lines of each instance at or after `since` (the API requests served). */
function requestsServed(installation: Installation, since: number): number[] {
  return installation.instances.map(
    (instance) =>
      instance
        .logEntries()
        .filter((entry) => entry.msg === 'request completed' && Number(entry.time) >= since).length,
  );
}

async function run(label: string, instances: number, restartOne: boolean): Promise<RunResult> {
  // haproxy checks each instance every 5 s, as the Caddyfiles in deploy/ do.
  const installation = new Installation({
    instances,
    booths: BOOTHS,
    env: ENV,
    checkIntervalMs: 5000,
  });
  await installation.start();
  try {
    const api = new ApiClient(installation.url);
    const { booths, templateId } = installation;
    const cpuAt = () =>
      installation.instances.map((instance) =>
        instance.process.pid === undefined ? 0 : cpuSeconds(instance.process.pid),
      );
    // Warm-up: WARM_UP visitors per booth, so every instance has loaded its modules, filled
    // its connection pools and compiled its hot paths before anything is counted.
    await Promise.all(
      booths.map(async (booth) => {
        for (let n = 0; n < WARM_UP; n += 1) {
          const visitor = await signIn(api, 'regular', phone());
          await pay(api, visitor.token, booth.id, templateId);
          await capture(api, visitor.token, booth.id, templateId);
        }
      }),
    );
    await sleep(1000);
    // What the instances use doing nothing (jobs, health checks, the booths' heartbeats).
    const idleBefore = cpuAt();
    await sleep(IDLE_MS);
    const idlePerInstance = cpuAt().map((after, index) => after - idleBefore[index]!);
    api.calls.length = 0;

    const started = Date.now();
    const cpuBefore = cpuAt();
    const userIds: number[] = [];
    const visits: Promise<void>[] = [];
    let restart: Promise<void> | undefined;
    for (let n = 0; n < VISITORS; n += 1) {
      const booth = booths[n % booths.length]!;
      visits.push(
        (async () => {
          const visitor = await signIn(api, 'regular', phone());
          userIds.push(visitor.userId);
          await pay(api, visitor.token, booth.id, templateId);
          await capture(api, visitor.token, booth.id, templateId);
        })(),
      );
      if (restartOne && n === Math.floor(VISITORS / 3)) {
        // A rolling restart's step: the instance is stopped gracefully and started again.
        const victim = installation.instances[0]!;
        restart = (async () => {
          await victim.stop();
          await victim.start(90_000);
        })();
      }
      await sleep(INTERVAL_MS);
    }
    await Promise.all(visits);
    await restart;

    // Until every photo and its preview is in: the CPU of the whole capture is counted.
    await until(
      async () => {
        const state = await installation.deliveries(userIds);
        return state.items >= VISITORS && state.complete === state.items;
      },
      'every photo and preview',
      120_000,
    );
    const { deliveryMs } = await installation.deliveries(userIds);
    const elapsedMs = Date.now() - started;
    const cpuAfter = cpuAt();
    const cpuPerInstance = cpuAfter.map((after, index) => after - cpuBefore[index]!);
    const latencies = api.calls.map((call) => call.ms);
    const served = requestsServed(installation, started);
    return {
      label,
      instances,
      captures: VISITORS,
      requests: served.reduce((a, b) => a + b, 0),
      requestsPerInstance: served,
      // A restarted instance's CPU is split over two processes: not comparable.
      cpuSeconds: restartOne ? undefined : cpuPerInstance.reduce((a, b) => a + b, 0),
      cpuPerInstance,
      idlePerSecond: idlePerInstance.map((seconds) => seconds / (IDLE_MS / 1000)),
      elapsedMs,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      failedAnswers: api.calls.filter((call) => call.status === 0 || call.status >= 500).length,
      capturesPerMinute: (VISITORS / elapsedMs) * 60_000,
      deliveryP50: percentile(deliveryMs, 50),
      deliveryP99: percentile(deliveryMs, 99),
    };
  } finally {
    await installation.stop();
  }
}

const ms = (value: number) => `${value.toFixed(0)} ms`;

function report(result: RunResult): void {
  const cpu =
    result.cpuSeconds === undefined
      ? 'CPU not compared (one instance restarted)'
      : `server CPU ${result.cpuSeconds.toFixed(2)} s (${result.cpuPerInstance
          .map((s) => s.toFixed(2))
          .join(
            ' + ',
          )}): ${((result.cpuSeconds * 1000) / result.captures).toFixed(1)} ms per capture, ${((result.cpuSeconds * 1000) / result.requests).toFixed(2)} ms per API request`;
  console.log(
    [
      `${result.label}:`,
      `  ${result.captures} captures, ${result.requests} API requests served (${result.requestsPerInstance.join(' + ')}), ${result.capturesPerMinute.toFixed(1)} captures/min`,
      `  ${cpu}`,
      `  visitor API p50 ${ms(result.p50)}, p99 ${ms(result.p99)}; lost or 5xx answers ${result.failedAnswers}`,
      `  idle CPU ${result.idlePerSecond.map((s) => `${(s * 1000).toFixed(1)} ms/s`).join(' + ')} per instance; the load took ${(result.elapsedMs / 1000).toFixed(1)} s, so about ${((result.idlePerSecond.reduce((a, b) => a + b, 0) * result.elapsedMs) / 1000).toFixed(2)} s of the CPU above is the instances' idle cost`,
      `  delivery (accepted → uploaded) p50 ${ms(result.deliveryP50)}, p99 ${ms(result.deliveryP99)}`,
    ].join('\n'),
  );
}

console.log(
  `bench:cluster: ${VISITORS} visitors, one every ${INTERVAL_MS} ms, over ${BOOTHS} booths (sign-in, sandbox payment, capture)`,
);
const one = await run('one instance behind haproxy', 1, false);
report(one);
const two = await run('two instances behind haproxy', 2, false);
report(two);
const perCapture = two.cpuSeconds! / one.cpuSeconds!;
const perRequest = two.cpuSeconds! / two.requests / (one.cpuSeconds! / one.requests);
/** The CPU of the load itself: the total less what the instances use doing nothing. */
const busy = (result: RunResult) =>
  result.cpuSeconds! - (result.idlePerSecond.reduce((a, b) => a + b, 0) * result.elapsedMs) / 1000;
console.log(
  `  two / one: CPU per capture ×${perCapture.toFixed(3)}, per API request ×${perRequest.toFixed(3)}; less the idle cost: per capture ×${(busy(two) / busy(one)).toFixed(3)}, per API request ×${(busy(two) / two.requests / (busy(one) / one.requests)).toFixed(3)}`,
);
const rolling = await run('two instances, one restarted during the load', 2, true);
report(rolling);
console.log(
  `the single instance's p99 ${ms(one.p99)} (${one.p99 < 200 ? 'under' : 'NOT under'} 200 ms); the pair while one restarts: p99 ${ms(rolling.p99)}, ${rolling.failedAnswers} lost or 5xx answers`,
);
