import { randomUUID } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { createServer, type AddressInfo } from 'node:net';
import {
  type CaptureCommandPayload,
  type DeviceStatusMessage,
  mqttTopics,
} from '@flashbooth/contracts';
import { Aedes } from 'aedes';
import mqtt from 'mqtt';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { LAYOUTS } from '@flashbooth/print-composition';
import { BoothAgent, type BoothAgentOptions } from '../src/agent.js';
import { SimulatedCamera } from '../src/camera/simulated-camera.js';
import { silentLog } from '../src/log.js';
import { SimulatedPrinter } from '../src/printer/simulated-printer.js';
import { BOOTH_MESSAGES } from '../src/replies.js';
import { eventually, gatedCamera, type Harness, sleep, useHarness } from './harness.js';

let h: Harness;
useHarness('flashbooth-agent-', (harness) => {
  h = harness;
});

/** A booth with this file's timers (the harness's, but a 20 ms countdown and default attempts). */
const startAgent = (options: Partial<BoothAgentOptions> = {}) =>
  h.startAgent({ timers: { countdownMs: 20, deliveryRetryMs: 10 }, ...options });

function capturePayload(uploadCount = 1): CaptureCommandPayload {
  const layout = LAYOUTS.landscape3;
  return {
    capture_id: randomUUID(),
    template: {
      id: 7,
      name: 'Three up',
      orientation: layout.orientation,
      is_cut: false,
      is_duplicated: false,
      images: layout.images.map((slot) => ({ ...slot })),
      foreground_url: '/foreground.png',
      capture_kind: 'photo',
      motion: null,
    },
    total_captures: layout.images.length,
    uploads: Array.from({ length: uploadCount }, (_, index) => ({
      media_id: 100 + index,
      upload_url: `${h.httpUrl}/upload/${100 + index}?sig=x`,
      content_type: 'image/jpeg' as const,
    })),
  };
}

describe('BoothAgent on a real broker', () => {
  it('publishes a retained idle status with its version and prints left', async () => {
    const { thingName } = await startAgent({ printsLeft: 321 });
    const [first] = await eventually(
      () => h.statusesOf(thingName),
      (found) => found.length > 0,
    );
    expect(first).toMatchObject({
      status: 'idle',
      software_version: '9.9.9-test',
      prints_left: 321,
      settings_revision: 0,
      at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/),
    });
    // Retained: a client that subscribes later still gets it.
    const late = await mqtt.connectAsync(h.url, { reconnectPeriod: 0 });
    const got = new Promise<DeviceStatusMessage>((resolve) =>
      late.on('message', (_topic, payload) =>
        resolve(JSON.parse(payload.toString()) as DeviceStatusMessage),
      ),
    );
    await late.subscribeAsync(mqttTopics.status(thingName), { qos: 1 });
    expect(await got).toMatchObject({ status: 'idle' });
    await late.endAsync();
  });

  it('connects as its thing name with its secret and a clean session', async () => {
    const { thingName } = await startAgent();
    const client = h.brokerClients.get(thingName);
    expect(client).toBeDefined();
    expect(client?.clean).toBe(true);
  });

  it('answers ping on reply_to with the same id and its current status', async () => {
    const { thingName } = await startAgent({ printsLeft: 500 });
    const sent = h.command(thingName, 'ping');
    expect(await h.replyTo(sent.id)).toEqual({
      id: sent.id,
      status: 'idle',
      software_version: '9.9.9-test',
      prints_left: 500,
      settings_revision: 0,
    });
  });

  it('ignores a command whose expires_at has passed (with or without a zone suffix)', async () => {
    const { thingName } = await startAgent();
    const past = new Date(Date.now() - 1000).toISOString();
    const expired = h.command(thingName, 'ping', {}, past);
    const expiredNoZone = h.command(thingName, 'ping', {}, past.slice(0, 19));
    const fresh = h.command(thingName, 'ping');
    await h.replyTo(fresh.id);
    await sleep(100);
    expect(h.replies.find((reply) => reply.id === expired.id)).toBeUndefined();
    expect(h.replies.find((reply) => reply.id === expiredNoZone.id)).toBeUndefined();
  });

  it('leaves an offline last will when its connection drops, then comes back idle', async () => {
    const { thingName } = await startAgent();
    await eventually(
      () => h.statusesOf(thingName),
      (found) => found.at(-1)?.status === 'idle',
    );
    h.brokerClients.get(thingName)!.conn.destroy();
    await eventually(
      () => h.statusesOf(thingName).map((status) => status.status),
      (found) => found.includes('offline'),
    );
    await eventually(
      () => h.statusesOf(thingName).map((status) => status.status),
      (found) => found.indexOf('offline') < found.lastIndexOf('idle'),
    );
    // Subscribed again after reconnecting.
    const sent = h.command(thingName, 'ping');
    expect(await h.replyTo(sent.id)).toMatchObject({ status: 'idle' });
  });

  it('reports a printer that runs out of paper while the booth stands idle, once', async () => {
    let state: 'idle' | 'paper_out' = 'idle';
    const printer = Object.assign(new SimulatedPrinter(h.spool), {
      status: async () => ({ state, message: state === 'idle' ? null : 'media-empty' }),
    });
    const { thingName } = await h.startAgent({
      printer,
      timers: { healthWatchMs: 20, healthReportMs: 60_000 },
    });
    const printerStates = () =>
      h.statusesOf(thingName).map((status) => status.health?.printer?.state);
    await eventually(printerStates, (states) => states.includes('idle'));
    // Nothing changed: no new report while the booth stands idle.
    const before = h.statusesOf(thingName).length;
    await sleep(200);
    expect(h.statusesOf(thingName)).toHaveLength(before);

    state = 'paper_out';
    await eventually(printerStates, (states) => states.at(-1) === 'paper_out');
    await sleep(200);
    expect(printerStates().filter((s) => s === 'paper_out')).toHaveLength(1);
    expect(h.statusesOf(thingName).at(-1)).toMatchObject({
      status: 'idle',
      health: { printer: { state: 'paper_out', message: 'media-empty' } },
    });
  });

  it('reports offline when stopped', async () => {
    const { agent, thingName } = await startAgent();
    await agent.stop();
    await eventually(
      () => h.statusesOf(thingName).at(-1)?.status,
      (status) => status === 'offline',
    );
  });

  it('runs a capture: accepted, ready, photos, print, idle, then delivers it; one print off the roll', async () => {
    const { agent, thingName } = await startAgent({ printsLeft: 50 });
    const before = new Set(await readdir(h.spool));
    const payload = capturePayload(2);
    const sent = h.command(thingName, 'capture', payload);
    expect(await h.replyTo(sent.id)).toEqual({ id: sent.id, status: 'accepted' });

    // Busy while the session runs: ping still answers, a second capture is refused.
    const ping = h.command(thingName, 'ping');
    expect((await h.replyTo(ping.id)).status).toMatch(/^(ready|processing)$/);
    const second = h.command(thingName, 'capture', capturePayload());
    expect(await h.replyTo(second.id)).toEqual({ id: second.id, error: BOOTH_MESSAGES.busy });

    await eventually(
      () => h.statusesOf(thingName).map((status) => status.status),
      (found) => found.at(-1) === 'idle' && found.includes('ready'),
    );
    await agent.idle();
    await agent.delivered();
    const sequence = h.statusesOf(thingName).map((status) => status.status);
    // Uploads run in the background: the session does not hold the booth for them (statuses
    // about the queue may follow the idle one).
    expect(sequence.slice(sequence.indexOf('ready'), sequence.indexOf('ready') + 3)).toEqual([
      'ready',
      'processing',
      'idle',
    ]);
    expect(sequence.slice(sequence.indexOf('ready'))).not.toContain('uploading');
    expect(h.statusesOf(thingName).at(-1)?.prints_left).toBe(49);
    expect(agent.printsLeft).toBe(49);

    const mine = h.uploads.filter((upload) => /^\/upload\/10[01]\?sig=x$/.test(upload.path));
    expect(mine.map((upload) => upload.path).sort()).toEqual([
      '/upload/100?sig=x',
      '/upload/101?sig=x',
    ]);
    for (const upload of mine) {
      expect(upload.contentType).toBe('image/jpeg');
      const meta = await sharp(upload.body).metadata();
      expect(meta).toMatchObject({ format: 'jpeg', width: 3600, height: 2400 });
    }
    // Each upload is confirmed to the server as this booth.
    const confirmed = h.confirmationRequests.filter((c) =>
      /\/api\/device\/media\/10[01]\/uploaded$/.test(c.path),
    );
    expect(confirmed.map((c) => c.path).sort()).toEqual([
      '/api/device/media/100/uploaded',
      '/api/device/media/101/uploaded',
    ]);
    expect(confirmed[0]?.authorization).toMatch(new RegExp(`^Device ${thingName}:\\S+$`));
    // With when the capture ended, for the server's delivery time.
    expect(h.confirmedCaptureTimes.get(100)).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(agent.deliveryQueue).toMatchObject({ items: 0, bytes: 0, oldest_at: null });
    // The status carries the booth's health, with the last delivery.
    const health = await eventually(
      () => h.statusesOf(thingName).at(-1)?.health,
      (found) => typeof found?.last_delivery_at === 'string',
    );
    expect(health).toMatchObject({
      camera: { driver: 'simulated', ok: true },
      printer: { state: expect.any(String) },
      queue: { items: 0 },
    });
    const spooled = (await readdir(h.spool)).filter((name) => !before.has(name));
    expect(spooled.filter((name) => name.endsWith('-media-100.jpg'))).toHaveLength(1);
  });

  it('runs a capture delivered twice once, during the session and after it (QoS 1 redelivery)', async () => {
    const camera = gatedCamera();
    const { agent, thingName } = await startAgent({ camera, printsLeft: 50 });
    const uploadsBefore = h.uploads.length;
    const sent = h.command(thingName, 'capture', capturePayload(1));
    expect(await h.replyTo(sent.id)).toEqual({ id: sent.id, status: 'accepted' });
    const repliesTo = (id: string) => h.replies.filter((reply) => reply.id === id);
    /** Redelivers the capture, then waits for a later ping's reply: the copy was handled by then. */
    const redeliver = async () => {
      h.redeliver(thingName, sent);
      const ping = h.command(thingName, 'ping');
      await h.replyTo(ping.id);
    };

    await camera.taking;
    await redeliver();
    camera.open();
    await agent.idle();
    await redeliver();
    await agent.idle();
    await agent.delivered();

    // Neither copy was answered (not even "busy") nor started a session of its own.
    expect(repliesTo(sent.id)).toEqual([{ id: sent.id, status: 'accepted' }]);
    expect(agent.printsLeft).toBe(49);
    expect(h.uploads.length - uploadsBefore).toBe(1);
  });

  it('refuses a capture with an error reply when the roll is empty', async () => {
    const { thingName } = await startAgent({ printsLeft: 0 });
    const sent = h.command(thingName, 'capture', capturePayload());
    expect(await h.replyTo(sent.id)).toEqual({ id: sent.id, error: BOOTH_MESSAGES.rollEmpty });
    const ping = h.command(thingName, 'ping');
    expect(await h.replyTo(ping.id)).toMatchObject({ status: 'idle', prints_left: 0 });
  });

  it('refuses a malformed capture and a capture whose foreground cannot be fetched', async () => {
    const { thingName } = await startAgent();
    const malformed = h.command(thingName, 'capture', { template: {} });
    expect((await h.replyTo(malformed.id)).error).toMatch(/^Invalid capture command/);
    const payload = capturePayload();
    payload.template.foreground_url = '/missing.png';
    const missing = h.command(thingName, 'capture', payload);
    expect(await h.replyTo(missing.id)).toEqual({
      id: missing.id,
      error: BOOTH_MESSAGES.foreground,
    });
    const ping = h.command(thingName, 'ping');
    expect(await h.replyTo(ping.id)).toMatchObject({ status: 'idle' });
  });

  it('rejects start() when the broker refuses the login', async () => {
    const strict = await Aedes.createBroker({
      authenticate: (_client, _username, _password, done) =>
        done(
          Object.assign(new Error('Bad user name or password'), { returnCode: 4 }) as never,
          false,
        ),
    });
    const strictTcp = createServer(strict.handle);
    await new Promise<void>((resolve) => strictTcp.listen(0, '127.0.0.1', resolve));
    const agent = new BoothAgent({
      mqttUrl: `mqtt://127.0.0.1:${(strictTcp.address() as AddressInfo).port}`,
      thingName: 'fb-refused',
      secret: 'wrong',
      camera: new SimulatedCamera(),
      printer: new SimulatedPrinter(h.spool),
      softwareVersion: '1',
      log: silentLog,
    });
    await expect(agent.start()).rejects.toThrow(/refused the login of fb-refused/);
    await agent.stop();
    await new Promise<void>((resolve) => strict.close(() => resolve()));
    await new Promise<void>((resolve) => strictTcp.close(() => resolve()));
  });
});
