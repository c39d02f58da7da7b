/**
 * npm run bench:cluster:cpu (was bench:cluster until issue 40): what being several instances costs, and whether the pair holds a load
 * while one of them restarts. The installation of the two-instance fault test (a private
 * PostgreSQL and Mosquitto, haproxy, the server instances as the systemd unit starts them;
 * BENCH_CLUSTER_BOOTHS booth agents (100) with a simulated camera, BENCH_CLUSTER_BOOTHS_PER_PROCESS
 * (25) to a process, apps/booth-agent/src/fleet.ts), three runs with the same visitor load
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
 *
 * BENCH_CLUSTER_RUNS picks the runs (`one,two,restart`, the default; also `standby`: two instances
 * with haproxy sending every request to the first, to tell what a second instance costs by being
 * there from what splitting the requests costs; and `twofold`: two instances with the visitors at
 * twice the rate, so each instance serves as many requests a second as the single one). Two settings are
 * for finding where the CPU goes, not for the ratios (each adds work of its own):
 * - BENCH_CLUSTER_COUNT=1: what each instance did in the measured window, counted: its metrics
 *   (METRICS_TOKEN: requests by route, MQTT messages, job runs) and its SQL statements (a
 *   statement log of the private PostgreSQL, by the instance's application_name).
 * - BENCH_CLUSTER_PROFILE=<dir>: each instance runs with `--cpu-prof` (a profile per instance and
 *   thread in <dir>/<run>/, written when it stops), and the window's bounds on the monotonic
 *   clock the profiles use go to <dir>/<run>/window.json. On a busy machine a sampled profile
 *   counts time the thread was waiting for a core too; the thread CPU split printed with every
 *   run (main thread vs the others: V8's compilers and GC, libuv's pool) does not.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  contextSwitches,
  cpuSeconds,
  residentBytes,
  sleep,
  threadCpuSeconds,
  until,
} from '../apps/server/test/cluster/cluster.js';
import { Installation } from '../apps/server/test/cluster/installation.js';
import {
  ApiClient,
  capture,
  pay,
  percentile,
  signIn,
} from '../apps/server/test/cluster/visitors.js';
import { clusterBenchEnv } from './cluster-env.js';

const VISITORS = Number(process.env.BENCH_CLUSTER_VISITORS ?? 40);
const INTERVAL_MS = Number(process.env.BENCH_CLUSTER_INTERVAL_MS ?? 500);
const BOOTHS = Number(process.env.BENCH_CLUSTER_BOOTHS ?? 100);
/** Booths per agent process (apps/booth-agent/src/fleet.ts): 100 booths in 4 processes. */
const BOOTHS_PER_PROCESS = Number(process.env.BENCH_CLUSTER_BOOTHS_PER_PROCESS ?? 25);
/** Visitors before the measured load (four at a time, each at another booth). */
const WARM_UP = Number(process.env.BENCH_CLUSTER_WARM_UP ?? 12);
/** The quiet window before the load in which each instance's idle CPU is measured. */
const IDLE_MS = 10_000;
const RUNS = (process.env.BENCH_CLUSTER_RUNS ?? 'one,two,restart').split(',');
const PROFILE_DIR = process.env.BENCH_CLUSTER_PROFILE
  ? path.resolve(process.env.BENCH_CLUSTER_PROFILE)
  : undefined;
const COUNT = process.env.BENCH_CLUSTER_COUNT === '1';
/** The instances' Node flags as given (profiling adds its own per run). */
const NODE_ARGS = process.env.CLUSTER_SERVER_NODE_ARGS ?? '';
const METRICS_TOKEN = 'bench-cluster-metrics-token';
if (COUNT) {
  // Every statement, with the session's application_name (flashbooth-<instance>) in front.
  process.env.CLUSTER_POSTGRES_SETTINGS = 'log_statement=all log_line_prefix=%a|';
}

/**
 * The defaults of production for the jobs; the rest as the fault test sets it, and then
 * BENCH_CLUSTER_ENV (space-separated NAME=value; an empty value unsets the installation's, e.g.
 * `MQTT_SHARE_GROUP=` for every instance recording every booth report).
 */
const ENV = clusterBenchEnv();

interface RunResult {
  label: string;
  instances: number;
  captures: number;
  requests: number;
  requestsPerInstance: number[];
  cpuSeconds: number | undefined;
  cpuPerInstance: number[];
  /** Of cpuPerInstance: the main thread's (JavaScript, the event loop's system calls). */
  mainThreadPerInstance: number[];
  /** The main threads' context switches in the window: voluntary, involuntary (all instances). */
  switches: { voluntary: number; involuntary: number };
  /** Each instance's resident memory when the load was done (MiB). */
  residentMiB: number[];
  /** CPU seconds per second of each instance doing nothing. */
  idlePerSecond: number[];
  elapsedMs: number;
  p50: number;
  p99: number;
  failedAnswers: number;
  capturesPerMinute: number;
  deliveryP50: number;
  deliveryP99: number;
  /** Booths online when the load began and when it was done. */
  boothsOnline: [number, number];
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

/** The counters of one instance's metrics worth comparing between runs (sample → value). */
async function counters(port: number): Promise<Map<string, number>> {
  const response = await fetch(`http://127.0.0.1:${port}/metrics`, {
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  const values = new Map<string, number>();
  for (const line of (await response.text()).split('\n')) {
    const match =
      /^(flashbooth_(?:mqtt_messages_total|job_run_duration_seconds_count|http_request_duration_seconds_count|captures_started_total|media_delivered_total)\S*) (\S+)$/.exec(
        line,
      );
    if (match) values.set(match[1]!, Number(match[2]));
  }
  return values;
}

/** The monotonic clock of V8's CPU profiles (µs; CLOCK_MONOTONIC, the same in every process). */
const monotonicMicros = () => Number(process.hrtime.bigint() / 1000n);

/**
 * The statements of the PostgreSQL log lines `lines` by instance (application_name
 * flashbooth-<name>), each as its first words with literals left out.
 */
function statementsByInstance(lines: string[]): Map<string, Map<string, number>> {
  const byInstance = new Map<string, Map<string, number>>();
  for (const line of lines) {
    const match = /^flashbooth-(\w+)\|LOG: {2}(?:statement|execute [^:]*): (.*)$/.exec(line);
    if (!match) continue;
    const [, instance, text] = match as unknown as [string, string, string];
    const words = text
      .replace(/'[^']*'/g, "'…'")
      .replace(/"/g, '')
      .split(/\s+/)
      .slice(0, 4)
      .join(' ')
      .toLowerCase();
    const counts = byInstance.get(instance!) ?? new Map<string, number>();
    counts.set(words, (counts.get(words) ?? 0) + 1);
    byInstance.set(instance!, counts);
  }
  return byInstance;
}

/**
 * With `--trace-gc` in CLUSTER_SERVER_NODE_ARGS: the collections in an instance's output lines,
 * by kind and reason, with their count and main-thread pause.
 */
function garbageCollections(lines: string[]): string[] {
  const kinds = new Map<string, { count: number; ms: number }>();
  for (const line of lines) {
    const match =
      /\d+ ms: ([A-Za-z-]+(?: \([^)]*\))?) .*?MB, ([\d.]+) \/ [\d.]+ ms .*\) (.*?);/.exec(line);
    if (!match) continue;
    const kind = `${match[1]} (${match[3]})`;
    const entry = kinds.get(kind) ?? { count: 0, ms: 0 };
    entry.count += 1;
    entry.ms += Number(match[2]);
    kinds.set(kind, entry);
  }
  return [...kinds].map(
    ([kind, { count, ms }]) => `    GC ${kind}: ${count}, ${ms.toFixed(0)} ms paused`,
  );
}

interface RunOptions {
  /** The name in BENCH_CLUSTER_RUNS and of the profile folder. */
  name: string;
  instances: number;
  /** One instance is stopped and started again during the load. */
  restartOne?: boolean;
  /** How many instances haproxy sends requests to (the others are its backups). */
  serving?: number;
  /**
   * The visitors' rate as a multiple of the others' (default 1): BENCH_CLUSTER_VISITORS × rate
   * visitors, one every BENCH_CLUSTER_INTERVAL_MS / rate, over the same time.
   */
  rate?: number;
}

async function run(label: string, options: RunOptions): Promise<RunResult> {
  const { name: runName, instances, restartOne = false, rate = 1 } = options;
  const visitors = Math.round(VISITORS * rate);
  const intervalMs = INTERVAL_MS / rate;
  const profileDir = PROFILE_DIR && path.join(PROFILE_DIR, runName);
  if (profileDir) {
    mkdirSync(profileDir, { recursive: true });
    process.env.CLUSTER_SERVER_NODE_ARGS = `${NODE_ARGS} --cpu-prof --cpu-prof-dir=${profileDir}`;
  }
  // haproxy checks each instance every 5 s, as the Caddyfiles in deploy/ do.
  const installation = new Installation({
    instances,
    booths: BOOTHS,
    env: {
      // One instance hears every report itself: no share group, as a single server is set up.
      ...(instances === 1 ? { MQTT_SHARE_GROUP: '' } : {}),
      ...ENV,
      ...(COUNT ? { METRICS_TOKEN } : {}),
    },
    checkIntervalMs: 5000,
    boothsPerProcess: BOOTHS_PER_PROCESS,
    ...(options.serving === undefined ? {} : { serving: options.serving }),
  });
  await installation.start();
  try {
    const api = new ApiClient(installation.url);
    const { booths, templateId } = installation;
    const cpuAt = () =>
      installation.instances.map((instance) =>
        instance.process.pid === undefined ? 0 : cpuSeconds(instance.process.pid),
      );
    // Warm-up: WARM_UP visitors, four at a time, so every instance has loaded its modules,
    // filled its connection pools and compiled its hot paths before anything is counted.
    const lanes = Math.min(4, booths.length);
    const warmUpUsers: number[] = [];
    await Promise.all(
      Array.from({ length: lanes }, async (_, lane) => {
        for (let n = lane; n < WARM_UP; n += lanes) {
          const booth = booths[n % booths.length]!;
          const visitor = await signIn(api, 'regular', phone());
          warmUpUsers.push(visitor.userId);
          await pay(api, visitor.token, booth.id, templateId);
          await capture(api, visitor.token, booth.id, templateId);
        }
      }),
    );
    // Their photos and previews in, so none of that work falls into the idle window.
    await until(
      async () => {
        const state = await installation.deliveries(warmUpUsers);
        return state.items >= WARM_UP && state.complete === state.items;
      },
      'the warm-up photos and previews',
      120_000,
    );
    await sleep(1000);
    // What the instances use doing nothing (jobs, health checks, the booths' heartbeats).
    const idleBefore = cpuAt();
    await sleep(IDLE_MS);
    const idlePerInstance = cpuAt().map((after, index) => after - idleBefore[index]!);
    api.calls.length = 0;
    const onlineBefore = await installation.boothsOnline();

    const countsBefore = COUNT
      ? await Promise.all(installation.instances.map((instance) => counters(instance.port)))
      : [];
    const logFrom = installation.postgres.process.lines.length;
    const instanceLogFrom = installation.instances.map((instance) => instance.process.lines.length);
    const windowStart = monotonicMicros();
    const started = Date.now();
    const cpuBefore = cpuAt();
    const mainThreadAt = () =>
      installation.instances.map((instance) => {
        const pid = instance.process.pid;
        return pid === undefined ? 0 : (threadCpuSeconds(pid).get(pid) ?? 0);
      });
    const mainBefore = mainThreadAt();
    const switchesAt = () =>
      installation.instances
        .map((instance) => instance.process.pid)
        .filter((pid): pid is number => pid !== undefined)
        .map((pid) => contextSwitches(pid))
        .reduce(
          (sum, one) => ({
            voluntary: sum.voluntary + one.voluntary,
            involuntary: sum.involuntary + one.involuntary,
          }),
          { voluntary: 0, involuntary: 0 },
        );
    const switchesBefore = switchesAt();
    const userIds: number[] = [];
    const visits: Promise<void>[] = [];
    let restart: Promise<void> | undefined;
    for (let n = 0; n < visitors; n += 1) {
      const booth = booths[n % booths.length]!;
      const visit = (async () => {
        const visitor = await signIn(api, 'regular', phone());
        userIds.push(visitor.userId);
        await pay(api, visitor.token, booth.id, templateId);
        await capture(api, visitor.token, booth.id, templateId);
      })();
      // Handled by Promise.all below; until then a failure must not end the process before the
      // installation is stopped.
      visit.catch(() => undefined);
      visits.push(visit);
      if (restartOne && n === Math.floor(visitors / 3)) {
        // A rolling restart's step: the instance is stopped gracefully and started again.
        const victim = installation.instances[0]!;
        restart = (async () => {
          await victim.stop();
          await victim.start(90_000);
        })();
      }
      await sleep(intervalMs);
    }
    await Promise.all(visits);
    await restart;

    // Until every photo and its preview is in: the CPU of the whole capture is counted.
    await until(
      async () => {
        const state = await installation.deliveries(userIds);
        return state.items >= visitors && state.complete === state.items;
      },
      'every photo and preview',
      120_000,
    );
    const { deliveryMs } = await installation.deliveries(userIds);
    const onlineAfter = await installation.boothsOnline();
    const elapsedMs = Date.now() - started;
    const cpuAfter = cpuAt();
    const cpuPerInstance = cpuAfter.map((after, index) => after - cpuBefore[index]!);
    const mainThreadPerInstance = mainThreadAt().map((after, index) => after - mainBefore[index]!);
    const switchesAfter = switchesAt();
    const residentMiB = installation.instances.map((instance) =>
      instance.process.pid === undefined ? 0 : residentBytes(instance.process.pid) / 2 ** 20,
    );
    const windowEnd = monotonicMicros();
    if (profileDir) {
      writeFileSync(
        path.join(profileDir, 'window.json'),
        JSON.stringify({
          start: windowStart,
          end: windowEnd,
          instances: installation.instances.map((instance, index) => ({
            name: instance.name,
            pid: instance.process.pid,
            cpuSeconds: cpuPerInstance[index],
          })),
        }),
      );
    }
    if (COUNT) {
      const countsAfter = await Promise.all(
        installation.instances.map((instance) => counters(instance.port)),
      );
      const statements = statementsByInstance(installation.postgres.process.lines.slice(logFrom));
      console.log(`${label}: counted in the window, per instance`);
      installation.instances.forEach((instance, index) => {
        const before = countsBefore[index]!;
        const metricLines = [...countsAfter[index]!]
          .map(([name, value]) => [name, value - (before.get(name) ?? 0)] as const)
          .filter(([, delta]) => delta > 0)
          .map(([name, delta]) => `    ${name} ${delta}`);
        const mine = [...(statements.get(instance.name) ?? new Map<string, number>())].sort(
          (a, b) => b[1] - a[1],
        );
        const total = mine.reduce((sum, [, count]) => sum + count, 0);
        console.log(
          [
            `  instance ${instance.name} (pid ${instance.process.pid}):`,
            ...metricLines,
            ...garbageCollections(instance.process.lines.slice(instanceLogFrom[index])),
            `    SQL statements: ${total}`,
            ...mine.map(([words, count]) => `      ${String(count).padStart(6)}  ${words}`),
          ].join('\n'),
        );
      });
    }
    const latencies = api.calls.map((call) => call.ms);
    const served = requestsServed(installation, started);
    return {
      label,
      instances,
      captures: visitors,
      requests: served.reduce((a, b) => a + b, 0),
      requestsPerInstance: served,
      // A restarted instance's CPU is split over two processes: not comparable.
      cpuSeconds: restartOne ? undefined : cpuPerInstance.reduce((a, b) => a + b, 0),
      cpuPerInstance,
      mainThreadPerInstance,
      switches: {
        voluntary: switchesAfter.voluntary - switchesBefore.voluntary,
        involuntary: switchesAfter.involuntary - switchesBefore.involuntary,
      },
      residentMiB,
      idlePerSecond: idlePerInstance.map((seconds) => seconds / (IDLE_MS / 1000)),
      elapsedMs,
      p50: percentile(latencies, 50),
      p99: percentile(latencies, 99),
      failedAnswers: api.calls.filter((call) => call.status === 0 || call.status >= 500).length,
      capturesPerMinute: (visitors / elapsedMs) * 60_000,
      deliveryP50: percentile(deliveryMs, 50),
      deliveryP99: percentile(deliveryMs, 99),
      boothsOnline: [onlineBefore, onlineAfter],
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
      `  ${BOOTHS} booths, online ${result.boothsOnline.join(' → ')}`,
      `  ${result.captures} captures, ${result.requests} API requests served (${result.requestsPerInstance.join(' + ')}), ${result.capturesPerMinute.toFixed(1)} captures/min`,
      `  ${cpu}`,
      `  of which the main threads ${result.mainThreadPerInstance.map((s) => `${s.toFixed(2)} s`).join(' + ')}, the other threads ${result.cpuPerInstance.map((s, index) => `${(s - result.mainThreadPerInstance[index]!).toFixed(2)} s`).join(' + ')}`,
      // A restarted instance's switches are split over two processes: left out.
      ...(result.cpuSeconds === undefined
        ? []
        : [
            `  main threads' context switches per API request: ${(result.switches.voluntary / result.requests).toFixed(2)} voluntary (the event loop waiting), ${(result.switches.involuntary / result.requests).toFixed(2)} involuntary (a core taken away)`,
          ]),
      `  resident memory at the end ${result.residentMiB.map((mib) => `${mib.toFixed(0)} MiB`).join(' + ')}`,
      `  visitor API p50 ${ms(result.p50)}, p99 ${ms(result.p99)}; lost or 5xx answers ${result.failedAnswers}`,
      `  idle CPU ${result.idlePerSecond.map((s) => `${(s * 1000).toFixed(1)} ms/s`).join(' + ')} per instance; the load took ${(result.elapsedMs / 1000).toFixed(1)} s, so about ${((result.idlePerSecond.reduce((a, b) => a + b, 0) * result.elapsedMs) / 1000).toFixed(2)} s of the CPU above is the instances' idle cost`,
      `  delivery (accepted → uploaded) p50 ${ms(result.deliveryP50)}, p99 ${ms(result.deliveryP99)}`,
    ].join('\n'),
  );
}

console.log(
  `bench:cluster: ${VISITORS} visitors, one every ${INTERVAL_MS} ms, over ${BOOTHS} booths (sign-in, sandbox payment, capture)${process.env.BENCH_CLUSTER_ENV ? `; settings ${process.env.BENCH_CLUSTER_ENV}` : ''}`,
);
/** The run named in BENCH_CLUSTER_RUNS, reported, and compared with the single instance's. */
async function runIfAsked(
  label: string,
  options: RunOptions,
  against?: RunResult,
): Promise<RunResult | undefined> {
  if (!RUNS.includes(options.name)) return undefined;
  const result = await run(label, options);
  report(result);
  if (against) compare(against, result, options.name);
  return result;
}

const one = await runIfAsked('one instance behind haproxy', { name: 'one', instances: 1 });
// What a second instance costs by being there, not by serving: haproxy sends every request to
// the first (the second is its backup), the second still hears the broker and runs the jobs.
await runIfAsked(
  'two instances, the second a standby (haproxy backup, serving nothing)',
  { name: 'standby', instances: 2, serving: 1 },
  one,
);
await runIfAsked('two instances behind haproxy', { name: 'two', instances: 2 }, one);
// Each of two instances at the single instance's rate: the visitors twice as fast. What being
// several costs (coordination, jobs on both) without the cost of each process serving fewer
// requests a second (docs/benchmarks.md, "Two instances").
await runIfAsked(
  'two instances behind haproxy, visitors at twice the rate',
  { name: 'twofold', instances: 2, rate: 2 },
  one,
);
if (RUNS.includes('restart')) {
  const rolling = await run('two instances, one restarted during the load', {
    name: 'restart',
    instances: 2,
    restartOne: true,
  });
  report(rolling);
  if (one) {
    console.log(
      `the single instance's p99 ${ms(one.p99)} (${one.p99 < 200 ? 'under' : 'NOT under'} 200 ms); the pair while one restarts: p99 ${ms(rolling.p99)}, ${rolling.failedAnswers} lost or 5xx answers`,
    );
  }
}

function compare(one: RunResult, two: RunResult, name: string): void {
  // Per capture and per request: a run at another rate has more of both.
  const ratio = (value: (result: RunResult) => number, per: (result: RunResult) => number) =>
    (value(two) / per(two) / (value(one) / per(one))).toFixed(3);
  const captures = (result: RunResult) => result.captures;
  const requests = (result: RunResult) => result.requests;
  const cpu = (result: RunResult) => result.cpuSeconds!;
  /** The CPU of the load itself: the total less what the instances use doing nothing. */
  const busy = (result: RunResult) =>
    result.cpuSeconds! -
    (result.idlePerSecond.reduce((a, b) => a + b, 0) * result.elapsedMs) / 1000;
  const main = (result: RunResult) => result.mainThreadPerInstance.reduce((a, b) => a + b, 0);
  const other = (result: RunResult) => result.cpuSeconds! - main(result);
  console.log(
    `  ${name} / one, per capture: main threads ×${ratio(main, captures)}, the other threads ×${ratio(other, captures)}`,
  );
  console.log(
    `  ${name} / one: CPU per capture ×${ratio(cpu, captures)}, per API request ×${ratio(cpu, requests)}; less the idle cost: per capture ×${ratio(busy, captures)}, per API request ×${ratio(busy, requests)}`,
  );
}
