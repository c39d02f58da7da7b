/**
 * Live device status (issue 11): how long from a booth's status message until an open console
 * stream has it, with BENCH_BOOTHS (1,000) booths each changing status once a second, and the
 * server's CPU and memory while it holds them.
 *
 * Everything is real and in this one process: the app from buildApp() on 127.0.0.1 with the
 * embedded MQTT broker (random port) and PGlite in memory; the booths are mqtt.js clients logged
 * in with their device's credentials (devices inserted through DevicesRepository with a secret,
 * as POST devices does), each publishing a retained status once a second, staggered over the
 * second, that is a real change every time (idle/busy alternating, prints_left counting down);
 * the console is one GET /api/enterprise/devices/status-stream read with node:http as a super
 * user (a token signed with the app's key for the SUPER_USER_PHONES user).
 *
 * Latency = from just before the booth's publish call until the stream's event for that
 * (device, prints_left) is parsed: broker, the server's MQTT client, the database write
 * (recordStatus), the feed and the HTTP stream. CPU and RSS are process.cpuUsage() and
 * process.memoryUsage().rss of this process, sampled every second: they include the 1,000 MQTT
 * clients and the console reader, so they overstate the server's own share.
 *
 * Usage: npm run bench:status
 * BENCH_BOOTHS (1000), BENCH_SECONDS (30, measured), BENCH_WARMUP_SECONDS (5).
 */
import { get as httpGet, type IncomingMessage } from 'node:http';
import os from 'node:os';
import {
  type DeviceStatusEvent,
  type DeviceStatusMessage,
  mqttTopics,
} from '@flashbooth/contracts';
import mqtt, { type MqttClient } from 'mqtt';
import { openDatabase } from '../apps/server/src/db/client.js';
import { DevicesRepository } from '../apps/server/src/modules/devices/devices.repository.js';
import { UsersRepository } from '../apps/server/src/modules/users/users.repository.js';
import { AccessTokens } from '../apps/server/src/security/access-tokens.js';
import {
  hashDeviceSecret,
  newDeviceSecret,
  newThingName,
} from '../apps/server/src/security/device-credentials.js';
import { benchConfig, listenOnLoopback, percentile } from './bench-support.js';

const BOOTHS = Number(process.env.BENCH_BOOTHS ?? 1000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 30);
const WARMUP_SECONDS = Number(process.env.BENCH_WARMUP_SECONDS ?? 5);
const CONNECT_CONCURRENCY = 50;
const SUPER_PHONE = '+919999900001';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Booth {
  id: number;
  thingName: string;
  secret: string;
  client?: MqttClient;
  tick: number;
}

async function main() {
  const config = benchConfig({
    MQTT_PORT: '0',
    MQTT_HOST: '127.0.0.1',
    SUPER_USER_PHONES: SUPER_PHONE,
  });
  const database = await openDatabase({});
  const { app, base } = await listenOnLoopback(config, database);
  const brokerUrl = app.deviceBrokerUrl!;

  // The console: the seeded super user's token, signed with the app's own key.
  const superUser = await new UsersRepository(database.db).findByPhone('enterprise', SUPER_PHONE);
  const tokens = new AccessTokens(config.authSecret, 3600, () => new Date());
  const token = await tokens.sign({ userId: superUser!.id, pool: 'enterprise' });

  // The booths: devices with credentials, as POST devices makes them.
  const repository = new DevicesRepository(database.db);
  const booths: Booth[] = [];
  for (let i = 0; i < BOOTHS; i += 1) {
    const thingName = newThingName();
    const secret = newDeviceSecret();
    const id = await repository.create({
      name: `Bench ${i}`,
      thingName,
      secretHash: hashDeviceSecret(secret),
    });
    if (id === undefined) throw new Error('thing name taken');
    booths.push({ id, thingName, secret, tick: 0 });
  }

  // Sent (device id, prints_left) → when; the stream's events are matched against it.
  const sent = new Map<string, number>();
  const latencies: number[] = [];
  let measuring = false;
  let received = 0;
  let unmatched = 0;

  const stream = await new Promise<IncomingMessage>((resolve, reject) => {
    httpGet(
      `${base}/api/enterprise/devices/status-stream`,
      { agent: false, headers: { authorization: `Bearer ${token}` } },
      resolve,
    ).once('error', reject);
  });
  if (stream.statusCode !== 200) throw new Error(`stream answered ${stream.statusCode}`);
  stream.setEncoding('utf8');
  let buffer = '';
  stream.on('data', (chunk: string) => {
    buffer += chunk;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = block.split('\n').find((line) => line.startsWith('data: '));
      if (!data) continue;
      const event = JSON.parse(data.slice(6)) as DeviceStatusEvent;
      const key = `${event.id}:${event.prints_left}`;
      const at = sent.get(key);
      if (at === undefined) {
        unmatched += 1;
        continue;
      }
      sent.delete(key);
      received += 1;
      if (measuring) latencies.push(performance.now() - at);
    }
  });

  console.log(`connecting ${BOOTHS} booths to ${brokerUrl} …`);
  let next = 0;
  await Promise.all(
    Array.from({ length: CONNECT_CONCURRENCY }, async () => {
      while (next < booths.length) {
        const booth = booths[next++]!;
        booth.client = await mqtt.connectAsync(brokerUrl, {
          clientId: booth.thingName,
          username: booth.thingName,
          password: booth.secret,
          clean: true,
          reconnectPeriod: 0,
          will: {
            topic: mqttTopics.status(booth.thingName),
            payload: Buffer.from(JSON.stringify({ status: 'offline' })),
            qos: 1,
            retain: true,
          },
        });
        (booth.client.stream as { setNoDelay?: (on: boolean) => void }).setNoDelay?.(true);
      }
    }),
  );

  const publish = (booth: Booth) => {
    booth.tick += 1;
    const message: DeviceStatusMessage = {
      status: booth.tick % 2 === 0 ? 'idle' : 'busy',
      software_version: '1.0.0',
      prints_left: 100_000 - (booth.tick % 100_000),
      settings_revision: 0,
    };
    sent.set(`${booth.id}:${message.prints_left}`, performance.now());
    booth.client!.publish(mqttTopics.status(booth.thingName), JSON.stringify(message), {
      qos: 1,
      retain: true,
    });
  };

  // Each booth once a second, spread evenly over the second.
  const timers: NodeJS.Timeout[] = [];
  booths.forEach((booth, i) => {
    timers.push(
      setTimeout(
        () => {
          publish(booth);
          timers.push(setInterval(() => publish(booth), 1000));
        },
        Math.floor((i * 1000) / BOOTHS),
      ),
    );
  });

  console.log(`warming up ${WARMUP_SECONDS} s, then measuring ${SECONDS} s …`);
  await sleep(WARMUP_SECONDS * 1000);
  measuring = true;
  const cpuSamples: number[] = [];
  const rssSamples: number[] = [];
  let lastCpu = process.cpuUsage();
  let lastWall = performance.now();
  const sentBefore = received;
  for (let s = 0; s < SECONDS; s += 1) {
    await sleep(1000);
    const cpu = process.cpuUsage(lastCpu);
    const wall = performance.now() - lastWall;
    cpuSamples.push(((cpu.user + cpu.system) / 1000 / wall) * 100);
    rssSamples.push(process.memoryUsage().rss);
    lastCpu = process.cpuUsage();
    lastWall = performance.now();
  }
  measuring = false;
  const deliveredInWindow = received - sentBefore;
  for (const timer of timers) clearInterval(timer);
  // Let the last ones arrive; what is still missing then was lost.
  await sleep(2000);
  const missing = sent.size;

  latencies.sort((a, b) => a - b);
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
  const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
  console.log('');
  console.log(
    `machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${mb(os.totalmem())} MiB, load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} (1/5/15 min, at the end)`,
  );
  console.log(
    `booths ${BOOTHS}, one status a second each; measured ${SECONDS} s: ${deliveredInWindow} events (${(deliveredInWindow / SECONDS).toFixed(0)}/s) on the stream`,
  );
  console.log(
    `publish → stream  p50 ${percentile(latencies, 50).toFixed(1)} ms   p99 ${percentile(latencies, 99).toFixed(1)} ms   max ${(latencies.at(-1) ?? 0).toFixed(1)} ms`,
  );
  console.log(
    `process CPU  mean ${mean(cpuSamples).toFixed(0)} %   max ${Math.max(...cpuSamples).toFixed(0)} % (of one core; server and load generator together)`,
  );
  console.log(
    `process RSS  mean ${mb(mean(rssSamples))} MiB   max ${mb(Math.max(...rssSamples))} MiB`,
  );
  console.log(`lost (published, never streamed): ${missing}; unmatched events: ${unmatched}`);

  // No orderly teardown: closing 1,000 booth connections at once overflows Aedes's stack
  // (its publish loop recurses per client); the process ends here.
  stream.destroy();
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
