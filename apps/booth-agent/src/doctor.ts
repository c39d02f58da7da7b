// `flashbooth-booth doctor`: the booth's self-test (issue 22). Takes one photo, checks the motion
// encoder (ffmpeg with libx264), reads the printer's queue (prints a test page only with --print),
// checks the broker and the server, and proves the booth's credentials to the server (issue 39),
// each on one line with its time and, when it fails, what to do. Run as root, it checks as the
// service's user (service-user.ts).
import sharp from 'sharp';
import mqtt from 'mqtt';
import type { Camera } from './camera/camera.js';
import { ProgramError, runProgram } from './camera/run-program.js';
import { loginCheck, whyFetchFailed } from './doctor-login.js';
import { AgentEnvError, loadAgentEnv } from './env.js';
import type { Printer } from './printer/printer.js';
import { runAsServiceUser, SERVICE_USER } from './service-user.js';

export type CheckStatus = 'pass' | 'fail' | 'skip';

export interface CheckResult {
  /** camera, encoder, printer, print, broker, server, login. */
  name: string;
  status: CheckStatus;
  ms: number;
  /** What was found, e.g. "1920x1080 JPEG, 412 KB". */
  detail: string;
  /** On failure: what to do at the booth. */
  fix?: string;
}

export interface DoctorOptions {
  /** Print a test page (otherwise nothing is printed). */
  print: boolean;
  /**
   * Log in to the broker as the booth itself. The broker keeps one connection per booth, so this
   * disconnects a running agent for a moment: only with the agent stopped.
   */
  brokerLogin: boolean;
}

export const DOCTOR_USAGE = `Usage: flashbooth-booth doctor [--print] [--broker-login]

Checks this booth with its settings: takes one photo with the camera, checks ffmpeg (the motion
encoder), reads the printer's queue, connects to the broker, asks the server for its health and
proves the booth's name and secret to the server (a running agent is not disturbed). Exits with
0 when none fails; "All checks passed" only when every check ran and passed.

Run as root (sudo), it reads the settings file and then checks as the service's user
(${SERVICE_USER}, or BOOTH_SERVICE_USER), with the installed booth's folders whatever the
current folder.

  --print          also print a small test page
  --broker-login   log in to the broker as this booth to check its secret (the broker allows one
                   connection per booth: a running agent is disconnected for a moment)
`;

/** Reads the doctor's arguments; `error` names the first it does not know. */
export function parseDoctorArgs(argv: string[]): {
  options: DoctorOptions;
  help: boolean;
  error?: string;
} {
  const options: DoctorOptions = { print: false, brokerLogin: false };
  let help = false;
  for (const arg of argv) {
    if (arg === '--print') options.print = true;
    else if (arg === '--broker-login') options.brokerLogin = true;
    else if (arg === '--help' || arg === '-h') help = true;
    else return { options, help, error: `Unknown option: ${arg}` };
  }
  return { options, help };
}

const MARKS: Record<CheckStatus, string> = { pass: '✓', fail: '✗', skip: '–' };

/** One line: mark, name, time, what was found, and on failure what to do. */
export function formatResult(result: CheckResult): string {
  const fix = result.status === 'fail' && result.fix ? ` → ${result.fix}` : '';
  return `${MARKS[result.status]} ${result.name.padEnd(7)} ${`${result.ms} ms`.padStart(8)}  ${result.detail}${fix}`;
}

/** Exit code 0 when nothing failed (a skipped check is not a failure). */
export const doctorExitCode = (results: CheckResult[]): number =>
  results.some((result) => result.status === 'fail') ? 1 : 0;

/**
 * "All checks passed." only when every check ran and passed (the credentials never skip: they
 * fail when they could not be proved); skipped checks are named.
 */
export function summaryLine(results: CheckResult[]): string {
  const failed = results.filter((result) => result.status === 'fail').length;
  const skipped = results.filter((result) => result.status === 'skip').map((r) => r.name);
  if (failed > 0) {
    return `${failed} check${failed === 1 ? '' : 's'} failed: fix ${failed === 1 ? 'it' : 'them'} and run flashbooth-booth doctor again.`;
  }
  if (skipped.length > 0) {
    return `No check failed, but not everything was checked (skipped: ${skipped.join(', ')}).`;
  }
  return 'All checks passed.';
}

/** A camera failure as the device's error log words it: the drivers' messages say what to do. */
export function describeCameraFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? error.cause.message : undefined;
  // The drivers' sentences say what to do ("No camera found: check …"); a bare message gets its
  // cause's words.
  return cause && !error.message.includes(':') ? `${error.message}: ${cause}` : error.message;
}

type Clock = () => number;

async function timed(
  name: string,
  now: Clock,
  run: () => Promise<Omit<CheckResult, 'name' | 'ms'>>,
): Promise<CheckResult> {
  const started = now();
  const result = await run().catch((error: unknown): Omit<CheckResult, 'name' | 'ms'> => ({
    status: 'fail',
    detail: error instanceof Error ? error.message : String(error),
  }));
  return { name, ms: Math.round(now() - started), ...result };
}

export async function checkCamera(
  camera: Camera,
  description: string,
  now: Clock,
): Promise<CheckResult> {
  return timed('camera', now, async () => {
    try {
      const photo = await camera.capture(0);
      const meta = await sharp(photo).metadata();
      return {
        status: 'pass',
        detail: `${description}: ${meta.width}x${meta.height} ${(meta.format ?? 'image').toUpperCase()}, ${Math.round(photo.length / 1024)} KB`,
      };
    } catch (error) {
      return {
        status: 'fail',
        detail: `${description}: the photo failed`,
        fix: describeCameraFailure(error),
      };
    }
  });
}

/**
 * The motion encoder: `ffmpeg` is installed and has libx264 (GIF, boomerang and video templates
 * are encoded with it whatever the camera).
 */
export async function checkEncoder(now: Clock, command = 'ffmpeg'): Promise<CheckResult> {
  return timed('encoder', now, async () => {
    const fix = 'install ffmpeg: sudo apt-get install ffmpeg (motion templates need it)';
    let version: string;
    let encoders: string;
    try {
      version =
        (await runProgram(command, ['-hide_banner', '-version'], { timeoutMs: 10_000 })).stdout
          .toString('utf8')
          .split('\n')[0]
          ?.trim() ?? '';
      encoders = (
        await runProgram(command, ['-hide_banner', '-encoders'], { timeoutMs: 10_000 })
      ).stdout.toString('utf8');
    } catch (error) {
      const missing = error instanceof ProgramError && error.failure === 'not_found';
      return {
        status: 'fail',
        detail: missing
          ? 'ffmpeg is not installed'
          : `ffmpeg does not run: ${(error as Error).message}`,
        fix,
      };
    }
    if (!/\blibx264\b/.test(encoders)) {
      return { status: 'fail', detail: `${version}: no libx264 (H.264) encoder`, fix };
    }
    return { status: 'pass', detail: `${version.replace(/ Copyright.*$/, '')}, libx264` };
  });
}

export async function checkPrinter(
  printer: Printer,
  description: string,
  now: Clock,
): Promise<CheckResult> {
  return timed('printer', now, async () => {
    if (!printer.status) {
      return { status: 'skip', detail: `${description}: this printer cannot report its queue` };
    }
    const { state, message } = await printer.status();
    const said = message ? ` (${message})` : '';
    if (state === 'idle' || state === 'printing') {
      return { status: 'pass', detail: `${description}: ${state}${said}` };
    }
    return {
      status: 'fail',
      detail: `${description}: ${state.replace('_', ' ')}`,
      fix: message ?? 'check the printer and its CUPS queue (lpstat -p)',
    };
  });
}

/** A 6×4 in page at 300 dpi: the booth's name, the time and colour patches to check the ribbon. */
export async function testPage(thingName: string, at: Date): Promise<Buffer> {
  const width = 1800;
  const height = 1200;
  const escape = (text: string) => text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const colours = ['#00ffff', '#ff00ff', '#ffff00', '#000000', '#ff0000', '#00a000', '#0000ff'];
  const patches = colours
    .map(
      (fill, i) => `<rect x="${150 + i * 215}" y="720" width="185" height="300" fill="${fill}" />`,
    )
    .join('');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
  <rect x="30" y="30" width="${width - 60}" height="${height - 60}" fill="none" stroke="#000" stroke-width="6" />
  <text x="150" y="260" font-family="sans-serif" font-size="110" font-weight="bold">Flashbooth test page</text>
  <text x="150" y="420" font-family="sans-serif" font-size="64">${escape(thingName)}</text>
  <text x="150" y="540" font-family="sans-serif" font-size="52">${escape(at.toISOString().slice(0, 19).replace('T', ' '))} UTC</text>
  ${patches}
</svg>`;
  return sharp({ create: { width, height, channels: 3, background: '#ffffff' } })
    .composite([{ input: Buffer.from(svg) }])
    .jpeg({ quality: 90 })
    .toBuffer();
}

export async function checkPrint(
  printer: Printer,
  thingName: string,
  now: Clock,
  clock: () => Date,
): Promise<CheckResult> {
  return timed('print', now, async () => {
    try {
      const image = await testPage(thingName, clock());
      const { jobId } = await printer.print({
        image,
        copies: 1,
        strips: 1,
        jobName: 'Flashbooth test page',
      });
      return { status: 'pass', detail: `test page sent as job ${jobId}` };
    } catch (error) {
      return {
        status: 'fail',
        detail: 'the test page was not printed',
        fix: `${(error instanceof Error ? error.message : String(error)).replace(/\.$/, '')}: check the printer and BOOTH_PRINTER`,
      };
    }
  });
}

export interface BrokerCheckOptions {
  mqttUrl: string;
  thingName: string;
  secret: string;
  /** Log in under the booth's own client id (see DoctorOptions.brokerLogin). */
  ownClientId: boolean;
  timeoutMs: number;
}

/** MQTT 3.1.1 CONNACK codes 4 and 5 (bad login, not authorized). */
const REFUSED = new Set([4, 5, 134, 135]);

/**
 * Connects and disconnects, subscribing to nothing. The server's broker lets a booth in only
 * under its own client id, and a second connection with that id would push the running agent
 * off: by default the doctor connects as `<thing>-doctor`, which a strict broker refuses — the
 * refusal still proves the broker is there and speaks MQTT, but says nothing of the secret.
 */
export function checkBroker(options: BrokerCheckOptions, now: Clock): Promise<CheckResult> {
  const { mqttUrl, thingName, secret, ownClientId, timeoutMs } = options;
  const clientId = ownClientId ? thingName : `${thingName}-doctor`;
  return timed('broker', now, () => {
    return new Promise((resolve) => {
      const client = mqtt.connect(mqttUrl, {
        clientId,
        username: thingName,
        password: secret,
        clean: true,
        reconnectPeriod: 0,
        connectTimeout: timeoutMs,
        protocolVersion: 4,
      });
      let settled = false;
      const settle = (result: Omit<CheckResult, 'name' | 'ms'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        // A logged-in client says goodbye (DISCONNECT); any other connection is just dropped.
        client.end(!client.connected);
        resolve(result);
      };
      const timer = setTimeout(
        () =>
          settle({
            status: 'fail',
            detail: `${mqttUrl}: no answer within ${timeoutMs} ms`,
            fix: "check BOOTH_MQTT_URL and the booth's internet connection (a firewall may drop the port)",
          }),
        timeoutMs,
      );
      client.on('connect', () =>
        settle({ status: 'pass', detail: `${mqttUrl}: logged in as ${thingName}` }),
      );
      client.on('error', (error) => {
        const code = (error as { code?: unknown }).code;
        if (typeof code === 'number' && REFUSED.has(code)) {
          if (ownClientId) {
            settle({
              status: 'fail',
              detail: `${mqttUrl}: the broker refused ${thingName}'s login`,
              fix: 'check BOOTH_THING_NAME and BOOTH_SECRET against the console (Register Device shows a new secret or enrollment code)',
            });
          } else {
            settle({
              status: 'pass',
              detail:
                `${mqttUrl}: the broker answers (it admits the booth only as itself, so the ` +
                'secret is proved to the server on the login line)',
            });
          }
          return;
        }
        settle({
          status: 'fail',
          detail: `${mqttUrl}: ${error.message}`,
          fix: "check BOOTH_MQTT_URL and the booth's internet connection",
        });
      });
      client.on('close', () =>
        settle({
          status: 'fail',
          detail: `${mqttUrl}: the connection closed before the broker answered`,
          fix: 'check that BOOTH_MQTT_URL is the broker (mqtt:// or mqtts:// as the server says)',
        }),
      );
    });
  });
}

export async function checkServer(
  serverUrl: string | undefined,
  fetchImpl: typeof fetch,
  timeoutMs: number,
  now: Clock,
): Promise<CheckResult> {
  return timed('server', now, async () => {
    if (!serverUrl) {
      return { status: 'skip', detail: 'BOOTH_SERVER_URL is not set' };
    }
    // Relative to the base URL, so a server under a path prefix is asked at its own /api/health.
    const url = new URL(
      'api/health',
      serverUrl.endsWith('/') ? serverUrl : `${serverUrl}/`,
    ).toString();
    let response: Response;
    try {
      response = await fetchImpl(url, { signal: AbortSignal.timeout(timeoutMs) });
    } catch (error) {
      return {
        status: 'fail',
        detail: `${url}: ${whyFetchFailed(error, timeoutMs)}`,
        fix: "check BOOTH_SERVER_URL and the booth's internet connection",
      };
    }
    const body = (await response.json().catch(() => undefined)) as
      { status?: unknown; message?: unknown } | undefined;
    if (response.ok && body?.status === 'ok') {
      return { status: 'pass', detail: `${url}: healthy` };
    }
    const said = typeof body?.message === 'string' ? ` (${body.message})` : '';
    return {
      status: 'fail',
      detail: `${url}: HTTP ${response.status}${said}`,
      fix:
        response.status === 404
          ? 'BOOTH_SERVER_URL does not point at a Flashbooth server'
          : 'the server is up but not ready: tell its operator',
    };
  });
}

/** What the doctor checks: the booth's configuration (loadAgentEnv's, or a test's). */
export interface DoctorTargets {
  camera: Camera;
  cameraDescription: string;
  printer: Printer;
  printerDescription: string;
  mqttUrl: string;
  thingName: string;
  secret: string;
  serverUrl: string | undefined;
}

export interface DoctorDeps {
  fetch?: typeof fetch;
  /** Milliseconds for timings (default performance.now). */
  now?: Clock;
  clock?: () => Date;
  /** Where each line goes, as soon as its check ends. */
  write?: (line: string) => void;
  timeoutMs?: number;
  /** The encoder program checked (default ffmpeg). */
  ffmpegCommand?: string;
  /**
   * Becomes the service's user when run as root, once the settings are read; answers the line
   * that says who the checks run as (default runAsServiceUser).
   */
  asServiceUser?: (env: NodeJS.ProcessEnv) => string;
}

/** Runs the checks in order, writing each line as it ends; resolves to all the results. */
export async function runDoctor(
  targets: DoctorTargets,
  options: DoctorOptions,
  deps: DoctorDeps = {},
): Promise<CheckResult[]> {
  const now = deps.now ?? (() => performance.now());
  const write = deps.write ?? ((line: string) => process.stdout.write(`${line}\n`));
  const timeoutMs = deps.timeoutMs ?? 5000;
  const results: CheckResult[] = [];
  const add = (result: CheckResult) => {
    results.push(result);
    write(formatResult(result));
  };
  add(await checkCamera(targets.camera, targets.cameraDescription, now));
  add(await checkEncoder(now, deps.ffmpegCommand));
  add(await checkPrinter(targets.printer, targets.printerDescription, now));
  if (options.print) {
    add(
      await checkPrint(targets.printer, targets.thingName, now, deps.clock ?? (() => new Date())),
    );
  }
  add(
    await checkBroker(
      {
        mqttUrl: targets.mqttUrl,
        thingName: targets.thingName,
        secret: targets.secret,
        ownClientId: options.brokerLogin,
        timeoutMs,
      },
      now,
    ),
  );
  const broker = results[results.length - 1];
  add(await checkServer(targets.serverUrl, deps.fetch ?? fetch, timeoutMs, now));
  add(
    await timed('login', now, () =>
      loginCheck({
        serverUrl: targets.serverUrl,
        thingName: targets.thingName,
        secret: targets.secret,
        timeoutMs,
        brokerLogin: options.brokerLogin ? broker : undefined,
        fetch: deps.fetch ?? fetch,
      }),
    ),
  );
  return results;
}

/** `flashbooth-booth doctor [--print] [--broker-login]`: resolves to the exit code. */
export async function doctorCommand(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  deps: DoctorDeps = {},
): Promise<number> {
  const write = deps.write ?? ((line: string) => process.stdout.write(`${line}\n`));
  const { options, help, error } = parseDoctorArgs(argv);
  if (error) {
    write(`${error}\n\n${DOCTOR_USAGE}`);
    return 2;
  }
  if (help) {
    write(DOCTOR_USAGE);
    return 0;
  }
  let config: DoctorTargets;
  try {
    config = loadAgentEnv(env);
  } catch (failure) {
    if (!(failure instanceof AgentEnvError)) throw failure;
    write(formatResult({ name: 'config', status: 'fail', ms: 0, detail: failure.message }));
    write('Fix the settings (BOOTH_* or the settings file) and run flashbooth-booth doctor again.');
    return 1;
  }
  // The settings are read (root may read the file, the service's user may not): now the checks
  // run as the service would.
  const asServiceUser =
    deps.asServiceUser ??
    ((given) => runAsServiceUser(given.BOOTH_SERVICE_USER?.trim() || SERVICE_USER));
  try {
    write(asServiceUser(env));
  } catch (failure) {
    write(
      formatResult({
        name: 'user',
        status: 'fail',
        ms: 0,
        detail: `could not become the service's user: ${(failure as Error).message}`,
      }),
    );
    return 1;
  }
  write(`Checking booth ${config.thingName}${options.print ? ' (with a test print)' : ''}:`);
  const results = await runDoctor(config, options, { ...deps, write });
  write(summaryLine(results));
  return doctorExitCode(results);
}
