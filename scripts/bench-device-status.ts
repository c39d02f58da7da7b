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
 * - recorded once, counted exactly: at each edge of the window every fleet holds its booths'
 *   reports (SIGUSR2: nothing leaves, those on their way are waited for and counted; fleet.ts),
 *   the bench waits until the instances and PostgreSQL are quiet, then reads the reports the
 *   booths sent (broker-acked, health included), the status messages the instances received
 *   (flashbooth_mqtt_messages_total{direction="in",kind="status"}, summed over the instances) and
 *   the rows the status-report UPDATE wrote (pg_stat_statements, loaded in the private
 *   PostgreSQL), and releases the booths. Received = sent: none lost or delivered twice between
 *   booth and server; rows = received: each recorded once (fewer: reports superseded in a write
 *   batch by the same booth's newer one, or older than the one recorded, by design);
 * - each lost change is shown with its booth's reports and stream events around it;
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
const METRICS_TOKEN = 'bench-status-metrics-token-0123456789';

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
    env: clusterBenchEnv({
      ...(INSTANCES === 1 ? { MQTT_SHARE_GROUP: '' } : {}),
      // The instances' counts of status messages received, read from each one's /metrics.
      METRICS_TOKEN,
    }),
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

    const cpuNow = () => ({
      instances: groups.map((group) => group.usageSeconds()),
      postgres: processTreeSeconds(installation.postgres.process.pid!),
      broker: cpuSeconds(installation.mosquitto.process.pid!),
      at: Date.now(),
    });
    /** Status messages the instances received so far (their metrics, summed). */
    const receivedNow = async () => {
      let sum = 0;
      for (const instance of installation.instances) {
        const response = await fetch(`${instance.url}/metrics`, {
          headers: { authorization: `Bearer ${METRICS_TOKEN}` },
        });
        const match =
          /^flashbooth_mqtt_messages_total\{direction="in",kind="status"\} (\d+)$/m.exec(
            await response.text(),
          );
        sum += Number(match?.[1] ?? 0);
      }
      return sum;
    };
    const linesOf = (kind: string) =>
      installation.fleets.map(
        (fleet) =>
          parseJsonLines(fleet.process.lines).filter((entry) => entry.fleet === kind).length,
      );
    /** Sends SIGUSR2 to every fleet and waits for each one's next `kind` line. */
    const signalFleets = async (kind: 'held' | 'released') => {
      const before = linesOf(kind);
      for (const fleet of installation.fleets) process.kill(fleet.process.pid!, 'SIGUSR2');
      const deadline = Date.now() + 30_000;
      while (linesOf(kind).some((n, index) => n <= before[index]!)) {
        if (Date.now() > deadline) throw new Error(`the fleets did not say ${kind} within 30 s`);
        await sleep(50);
      }
    };
    /**
     * An edge of the window: the booths held, the instances and PostgreSQL quiet (no status
     * message received and no row written for 1.5 s), then the three counts; the booths go on.
     */
    const edge = async () => {
      const heldAt = Date.now();
      await signalFleets('held');
      const sent = installation.fleets.reduce((sum, fleet) => {
        const held = parseJsonLines(fleet.process.lines).filter((entry) => entry.fleet === 'held');
        return sum + (held.at(-1)!.sent as number);
      }, 0);
      let last = { received: -1, rows: -1 };
      for (;;) {
        const now = { received: await receivedNow(), rows: (await statusWrites()).rows };
        if (now.received === last.received && now.rows === last.rows) break;
        last = now;
        await sleep(1500);
      }
      const writes = await statusWrites();
      await signalFleets('released');
      return { heldAt, releasedAt: Date.now(), sent, received: last.received, writes };
    };

    const before = await edge();
    const windowStart = before.releasedAt;
    const cpuBefore = cpuNow();
    await sleep(SECONDS * 1000);
    const cpuAfter = cpuNow();
    const after = await edge();
    console_(
      `edges: the booths held ${((before.releasedAt - before.heldAt) / 1000).toFixed(1)} s and ${((after.releasedAt - after.heldAt) / 1000).toFixed(1)} s to count (reports sent, messages received and rows written read while nothing moved)`,
    );
    await sleep(GRACE_SECONDS * 1000);

    const changes = installation.fleets
      .flatMap((fleet) => fleetOutput(fleet.process.lines).changes)
      .filter((change) => change.at >= windowStart && change.at < after.heldAt);
    const latencies: number[] = [];
    let lost = 0;
    const byKey = eventsByKey(stream);
    // A change not on the stream is superseded when the booth's next change was written in its
    // place (the status writer keeps the newest of a booth's reports waiting together, by
    // design) and that one reached the stream; lost otherwise.
    const allChanges = installation.fleets.flatMap(
      (fleet) => fleetOutput(fleet.process.lines).changes,
    );
    const nextOf = (change: Change) =>
      allChanges
        .filter((other) => other.booth === change.booth && other.at > change.at)
        .sort((a, b) => a.at - b.at)[0];
    const keyOf = (change: Change) =>
      `${idByThing.get(change.booth)}:${change.status}:${change.printsLeft}`;
    const lostChanges: Change[] = [];
    const superseded: { change: Change; afterMs: number }[] = [];
    for (const change of changes) {
      const at = byKey.get(keyOf(change));
      if (at !== undefined) {
        latencies.push(at - change.at);
        continue;
      }
      const next = nextOf(change);
      if (next && byKey.has(keyOf(next))) superseded.push({ change, afterMs: next.at - change.at });
      else {
        lost += 1;
        lostChanges.push(change);
      }
    }
    const seconds = (after.heldAt - windowStart) / 1000;
    const sent = after.sent - before.sent;
    const received = after.received - before.received;
    const writes = after.writes.rows - before.writes.rows;
    const statements = after.writes.calls - before.writes.calls;
    const cpuSecondsOf = (a: number, b: number) => (a - b) / ((cpuAfter.at - cpuBefore.at) / 1000);
    console_(
      `measured ${seconds.toFixed(0)} s: ${changes.length} status changes (${(changes.length / seconds).toFixed(1)}/s), ${sent} status reports sent by the booths (${(sent / seconds).toFixed(1)}/s, health included), ${received} received by the instances`,
    );
    console_(
      `change → console stream: p50 ${percentile(latencies, 50).toFixed(0)} ms, p99 ${percentile(latencies, 99).toFixed(0)} ms, max ${Math.max(0, ...latencies).toFixed(0)} ms; lost ${lost} of ${changes.length}${superseded.length > 0 ? `; ${superseded.length} more not streamed themselves, superseded by the same booth's next change ${Math.min(...superseded.map((one) => one.afterMs))}–${Math.max(...superseded.map((one) => one.afterMs))} ms later, which was` : ''}`,
    );
    console_(
      `recorded: ${writes} rows written by ${statements} status UPDATE statements for ${received} reports received of ${sent} sent (${received === sent ? 'none lost or doubled on the way' : `${sent - received} not received`}; ${received === 0 ? '-' : (writes / received).toFixed(4)} rows per report received: ${writes === received ? 'each recorded once' : writes > received ? `${writes - received} written more than once` : `${received - writes} superseded or older than the recorded one`})`,
    );
    // Each change not streamed beside its booth's other changes and the stream's events for it.
    const streamEvents = stream.events();
    for (const change of [...lostChanges, ...superseded.map((one) => one.change)].slice(0, 10)) {
      const id = idByThing.get(change.booth);
      const near = (at: number) => Math.abs(at - change.at) <= 10_000;
      const others = allChanges
        .filter(
          (other) =>
            other.booth === change.booth &&
            (other.at !== change.at || other.status !== change.status) &&
            near(other.at),
        )
        .map((other) => `${other.status}/${other.printsLeft} at ${other.at - change.at} ms`);
      const events = streamEvents
        .filter((event) => event.id === id && near(event.at))
        .map((event) => `${event.status}/${event.printsLeft} at ${event.at - change.at} ms`);
      console_(
        `${lostChanges.includes(change) ? 'lost' : 'superseded'}: booth ${change.booth} (id ${id}) → ${change.status}/${change.printsLeft} at ${new Date(change.at).toISOString()}, ${((change.at - windowStart) / 1000).toFixed(1)} s into the window; its other changes within 10 s: ${others.join(', ') || 'none'}; the stream's events for it within 10 s: ${events.join(', ') || 'none'}`,
      );
    }
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
