/**
 * npm run bench:status: live status at scale on capped instances (issue 40). The installation of
 * `npm run bench:cluster` (a private PostgreSQL and Mosquitto, haproxy, the server instances as
 * the systemd unit starts them, each in a cgroup with CLUSTER_INSTANCE_CPU cores; default two
 * instances, BENCH_STATUS_INSTANCES) and BENCH_BOOTHS (5,000) booth agents in fleets of
 * BENCH_BOOTHS_PER_PROCESS (500, apps/booth-agent/src/fleet.ts). Each booth reports as a busy
 * booth does: a status change on average every BENCH_STATUS_CHANGE_SECONDS (30; idle ↔
 * processing, a print taken on the way back), and its health at least every 5 minutes (the
 * agent's own timer); the printed rate is both together.
 *
 * A console (the super user's staff token) reads GET /api/enterprise/devices/status-stream
 * through the balancer for the whole run. Measured over BENCH_SECONDS (120) after
 * BENCH_WARMUP_SECONDS (20):
 * - latency: from just before the booth's status change is published until the console's event
 *   with that (booth, status, prints_left) is parsed; p50/p99/max;
 * - lost: changes sent in the window that never reached the stream (BENCH_STATUS_GRACE_SECONDS,
 *   10, after the window);
 * - recorded once: the rows the status-report UPDATE wrote (pg_stat_statements, loaded in the
 *   private PostgreSQL) against the reports the booths sent (each fleet counts its broker-acked
 *   status reports, health included);
 * - each instance's CPU against its quota, PostgreSQL's and the broker's CPU, the load average.
 */
import os from 'node:os';
import { readFileSync } from 'node:fs';
import { CgroupUnavailable, CpuGroup } from '../apps/server/test/cluster/cgroup.js';
import {
  cpuSeconds,
  parseJsonLines,
  processTreeSeconds,
  sleep,
} from '../apps/server/test/cluster/cluster.js';
import { Installation, SUPER_PHONE } from '../apps/server/test/cluster/installation.js';
import {
  ApiClient,
  percentile,
  signIn,
  StatusStreamClient,
} from '../apps/server/test/cluster/visitors.js';
import { clusterBenchEnv } from './cluster-env.js';

const BOOTHS = Number(process.env.BENCH_BOOTHS ?? 5000);
const PER_PROCESS = Number(process.env.BENCH_BOOTHS_PER_PROCESS ?? 500);
const INSTANCES = Number(process.env.BENCH_STATUS_INSTANCES ?? 2);
const CHANGE_SECONDS = Number(process.env.BENCH_STATUS_CHANGE_SECONDS ?? 30);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 120);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 20);
const GRACE_SECONDS = Number(process.env.BENCH_STATUS_GRACE_SECONDS ?? 10);
const INSTANCE_CPU = Number(process.env.CLUSTER_INSTANCE_CPU ?? 0.3);
const PERIOD_US = Number(process.env.CLUSTER_INSTANCE_CPU_PERIOD_US ?? 10_000);
const SHARES = Number(process.env.BENCH_CLUSTER_CPU_SHARES ?? 4096);
const HEALTH_SECONDS = 300;

const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

interface Change {
  booth: string;
  at: number;
  status: string;
  printsLeft: number;
}

/** The status changes a fleet printed so far, and its latest count of reports sent. */
function fleetOutput(lines: string[]): { changes: Change[]; sent: number } {
  const changes: Change[] = [];
  let sent = 0;
  for (const entry of parseJsonLines(lines)) {
    if (entry.fleet === 'change') {
      changes.push({
        booth: entry.booth as string,
        at: entry.at as number,
        status: entry.status as string,
        printsLeft: entry.printsLeft as number,
      });
    } else if (entry.fleet === 'reports') sent = entry.sent as number;
  }
  return { changes, sent };
}

async function main(): Promise<void> {
  const groups: CpuGroup[] = [];
  let rest: CpuGroup;
  try {
    rest = new CpuGroup(`flashbooth-status-${process.pid}-rest`, undefined, PERIOD_US, SHARES);
    for (let index = 0; index < INSTANCES; index += 1) {
      groups.push(
        new CpuGroup(`flashbooth-status-${process.pid}-${index}`, INSTANCE_CPU, PERIOD_US, SHARES),
      );
    }
  } catch (error) {
    if (error instanceof CgroupUnavailable) {
      console.error(`bench:status needs a CPU quota per instance: ${error.message}`);
      process.exit(2);
    }
    throw error;
  }
  rest.joinSelf();
  // The statements' counts: the status UPDATE's rows are the writes.
  process.env.CLUSTER_POSTGRES_SETTINGS =
    `${process.env.CLUSTER_POSTGRES_SETTINGS ?? ''} shared_preload_libraries=pg_stat_statements`.trim();
  const installation = new Installation({
    instances: INSTANCES,
    booths: BOOTHS,
    boothsPerProcess: PER_PROCESS,
    checkIntervalMs: 5000,
    groups,
    env: clusterBenchEnv(INSTANCES === 1 ? { MQTT_SHARE_GROUP: '' } : {}),
    fleetEnv: { BOOTH_FLEET_STATUS_CHANGE_MS: String(CHANGE_SECONDS * 1000) },
  });
  const console_ = (...parts: string[]) => console.log(parts.join(''));
  console_(
    `bench:status: ${BOOTHS} booths in fleets of ${PER_PROCESS}, ${INSTANCES} instance(s) capped at ${INSTANCE_CPU} core, a status change every ${CHANGE_SECONDS} s on average and health every ${HEALTH_SECONDS / 60} min per booth: ${(BOOTHS / CHANGE_SECONDS + BOOTHS / HEALTH_SECONDS).toFixed(0)} reports/s expected (${(BOOTHS / CHANGE_SECONDS).toFixed(0)} changes + ${(BOOTHS / HEALTH_SECONDS).toFixed(0)} health); load average ${loadavg()}`,
  );
  const started = Date.now();
  let stream: StatusStreamClient | undefined;
  try {
    await installation.start();
    console_(`installation up in ${((Date.now() - started) / 1000).toFixed(0)} s`);
    // The status writer's UPDATE (DevicesRepository.recordReports): its rows are the writes.
    const statusWrites = () => installation.statementCounts('as v(thing_name, status');
    const idByThing = new Map(installation.booths.map((booth) => [booth.thingName, booth.id]));
    const api = new ApiClient(installation.url);
    const staff = await signIn(api, 'enterprise', SUPER_PHONE, 'Console');
    stream = new StatusStreamClient(installation.url, () => staff.token);
    stream.start();
    await statusWrites();
    await sleep(WARMUP_SECONDS * 1000);

    const sentNow = () =>
      installation.fleets.reduce((sum, fleet) => sum + fleetOutput(fleet.process.lines).sent, 0);
    const cpuNow = () => ({
      instances: groups.map((group) => group.usageSeconds()),
      postgres: processTreeSeconds(installation.postgres.process.pid!),
      broker: cpuSeconds(installation.mosquitto.process.pid!),
      at: Date.now(),
    });

    // The window: the counts are read at its edges (the fleets print theirs every 5 s, so the
    // reports' window is the fleets' last count before each edge).
    await sleep(5500);
    const windowStart = Date.now();
    const writesBefore = await statusWrites();
    const sentBefore = sentNow();
    const cpuBefore = cpuNow();
    await sleep(SECONDS * 1000);
    const cpuAfter = cpuNow();
    const windowEnd = Date.now();
    await sleep(5500);
    const sentAfter = sentNow();
    // The writes of the reports sent up to the fleets' last count: a few seconds for the last.
    await sleep(3000);
    const writesAfter = await statusWrites();
    await sleep(Math.max(0, GRACE_SECONDS * 1000 - 8500));

    const changes = installation.fleets
      .flatMap((fleet) => fleetOutput(fleet.process.lines).changes)
      .filter((change) => change.at >= windowStart && change.at < windowEnd);
    const latencies: number[] = [];
    let lost = 0;
    const byKey = eventsByKey(stream);
    for (const change of changes) {
      const id = idByThing.get(change.booth);
      const at = byKey.get(`${id}:${change.status}:${change.printsLeft}`);
      if (at === undefined) lost += 1;
      else latencies.push(at - change.at);
    }
    const seconds = (windowEnd - windowStart) / 1000;
    const sent = sentAfter - sentBefore;
    const writes = writesAfter.rows - writesBefore.rows;
    const cpuSecondsOf = (a: number, b: number) => (a - b) / ((cpuAfter.at - cpuBefore.at) / 1000);
    console_(
      `measured ${seconds.toFixed(0)} s: ${changes.length} status changes (${(changes.length / seconds).toFixed(1)}/s), ${sent} status reports sent by the booths in the fleets' counting window (${(sent / seconds).toFixed(1)}/s, health included)`,
    );
    console_(
      `change → console stream: p50 ${percentile(latencies, 50).toFixed(0)} ms, p99 ${percentile(latencies, 99).toFixed(0)} ms, max ${Math.max(0, ...latencies).toFixed(0)} ms; lost ${lost} of ${changes.length}`,
    );
    console_(
      `recorded: ${writes} rows written by ${writesAfter.calls - writesBefore.calls} status UPDATE statements for ${sent} reports sent (${sent === 0 ? '-' : (writes / sent).toFixed(3)} writes per report; 1.000 = each recorded once)`,
    );
    console_(
      `CPU: instances ${cpuAfter.instances.map((value, index) => `${cpuSecondsOf(value, cpuBefore.instances[index]!).toFixed(2)} (${((cpuSecondsOf(value, cpuBefore.instances[index]!) / INSTANCE_CPU) * 100).toFixed(0)}% of quota)`).join(', ')}; PostgreSQL ${cpuSecondsOf(cpuAfter.postgres, cpuBefore.postgres).toFixed(2)}, broker ${cpuSecondsOf(cpuAfter.broker, cpuBefore.broker).toFixed(2)} cores; stream connections ${stream.connections.length}; machine ${os.cpus().length} cores, load average ${loadavg()}`,
    );
  } finally {
    await stream?.stop();
    await installation.stop();
    CpuGroup.leave();
    rest.remove();
    for (const group of groups) group.remove();
  }
}

/** The first arrival on the stream of each (device id, status, prints left). */
function eventsByKey(stream: StatusStreamClient): Map<string, number> {
  const first = new Map<string, number>();
  for (const connection of stream.connections) {
    for (const event of connection.events) {
      const key = `${event.id}:${event.status}:${event.printsLeft}`;
      if (!first.has(key)) first.set(key, event.at);
    }
  }
  return first;
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
