import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Aedes } from 'aedes';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimulatedCamera } from '../src/camera/simulated-camera.js';
import { checkBroker, doctorCommand, runDoctor } from '../src/doctor.js';
import { SimulatedPrinter } from '../src/printer/simulated-printer.js';

// The doctor against a broker that admits a booth only as itself (the server's rule,
// mqtt-access.ts), an HTTP server answering /api/health, the real ffmpeg test source as the
// camera and the simulated printer.

const THING = 'fb-doctor-test';
const SECRET = 'right-secret';

let broker: Aedes;
let tcp: Server;
let mqttUrl: string;
let http: HttpServer;
let serverUrl: string;
let healthy = true;
let spool: string;
let settingsFile: string;
const now = () => performance.now();

beforeAll(async () => {
  broker = await Aedes.createBroker({
    authenticate: (client, username, password, done) =>
      done(null, client.id === username && username === THING && password?.toString() === SECRET),
  });
  tcp = createServer(broker.handle);
  await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
  mqttUrl = `mqtt://127.0.0.1:${(tcp.address() as AddressInfo).port}`;
  http = createHttpServer((request, response) => {
    if (request.url === '/api/device/whoami') {
      // The server's answers (GET /api/device/whoami, devices.device.routes.ts).
      const [, thing, secret] =
        /^Device ([^:]+):(.+)$/.exec(request.headers.authorization ?? '') ?? [];
      const reason = thing !== THING ? 'unknown_device' : secret !== SECRET ? 'wrong_secret' : null;
      response.writeHead(reason ? 401 : 200, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify(
          reason
            ? { code: 'unauthorized', reason, message: 'refused' }
            : { id: 7, thing_name: THING, name: 'Lobby booth', organization: null },
        ),
      );
      return;
    }
    if (request.url !== '/api/health') {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(healthy ? 200 : 503, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify(healthy ? { status: 'ok' } : { message: 'The database is not reachable.' }),
    );
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  serverUrl = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  spool = await mkdtemp(path.join(os.tmpdir(), 'flashbooth-doctor-'));
  settingsFile = path.join(spool, 'booth.env');
  await writeFile(settingsFile, '');
});

afterAll(async () => {
  await new Promise<void>((resolve) => broker.close(() => resolve()));
  await new Promise<void>((resolve) => tcp.close(() => resolve()));
  await new Promise<void>((resolve) => http.close(() => resolve()));
  await rm(spool, { recursive: true, force: true });
});

describe('checkBroker', () => {
  it('leaves the running agent connected: it connects as <thing>-doctor', async () => {
    const agent = await mqtt.connectAsync(mqttUrl, {
      clientId: THING,
      username: THING,
      password: SECRET,
      reconnectPeriod: 0,
    });
    let agentClosed = false;
    agent.on('close', () => {
      agentClosed = true;
    });
    try {
      const result = await checkBroker(
        { mqttUrl, thingName: THING, secret: SECRET, ownClientId: false, timeoutMs: 3000 },
        now,
      );
      expect(result).toMatchObject({ status: 'pass' });
      expect(result.detail).toMatch(/the broker answers \(it admits the booth only as itself/);
      expect(agentClosed).toBe(false);
      expect(agent.connected).toBe(true);
    } finally {
      await agent.endAsync(true);
    }
  });

  it('with --broker-login, checks the secret', async () => {
    const right = await checkBroker(
      { mqttUrl, thingName: THING, secret: SECRET, ownClientId: true, timeoutMs: 3000 },
      now,
    );
    expect(right).toMatchObject({ status: 'pass', detail: `${mqttUrl}: logged in as ${THING}` });
    const wrong = await checkBroker(
      { mqttUrl, thingName: THING, secret: 'wrong', ownClientId: true, timeoutMs: 3000 },
      now,
    );
    expect(wrong).toMatchObject({
      status: 'fail',
      detail: `${mqttUrl}: the broker refused ${THING}'s login`,
    });
    expect(wrong.fix).toMatch(/^check BOOTH_THING_NAME and BOOTH_SECRET/);
  });

  it('fails a broker that is not there', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const result = await checkBroker(
      {
        mqttUrl: `mqtt://127.0.0.1:${port}`,
        thingName: THING,
        secret: SECRET,
        ownClientId: false,
        timeoutMs: 3000,
      },
      now,
    );
    expect(result).toMatchObject({
      status: 'fail',
      fix: "check BOOTH_MQTT_URL and the booth's internet connection",
    });
    expect(result.detail).toMatch(/ECONNREFUSED/);
  });
});

describe('runDoctor', () => {
  it('checks everything and prints one line each; --print prints a test page', async () => {
    const lines: string[] = [];
    healthy = true;
    const results = await runDoctor(
      {
        camera: new SimulatedCamera(),
        cameraDescription: 'simulated',
        printer: new SimulatedPrinter(spool),
        printerDescription: `simulated:${spool}`,
        mqttUrl,
        thingName: THING,
        secret: SECRET,
        serverUrl,
      },
      { print: true, brokerLogin: false },
      { write: (line) => lines.push(line), timeoutMs: 3000 },
    );
    expect(results.map((r) => [r.name, r.status])).toEqual([
      ['camera', 'pass'],
      ['encoder', 'pass'],
      ['printer', 'pass'],
      ['print', 'pass'],
      ['broker', 'pass'],
      ['server', 'pass'],
      ['login', 'pass'],
    ]);
    expect(lines).toHaveLength(7);
    expect(lines[6]).toMatch(
      /^✓ login +\d+ ms {2}the server knows fb-doctor-test as "Lobby booth"$/,
    );
    expect(lines[1]).toMatch(/^✓ encoder +\d+ ms {2}ffmpeg version \S+, libx264$/);
    expect(lines.every((line) => /^✓ \w+ +\d+ ms {2}\S/.test(line))).toBe(true);
    expect((await readdir(spool)).filter((name) => name.endsWith('.jpg'))).toHaveLength(1);
  });
});

describe('doctorCommand', () => {
  const env = () => ({
    BOOTH_MQTT_URL: mqttUrl,
    BOOTH_THING_NAME: THING,
    BOOTH_SECRET: SECRET,
    BOOTH_SERVER_URL: serverUrl,
    // The real ffmpeg with its test source stands in for a USB camera.
    BOOTH_CAMERA: 'webcam',
    BOOTH_WEBCAM_FORMAT: 'lavfi',
    BOOTH_WEBCAM_DEVICE: 'testsrc2=size=1280x720:rate=30',
    BOOTH_WEBCAM_SIZE: '1280x720',
    BOOTH_WEBCAM_WARMUP_FRAMES: '2',
    BOOTH_PRINTER: `simulated:${spool}`,
    BOOTH_DATA_DIR: spool,
    // Not the machine's own /etc/flashbooth/booth.env.
    BOOTH_SETTINGS_FILE: settingsFile,
  });

  // The test process must not drop to another user: runAsServiceUser has its own tests.
  const deps = (lines: string[]) => ({
    write: (line: string) => lines.push(line),
    asServiceUser: () => 'Running as the test.',
  });

  it('exits 1 and names BOOTH_SECRET when the server refuses the secret', async () => {
    healthy = true;
    const lines: string[] = [];
    const code = await doctorCommand([], { ...env(), BOOTH_SECRET: 'wrong' }, deps(lines));
    expect(code).toBe(1);
    expect(lines.find((line) => line.startsWith('✗ login'))).toMatch(
      /the server refused BOOTH_SECRET for fb-doctor-test → the secret was replaced .*: enroll this booth again with a new code from the console/,
    );
    // The broker line does not pretend to have tried the secret.
    expect(lines.find((line) => line.startsWith('✓ broker'))).toMatch(/proved to the server/);
    expect(lines.at(-1)).toBe('1 check failed: fix it and run flashbooth-booth doctor again.');
    expect(lines).not.toContain('All checks passed.');
  });

  it('exits 1 and names BOOTH_THING_NAME when the server has no such device', async () => {
    healthy = true;
    const lines: string[] = [];
    const code = await doctorCommand(
      [],
      { ...env(), BOOTH_THING_NAME: 'fb-nosuchbooth' },
      deps(lines),
    );
    expect(code).toBe(1);
    expect(lines.find((line) => line.startsWith('✗ login'))).toMatch(
      /the server has no device named fb-nosuchbooth \(BOOTH_THING_NAME\) → BOOTH_THING_NAME is wrong or the device was deleted/,
    );
  });

  it('exits 0 when every check passes', async () => {
    healthy = true;
    const lines: string[] = [];
    expect(await doctorCommand([], env(), deps(lines))).toBe(0);
    expect(lines[0]).toBe('Running as the test.');
    expect(lines[1]).toBe(`Checking booth ${THING}:`);
    expect(lines[2]).toMatch(
      /^✓ camera +\d+ ms {2}webcam lavfi testsrc2=size=1280x720:rate=30 1280x720: 1280x720 JPEG, \d+ KB$/,
    );
    expect(lines.at(-1)).toBe('All checks passed.');
  });

  it('exits 1 and says what to do when the server is unhealthy', async () => {
    healthy = false;
    const lines: string[] = [];
    expect(await doctorCommand([], env(), deps(lines))).toBe(1);
    expect(lines.find((line) => line.startsWith('✗ server'))).toMatch(
      /HTTP 503 \(The database is not reachable\.\) → the server is up but not ready: tell its operator$/,
    );
    expect(lines.at(-1)).toBe('1 check failed: fix it and run flashbooth-booth doctor again.');
  });
});
