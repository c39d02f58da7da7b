/**
 * npm run bench:cluster: does capacity grow with instances? (issue 40)
 *
 * Each server instance runs in a Linux control group of its own with a CPU quota
 * (CLUSTER_INSTANCE_CPU cores, default 0.3; apps/server/test/cluster/cgroup.ts, v1 or v2), as a
 * machine of its own would have a fixed CPU, while PostgreSQL, Mosquitto, haproxy, the booths and
 * this load generator use the rest of the machine. The installation is the two-instance fault
 * test's (a private PostgreSQL and Mosquitto, the instances as the systemd unit starts them,
 * haproxy in front, BENCH_CLUSTER_BOOTHS simulated booths in fleets of
 * BENCH_CLUSTER_BOOTHS_PER_PROCESS).
 *
 * For 1, 2 and 3 instances (BENCH_CLUSTER_SETUPS) it finds the capacity: the highest rate of
 * visitors (arriving evenly, each at the next booth) the setup holds for BENCH_CLUSTER_STEP_SECONDS
 * with the visitors' API p99 under BENCH_CLUSTER_P99_MS (300), no failed answer (a lost
 * connection or a 5xx), and every photo and preview in within BENCH_CLUSTER_DRAIN_SECONDS after.
 * A visitor signs in with a code (sign-up, the code from the outbox, verify), opens the booth page
 * (the booth, its templates, the visit), pays in the sandbox when BENCH_CLUSTER_PRICE_PAISE is
 * above 0 (default 0: a free booth), captures, opens My Media and the wall. The search multiplies
 * the rate by 1.5 while a step passes (or lowers it by a quarter while none has), then halves the
 * interval between the last pass and the first failure (BENCH_CLUSTER_STEPS steps in all per
 * setup). Between steps the instances go back to idle. A step lost on p99 alone while an
 * instance was under BENCH_CLUSTER_QUOTA_REACHED of its quota is run once more at the same rate
 * (once per setup; both printed): a few slow requests are a tail, not the setup's capacity.
 * The summary also prints what a visitor costs each setup in instance CPU (median over the steps
 * held, the idle cost taken off) and its ratio to one instance's: the efficiency asked of the CPU,
 * which the p99 of one step's slowest requests does not move.
 *
 * Before the steps each setup is measured BENCH_CLUSTER_IDLE_SECONDS (30; 0: not) with no
 * visitors: each instance's CPU with nothing but its job ticks, the balancer's checks and the
 * booths' health reports to do — a cost every instance adds, whatever the load.
 *
 * Each step prints captures/min, API requests/s, p99, each instance's CPU use against its quota
 * (the group's cpuacct usage) and how often it was throttled, and PostgreSQL's, the broker's,
 * the booths', haproxy's and this process's CPU, and the machine's. A capacity figure is only
 * reported when, at the first failing rate, every instance used at least
 * BENCH_CLUSTER_QUOTA_REACHED (0.85) of its quota: otherwise the limit was elsewhere, and the bench
 * says where. Then the efficiency capacity(N) / (N × capacity(1)).
 *
 * The booths: BENCH_CLUSTER_BOOTHS simulated booths share, per fleet process, one photo per shot
 * and one composed print per template (BOOTH_FLEET_REUSE_PRINT, apps/booth-agent/src/fleet-reuse.ts;
 * BENCH_CLUSTER_REUSE_PRINT=false draws and composes every capture as a booth does). The server's
 * work per capture is unchanged — it is sent a full-size print of the same size and format and
 * makes its preview from it — but the booths' CPU per capture falls from about 310 ms to 50–100
 * ms (printed per step), so the booths no longer take the machine the instances need.
 *
 * Needs root and a writable cgroup hierarchy with the cpu controller; without one it says so and
 * exits with status 2. BENCH_CLUSTER_ENV (space-separated NAME=value) adds server settings.
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { CgroupUnavailable, CpuGroup, cpuHierarchy } from '../apps/server/test/cluster/cgroup.js';
import {
  cpuSeconds,
  processTreeSeconds,
  sleep,
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

const num = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value <= 0) {
    console.error(`${name}: a number above 0, got ${process.env[name]}`);
    process.exit(1);
  }
  return value;
};

const INSTANCE_CPU = num('CLUSTER_INSTANCE_CPU', 0.3);
/**
 * The quota's period: 10 ms, so an instance that used its share waits at most 7 ms (at 0.3 core)
 * rather than 70 ms of the kernel's default 100 ms — closer to a slower machine of its own, which
 * never stops for a burst. 100000 for the kernel's (and Docker's --cpus) default.
 */
const PERIOD_US = num('CLUSTER_INSTANCE_CPU_PERIOD_US', 10_000);
const SETUPS = (process.env.BENCH_CLUSTER_SETUPS ?? '1,2,3').split(',').map(Number);
const BOOTHS = num('BENCH_CLUSTER_BOOTHS', 100);
const BOOTHS_PER_PROCESS = num('BENCH_CLUSTER_BOOTHS_PER_PROCESS', 25);
const STEP_SECONDS = num('BENCH_CLUSTER_STEP_SECONDS', 15);
const STEPS = num('BENCH_CLUSTER_STEPS', 6);
/** The first step's rate for one instance (visitors per second); N instances start at N ×. */
const START_RATE = num('BENCH_CLUSTER_START_RATE', 1);
const P99_MS = num('BENCH_CLUSTER_P99_MS', 300);
const QUOTA_REACHED = num('BENCH_CLUSTER_QUOTA_REACHED', 0.85);
const DRAIN_SECONDS = num('BENCH_CLUSTER_DRAIN_SECONDS', 20);
const PRICE_PAISE = Number(process.env.BENCH_CLUSTER_PRICE_PAISE ?? 0);
const WARM_UP = Number(process.env.BENCH_CLUSTER_WARM_UP ?? 12);
/** Seconds of no visitors measured before the steps: each instance's CPU with nothing to do. */
const IDLE_SECONDS = Number(process.env.BENCH_CLUSTER_IDLE_SECONDS ?? 30);
const REUSE_PRINT = !['0', 'false'].includes(process.env.BENCH_CLUSTER_REUSE_PRINT ?? 'true');
/**
 * The installation's weight on a busy machine (cgroup cpu.shares, 1024 = everyone else's): the
 * instances' groups and one group for the rest of the installation (this process, PostgreSQL,
 * the broker, haproxy, the booths) get this much, so the instances reach their quota while other
 * work shares the machine. 1024: no advantage.
 */
const SHARES = num('BENCH_CLUSTER_CPU_SHARES', 4096);

/** Production's job intervals and log level; then BENCH_CLUSTER_ENV's settings. */
// The request log costs each instance a line per request: production logs at info too.
const ENV = clusterBenchEnv({ LOG_LEVEL: 'info' });

let phoneCounter = 0;
const phone = () => {
  phoneCounter += 1;
  return `+917${String(process.pid % 10000).padStart(4, '0')}${String(phoneCounter).padStart(5, '0')}`;
};

/** The machine's busy and total CPU time so far (/proc/stat's first line, seconds). */
function machineSeconds(): { busy: number; total: number } {
  const [, ...values] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.split(/\s+/);
  const ticks = values.filter((value) => value !== '').map(Number);
  const total = ticks.reduce((a, b) => a + b, 0);
  const idle = (ticks[3] ?? 0) + (ticks[4] ?? 0);
  return { busy: (total - idle) / 100, total: total / 100 };
}

const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

/** The CPU (cores) each part used in a window. */
interface CpuShares {
  instances: number[];
  throttled: number[];
  postgres: number;
  broker: number;
  booths: number;
  haproxy: number;
  loadGenerator: number;
  machine: number;
}

function cpuMeter(installation: Installation, groups: CpuGroup[]): () => CpuShares {
  const pidOf = (process: { pid: number | undefined }) => process.pid ?? 0;
  const read = () => ({
    at: performance.now(),
    instances: groups.map((group) => group.usageSeconds()),
    throttled: groups.map((group) => group.throttling().throttled),
    postgres: processTreeSeconds(pidOf(installation.postgres.process)),
    broker: cpuSeconds(pidOf(installation.mosquitto.process)),
    booths: installation.fleets.reduce(
      (sum, fleet) => sum + processTreeSeconds(pidOf(fleet.process)),
      0,
    ),
    haproxy: cpuSeconds(pidOf(installation.haproxy.process)),
    self: process.cpuUsage(),
    machine: machineSeconds().busy,
  });
  const before = read();
  return () => {
    const after = read();
    const seconds = (after.at - before.at) / 1000;
    const per = (a: number, b: number) => (a - b) / seconds;
    return {
      instances: after.instances.map((value, index) => per(value, before.instances[index]!)),
      throttled: after.throttled.map((value, index) => value - before.throttled[index]!),
      postgres: per(after.postgres, before.postgres),
      broker: per(after.broker, before.broker),
      booths: per(after.booths, before.booths),
      haproxy: per(after.haproxy, before.haproxy),
      loadGenerator:
        (after.self.user + after.self.system - before.self.user - before.self.system) /
        1e6 /
        seconds,
      machine: per(after.machine, before.machine),
    };
  };
}

/**
 * Waits until every instance is back near idle (under a tenth of its quota over a second; at
 * least 3 s, at most 30 s): what one step left running is not measured in the next.
 */
async function settle(groups: CpuGroup[], quota: number): Promise<void> {
  const started = performance.now();
  await sleep(3000);
  while (performance.now() - started < 30_000) {
    const before = groups.map((group) => group.usageSeconds());
    await sleep(1000);
    const busy = groups.some((group, index) => group.usageSeconds() - before[index]! > quota / 10);
    if (!busy) return;
  }
}

interface Step {
  rate: number;
  passed: boolean;
  why: string[];
  capturesPerMinute: number;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  failed: number;
  cpu: CpuShares;
  load: string;
  /** The slowest routes by p99: route, count, p99. */
  slowest: [string, number, number][];
}

/** One visitor's visit, as the web app makes it. */
async function visit(
  api: ApiClient,
  booth: { id: number },
  templateId: number,
  userIds: number[],
): Promise<void> {
  const visitor = await signIn(api, 'regular', phone());
  userIds.push(visitor.userId);
  const token = visitor.token;
  // The booth page: the booth, its templates and the visit.
  await Promise.all([
    api.retried('GET', `/api/regular/devices/${booth.id}`, { token }),
    api.retried('GET', `/api/regular/devices/${booth.id}/templates`, { token }),
    api.retried('GET', `/api/regular/devices/${booth.id}/visit`, { token }),
  ]);
  if (PRICE_PAISE > 0) await pay(api, token, booth.id, templateId);
  await capture(api, token, booth.id, templateId);
  await api.retried('GET', '/api/regular/media', { token });
  await api.retried('GET', '/api/regular/media/public', { token });
}

const pct = (value: number) => `${(value * 100).toFixed(0)}%`;
const cores = (value: number) => value.toFixed(2);

async function step(
  installation: Installation,
  groups: CpuGroup[],
  rate: number,
  nextBooth: () => { id: number },
): Promise<Step> {
  const api = new ApiClient(installation.url);
  const userIds: number[] = [];
  const errors: string[] = [];
  const visits: Promise<void>[] = [];
  const intervalMs = 1000 / rate;
  const count = Math.max(1, Math.round(rate * STEP_SECONDS));
  const started = performance.now();
  const meter = cpuMeter(installation, groups);
  for (let n = 0; n < count; n += 1) {
    const wait = started + n * intervalMs - performance.now();
    if (wait > 0) await sleep(wait);
    const one = visit(api, nextBooth(), installation.templateId, userIds).catch(
      (error: unknown) => {
        errors.push((error as Error).message);
      },
    );
    visits.push(one);
  }
  // The window the arrivals were even in: the CPU is the steady state's.
  const remaining = started + count * intervalMs - performance.now();
  if (remaining > 0) await sleep(remaining);
  const cpu = meter();
  const load = loadavg();
  const windowSeconds = (performance.now() - started) / 1000;
  await Promise.all(visits);
  const why: string[] = [];
  try {
    await until(
      async () => {
        const state = await installation.deliveries(userIds);
        return state.items >= userIds.length - errors.length && state.complete === state.items;
      },
      'every photo and preview',
      DRAIN_SECONDS * 1000,
    );
  } catch {
    const state = await installation.deliveries(userIds);
    why.push(`${state.items - state.complete} photos without their preview ${DRAIN_SECONDS} s on`);
  }
  const latencies = api.calls.map((call) => call.ms);
  const failed = api.calls.filter((call) => call.status === 0 || call.status >= 500).length;
  const p99 = percentile(latencies, 99);
  if (p99 >= P99_MS) why.push(`p99 ${p99.toFixed(0)} ms`);
  if (failed > 0) why.push(`${failed} lost or 5xx answers`);
  if (errors.length > 0) why.push(`${errors.length} visits failed (${errors[0]?.slice(0, 160)})`);
  const byRoute = new Map<string, number[]>();
  for (const call of api.calls) {
    const route = call.url
      .replace(/\?.*$/, '')
      .replace(/\/\d+/g, '/:id')
      .replace(/\/[\w-]{20,}/g, '/:token');
    byRoute.set(route, [...(byRoute.get(route) ?? []), call.ms]);
  }
  const slowest = [...byRoute]
    .map(([route, ms]): [string, number, number] => [route, ms.length, percentile(ms, 99)])
    .sort((a, b) => b[2] - a[2])
    .slice(0, 3);
  return {
    slowest,
    rate,
    passed: why.length === 0,
    why,
    capturesPerMinute: ((count - errors.length) / windowSeconds) * 60,
    requestsPerSecond: api.calls.length / windowSeconds,
    p50: percentile(latencies, 50),
    p99,
    failed,
    cpu,
    load,
  };
}

function describe(result: Step, quota: number): string {
  const { cpu } = result;
  return [
    `  ${result.rate.toFixed(2)} visitors/s (${(result.rate * 60).toFixed(0)}/min): ${result.passed ? 'held' : `NOT held (${result.why.join('; ')})`}`,
    `    ${result.capturesPerMinute.toFixed(0)} captures/min, ${result.requestsPerSecond.toFixed(1)} API req/s, p50 ${result.p50.toFixed(0)} ms, p99 ${result.p99.toFixed(0)} ms, failed ${result.failed}`,
    `    instances ${cpu.instances.map((used) => `${cores(used)} (${pct(used / quota)} of quota)`).join(', ')}; throttled periods ${cpu.throttled.join(', ')}`,
    `    slowest p99: ${result.slowest.map(([route, n, p99]) => `${route} ${p99.toFixed(0)} ms (${n})`).join(', ')}`,
    `    PostgreSQL ${cores(cpu.postgres)}, broker ${cores(cpu.broker)}, booths ${cores(cpu.booths)} (${result.capturesPerMinute > 0 ? ((cpu.booths / (result.capturesPerMinute / 60)) * 1000).toFixed(0) : '–'} ms a capture), haproxy ${cores(cpu.haproxy)}, load generator ${cores(cpu.loadGenerator)}; machine ${cores(cpu.machine)} of ${os.cpus().length} cores busy; load average ${result.load}`,
  ].join('\n');
}

/** Where the limit was when the instances were not at their quota. */
function elsewhere(result: Step): string {
  const { cpu } = result;
  const machineCores = os.cpus().length;
  const parts = [
    ['PostgreSQL', cpu.postgres],
    ['the broker', cpu.broker],
    ['the booths', cpu.booths],
    ['haproxy', cpu.haproxy],
    ['the load generator', cpu.loadGenerator],
  ] as const;
  const [name, used] = [...parts].sort((a, b) => b[1] - a[1])[0]!;
  if (cpu.machine >= machineCores * 0.9) {
    return `the machine: ${cores(cpu.machine)} of ${machineCores} cores busy (load average ${result.load}); of ours, ${name} used most (${cores(used)} cores)`;
  }
  if (used >= 0.9) return `${name}: ${cores(used)} cores (one core is its limit)`;
  return `not CPU: the machine had ${cores(machineCores - cpu.machine)} cores idle and the instances ${cpu.instances.map((value) => cores(value)).join(', ')}; waits (locks, the database, the booths) — look at ${result.why.join('; ')}`;
}

interface Capacity {
  instances: number;
  /** Visitors per second held; undefined when no figure can be given. */
  rate: number | undefined;
  held: Step | undefined;
  failedAt: Step | undefined;
  note: string;
  /**
   * The instances' CPU per visitor (core-seconds) in each step held, the idle cost taken off:
   * what a visitor costs this setup, whatever its tail.
   */
  cpuPerVisitor: number[];
}

async function capacity(instances: number, startRate: number): Promise<Capacity> {
  const groups: CpuGroup[] = [];
  const quota = INSTANCE_CPU;
  const installation = new Installation({
    instances,
    booths: BOOTHS,
    pricePaise: PRICE_PAISE,
    env: { ...(instances === 1 ? { MQTT_SHARE_GROUP: '' } : {}), ...ENV },
    checkIntervalMs: 5000,
    boothsPerProcess: BOOTHS_PER_PROCESS,
    fleetEnv: { BOOTH_FLEET_REUSE_PRINT: String(REUSE_PRINT) },
    groups,
  });
  try {
    for (let index = 0; index < instances; index += 1) {
      groups.push(
        new CpuGroup(`flashbooth-bench-${process.pid}-${index}`, INSTANCE_CPU, PERIOD_US, SHARES),
      );
    }
    await installation.start();
    let boothIndex = 0;
    const nextBooth = () => installation.booths[boothIndex++ % installation.booths.length]!;
    // Warm-up: modules loaded, pools filled, hot paths compiled, before anything is measured.
    const warm = new ApiClient(installation.url);
    for (let n = 0; n < WARM_UP; n += 4) {
      await Promise.all(
        Array.from({ length: Math.min(4, WARM_UP - n) }, () =>
          visit(warm, nextBooth(), installation.templateId, []),
        ),
      );
    }
    await sleep(2000);
    console.log(`${instances} instance(s), each capped at ${quota} core:`);
    /** The instances' CPU with no visitors (cores, all instances together). */
    let idleCores = 0;
    if (IDLE_SECONDS > 0) {
      // What an instance costs with no visitors: job ticks, balancer checks, booths' health reports.
      const meter = cpuMeter(installation, groups);
      await sleep(IDLE_SECONDS * 1000);
      const idle = meter();
      idleCores = idle.instances.reduce((sum, used) => sum + used, 0);
      console.log(
        `  idle (${IDLE_SECONDS} s, no visitors): instances ${idle.instances.map((used) => `${(used * 1000).toFixed(1)} ms/s (${pct(used / quota)} of quota)`).join(', ')}; PostgreSQL ${cores(idle.postgres)}, booths ${cores(idle.booths)}; machine ${cores(idle.machine)} busy; load average ${loadavg()}`,
      );
    }
    let held: Step | undefined;
    let failedAt: Step | undefined;
    let rate = startRate;
    let repeated = false;
    const cpuPerVisitor: number[] = [];
    for (let n = 0; n < STEPS; n += 1) {
      let result = await step(installation, groups, rate, nextBooth);
      console.log(describe(result, quota));
      // A step lost to its slowest requests while the instances were well under their quota is
      // a tail, not a capacity: run that rate once more (once per setup) before it counts.
      const underQuota = result.cpu.instances.some((used) => used < QUOTA_REACHED * quota);
      const onP99Alone = result.why.every((why) => why.startsWith('p99'));
      if (!result.passed && underQuota && onP99Alone && !repeated) {
        repeated = true;
        await settle(groups, quota);
        console.log('  (the instances were under their quota: the same rate once more)');
        result = await step(installation, groups, rate, nextBooth);
        console.log(describe(result, quota));
      }
      if (result.passed) {
        held = result;
        const busy = result.cpu.instances.reduce((sum, used) => sum + used, 0) - idleCores;
        cpuPerVisitor.push(busy / result.rate);
      } else if (!failedAt || result.rate < failedAt.rate) failedAt = result;
      if (held && failedAt) {
        if ((failedAt.rate - held.rate) / held.rate < 0.08) break;
        rate = (held.rate + failedAt.rate) / 2;
      } else if (held) rate = held.rate * 1.5;
      // Nothing held yet: a quarter lower (halving from a start near the expected capacity
      // leaves most of the steps far below it).
      else rate = failedAt!.rate * 0.75;
      // The queues drain and the instances go back to idle between steps (after an overloaded
      // step, the uploads and previews it left would otherwise count against the next).
      await settle(groups, quota);
    }
    const noFigure = (note: string): Capacity => ({
      instances,
      rate: undefined,
      held,
      failedAt,
      cpuPerVisitor,
      note,
    });
    if (!held) return noFigure('no rate was held');
    if (!failedAt) {
      return noFigure(
        `every rate up to ${held.rate.toFixed(2)} visitors/s was held: more steps (BENCH_CLUSTER_STEPS) or a higher start (BENCH_CLUSTER_START_RATE) needed`,
      );
    }
    const reached = failedAt.cpu.instances.every((used) => used >= QUOTA_REACHED * quota);
    if (!reached) {
      return noFigure(
        `the instances did not reach their quota at ${failedAt.rate.toFixed(2)} visitors/s (${failedAt.cpu.instances.map((used) => pct(used / quota)).join(', ')}): the limit was elsewhere — ${elsewhere(failedAt)}`,
      );
    }
    return { instances, rate: held.rate, held, failedAt, cpuPerVisitor, note: '' };
  } finally {
    await installation.stop();
    for (const group of groups) group.remove();
  }
}

try {
  cpuHierarchy();
  new CpuGroup(`flashbooth-bench-${process.pid}-probe`, INSTANCE_CPU, PERIOD_US).remove();
} catch (error) {
  if (error instanceof CgroupUnavailable) {
    console.error(`bench:cluster needs a CPU quota per instance: ${error.message}`);
    process.exit(2);
  }
  throw error;
}

// The rest of the installation: this process and every child it starts but the instances.
const rest = new CpuGroup(`flashbooth-bench-${process.pid}-rest`, undefined, PERIOD_US, SHARES);
rest.joinSelf();
const leaveRest = () => {
  CpuGroup.leave();
  rest.remove();
};
console.log(
  `bench:cluster: capacity per capped instance (${INSTANCE_CPU} core each, period ${PERIOD_US / 1000} ms), ${BOOTHS} booths (${REUSE_PRINT ? 'one photo and print per fleet, reused' : 'each capture drawn and composed'}), visitor = sign-in, booth page, ${PRICE_PAISE > 0 ? 'payment, ' : ''}capture, My Media, wall; held = p99 < ${P99_MS} ms, no failed answer, every preview in; ${STEP_SECONDS} s a step; weight ${SHARES} (cpu.shares); machine ${os.cpus().length} cores, load average ${loadavg()}${process.env.BENCH_CLUSTER_ENV ? `; settings ${process.env.BENCH_CLUSTER_ENV}` : ''}`,
);
const results: Capacity[] = [];
try {
  for (const instances of SETUPS) {
    const one = results.find((result) => result.instances === 1)?.rate;
    const start = one ? Math.max(START_RATE, 0.8 * instances * one) : START_RATE * instances;
    const result = await capacity(instances, start);
    results.push(result);
    console.log(
      result.rate === undefined
        ? `  → no capacity figure for ${instances}: ${result.note}`
        : `  → capacity of ${instances}: ${result.rate.toFixed(2)} visitors/s (${(result.rate * 60).toFixed(0)}/min), ${result.held!.capturesPerMinute.toFixed(0)} captures/min, ${result.held!.requestsPerSecond.toFixed(1)} API req/s, p99 ${result.held!.p99.toFixed(0)} ms; at ${result.failedAt!.rate.toFixed(2)}/s the instances used ${result.failedAt!.cpu.instances.map((used) => pct(used / INSTANCE_CPU)).join(', ')} of their quota`,
    );
  }
} finally {
  leaveRest();
}
console.log('summary:');
const single = results.find((result) => result.instances === 1);
for (const result of results) {
  const line = `  ${result.instances} instance(s): ${result.rate === undefined ? `no figure (${result.note})` : `${(result.rate * 60).toFixed(0)} visitors/min`}`;
  if (result.instances > 1 && single?.rate !== undefined && result.rate !== undefined) {
    const efficiency = result.rate / (result.instances * single.rate);
    const goal = result.instances === 2 ? 0.9 : 0.85;
    console.log(
      `${line}, efficiency ${efficiency.toFixed(2)} (goal ≥ ${goal}: ${efficiency >= goal ? 'met' : 'NOT met'})`,
    );
  } else console.log(line);
}
// The same question asked of the CPU: what a visitor costs each setup (median over the steps it
// held, idle taken off). With no work repeated per instance it stays the same as instances are
// added, and capacity grows with the instances' CPU, whatever the tails decided above.
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? Number.NaN : sorted[Math.floor((sorted.length - 1) / 2)]!;
};
const singleCost = single ? median(single.cpuPerVisitor) : Number.NaN;
for (const result of results) {
  const cost = median(result.cpuPerVisitor);
  const ratio = result.instances > 1 && Number.isFinite(singleCost) ? singleCost / cost : undefined;
  console.log(
    `  ${result.instances} instance(s): ${Number.isFinite(cost) ? `${(cost * 1000).toFixed(0)} ms of instance CPU a visitor (median of ${result.cpuPerVisitor.length} steps held)` : 'no step held'}${ratio === undefined || !Number.isFinite(ratio) ? '' : `, CPU efficiency ${ratio.toFixed(2)} (one instance's cost / this one's)`}`,
  );
}
console.log(`load average at the end ${loadavg()}`);
process.exit(results.every((result) => result.rate !== undefined) ? 0 : 1);
