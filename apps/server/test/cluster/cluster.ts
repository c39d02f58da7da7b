/*
 * The parts of a multi-instance installation as real processes on this machine, for the
 * two-instance fault test and `npm run bench:cluster`: a private PostgreSQL cluster (initdb in a
 * temporary folder, on a free port), a private Mosquitto, haproxy in front of the server
 * instances, the server instances themselves (the launcher, as the systemd unit runs it) and
 * booth agents with a simulated camera and printer. Each part can be killed and started again
 * on the same port, so the test can restart PostgreSQL or the broker without touching the
 * machine's own.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import {
  chownSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { CpuGroup } from './cgroup.js';

export const ROOT = path.resolve(import.meta.dirname, '../../../..');

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A port nothing listens on right now (the kernel's pick, released again). */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** True once something accepts TCP connections on 127.0.0.1:`port`. */
export function portOpen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    const done = (open: boolean) => {
      socket.destroy();
      resolve(open);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** Polls `check` every 100 ms until it is true; throws with `what` after `ms`. */
export async function until(
  check: () => Promise<boolean> | boolean,
  what: string,
  ms = 30_000,
): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(100);
  }
}

/** A system account's uid and gid, from /etc/passwd (PostgreSQL refuses to run as root). */
function account(name: string): { uid: number; gid: number } | undefined {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith(`${name}:`));
  if (!line) return undefined;
  const [, , uid, gid] = line.split(':');
  return { uid: Number(uid), gid: Number(gid) };
}

export interface ProcessSpec {
  command: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  /** Run as this account (a child of root). */
  user?: { uid: number; gid: number };
}

/**
 * One program run as a child process, started again as often as the test likes. Its output is
 * kept line by line: `lines` for the current run, `runs` for every run (a killed instance's log
 * is still read at the end).
 */
export class ManagedProcess {
  readonly runs: string[][] = [];
  private child: ChildProcess | undefined;

  constructor(
    readonly name: string,
    private readonly spec: ProcessSpec,
  ) {}

  get lines(): string[] {
    return this.runs.at(-1) ?? [];
  }

  get pid(): number | undefined {
    return this.running ? this.child?.pid : undefined;
  }

  get running(): boolean {
    const child = this.child;
    return child !== undefined && child.exitCode === null && child.signalCode === null;
  }

  /** Every line of every run. */
  allLines(): string[] {
    return this.runs.flat();
  }

  start(): void {
    if (this.running) throw new Error(`${this.name} is already running`);
    const lines: string[] = [];
    this.runs.push(lines);
    const { command, args, env, cwd, user } = this.spec;
    const child = spawn(command, args, {
      cwd: cwd ?? ROOT,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: os.tmpdir(), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(user ?? {}),
    });
    this.child = child;
    for (const stream of [child.stdout!, child.stderr!]) {
      let partial = '';
      stream.on('data', (chunk: Buffer) => {
        const text = partial + chunk.toString('utf8');
        const split = text.split('\n');
        partial = split.pop() ?? '';
        lines.push(...split);
      });
    }
    child.once('error', (error) => lines.push(`spawn error: ${error.message}`));
  }

  /** Waits for a line of the current run containing every one of `parts`. */
  async waitFor(parts: string | string[], ms = 30_000): Promise<string> {
    const wanted = Array.isArray(parts) ? parts : [parts];
    const deadline = Date.now() + ms;
    for (;;) {
      const found = this.lines.find((line) => wanted.every((part) => line.includes(part)));
      if (found !== undefined) return found;
      if (!this.running) {
        throw new Error(`${this.name} exited waiting for ${wanted.join(' + ')}:\n${this.tail()}`);
      }
      if (Date.now() > deadline) {
        throw new Error(
          `${this.name}: no "${wanted.join(' + ')}" within ${ms} ms:\n${this.tail()}`,
        );
      }
      await sleep(50);
    }
  }

  /** The last lines of the current run, to show in a failure. */
  tail(count = 40): string {
    return this.lines.slice(-count).join('\n');
  }

  /** Sends `signal` and waits for the exit (SIGKILL after `graceMs`). */
  async stop(signal: NodeJS.Signals = 'SIGTERM', graceMs = 15_000): Promise<void> {
    const child = this.child;
    if (!child || !this.running) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  }
}

/** The newest installed PostgreSQL's programs (Debian: /usr/lib/postgresql/<major>/bin). */
function postgresBin(program: string): string {
  const base = '/usr/lib/postgresql';
  if (existsSync(base)) {
    const majors = readdirSync(base)
      .filter((name) => /^\d+$/.test(name))
      .sort((a, b) => Number(b) - Number(a));
    for (const major of majors) {
      const file = path.join(base, major, 'bin', program);
      if (existsSync(file)) return file;
    }
  }
  return program;
}

/** The programs an installation needs that this machine lacks (PostgreSQL, Mosquitto, haproxy). */
export function missingPrograms(): string[] {
  const found = (program: string, ...places: string[]) =>
    places.some((place) => existsSync(place)) ||
    (process.env.PATH ?? '')
      .split(':')
      .some((dir) => dir !== '' && existsSync(path.join(dir, program)));
  const missing: string[] = [];
  if (!found('initdb', postgresBin('initdb'))) missing.push('PostgreSQL (initdb, postgres)');
  if (!found('mosquitto', '/usr/sbin/mosquitto')) missing.push('mosquitto');
  if (!found('haproxy', '/usr/sbin/haproxy')) missing.push('haproxy');
  return missing;
}

/**
 * A PostgreSQL cluster of its own: initdb in `dir`, trust authentication on 127.0.0.1:`port`,
 * no fsync (a test's data). Run as the `postgres` account when this process is root.
 */
export class PrivatePostgres {
  readonly process: ManagedProcess;
  readonly url: string;

  private constructor(
    readonly port: number,
    dataDir: string,
    socketDir: string,
    user: { uid: number; gid: number } | undefined,
  ) {
    this.url = `postgres://postgres@127.0.0.1:${port}/postgres`;
    this.process = new ManagedProcess('postgres', {
      command: postgresBin('postgres'),
      args: [
        '-D',
        dataDir,
        '-p',
        String(port),
        '-k',
        socketDir,
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'fsync=off',
        '-c',
        'synchronous_commit=off',
        '-c',
        'full_page_writes=off',
        '-c',
        'max_connections=200',
        '-c',
        'shared_buffers=32MB',
        // More settings from CLUSTER_POSTGRES_SETTINGS (space-separated name=value), e.g. a
        // statement log for npm run bench:cluster's counts.
        ...(process.env.CLUSTER_POSTGRES_SETTINGS ?? '')
          .split(' ')
          .filter((setting) => setting !== '')
          .flatMap((setting) => ['-c', setting]),
      ],
      env: { LC_ALL: 'C' },
      ...(user ? { user } : {}),
    });
  }

  static async create(dir: string): Promise<PrivatePostgres> {
    const user = process.getuid?.() === 0 ? account('postgres') : undefined;
    if (process.getuid?.() === 0 && !user) {
      throw new Error('running as root without a postgres account to run PostgreSQL as');
    }
    const home = path.join(dir, 'postgres');
    const dataDir = path.join(home, 'data');
    mkdirSync(home, { recursive: true });
    if (user) {
      chownSync(dir, user.uid, user.gid);
      chownSync(home, user.uid, user.gid);
    }
    const init = spawnSync(
      postgresBin('initdb'),
      ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync'],
      { env: { PATH: process.env.PATH ?? '', LC_ALL: 'C' }, encoding: 'utf8', ...(user ?? {}) },
    );
    if (init.status !== 0) throw new Error(`initdb failed: ${init.stderr || init.error?.message}`);
    const postgres = new PrivatePostgres(await freePort(), dataDir, home, user);
    await postgres.start();
    return postgres;
  }

  async start(): Promise<void> {
    this.process.start();
    await this.process.waitFor('database system is ready to accept connections', 30_000);
  }

  /** A fast shutdown (every session ended, as a restart by the operator does), then a start. */
  async restart(downMs = 0): Promise<void> {
    await this.process.stop('SIGINT');
    await sleep(downMs);
    await this.start();
  }

  stop(): Promise<void> {
    return this.process.stop('SIGINT');
  }
}

/** A Mosquitto of its own on 127.0.0.1:`port`, anonymous, no persistence. */
export class PrivateMosquitto {
  readonly process: ManagedProcess;
  readonly url: string;

  private constructor(
    readonly port: number,
    config: string,
  ) {
    this.url = `mqtt://127.0.0.1:${port}`;
    this.process = new ManagedProcess('mosquitto', {
      command: existsSync('/usr/sbin/mosquitto') ? '/usr/sbin/mosquitto' : 'mosquitto',
      args: ['-c', config],
      env: {},
    });
  }

  static async create(dir: string): Promise<PrivateMosquitto> {
    const port = await freePort();
    const config = path.join(dir, 'mosquitto.conf');
    writeFileSync(
      config,
      [
        `listener ${port} 127.0.0.1`,
        'allow_anonymous true',
        'persistence false',
        'log_dest stdout',
        'log_type error',
        'log_type warning',
        'log_type notice',
        '',
      ].join('\n'),
    );
    const broker = new PrivateMosquitto(port, config);
    await broker.start();
    return broker;
  }

  async start(): Promise<void> {
    this.process.start();
    await until(() => portOpen(this.port), `mosquitto on port ${this.port}`, 10_000);
  }

  async restart(downMs = 0): Promise<void> {
    await this.process.stop('SIGTERM');
    await sleep(downMs);
    await this.start();
  }

  stop(): Promise<void> {
    return this.process.stop('SIGTERM');
  }
}

/** Readiness of one instance, straight to it (not through the balancer). */
export async function ready(port: number): Promise<boolean> {
  return (await readiness(port)).status === 200;
}

/** GET /api/health/ready of one instance: its status (0: no answer in 3 s) and body. */
export async function readiness(port: number): Promise<{ status: number; body: string }> {
  try {
    const response = await fetch(`http://127.0.0.1:${port}/api/health/ready`, {
      signal: AbortSignal.timeout(3000),
    });
    return { status: response.status, body: await response.text() };
  } catch (error) {
    return { status: 0, body: (error as Error).message };
  }
}

/**
 * Extra Node flags for every server instance, from CLUSTER_SERVER_NODE_ARGS (space-separated),
 * e.g. `--cpu-prof --cpu-prof-dir=/tmp/profiles` to profile each instance (the profile is written
 * when the instance exits: stopped, not killed).
 */
function serverNodeArgs(): string[] {
  return (process.env.CLUSTER_SERVER_NODE_ARGS ?? '').split(' ').filter((arg) => arg !== '');
}

/**
 * CLUSTER_SERVER_CPUS (e.g. `0 1`): instance a runs on the first CPU, b on the second and so on
 * (taskset, which execs node: the pid stays the instance's). For telling what sharing the cores
 * costs from what being several costs; a deployment does not pin.
 */
function serverCommand(name: string): { command: string; args: string[] } {
  const node = [...serverNodeArgs(), '--import', 'tsx', 'apps/launcher/src/main.ts'];
  const cpus = (process.env.CLUSTER_SERVER_CPUS ?? '').split(' ').filter((cpu) => cpu !== '');
  if (cpus.length === 0) return { command: process.execPath, args: node };
  const cpu = cpus[(name.charCodeAt(0) - 97) % cpus.length]!;
  return { command: 'taskset', args: ['-c', cpu, process.execPath, ...node] };
}

/**
 * One server instance as the systemd unit runs it (`node --import tsx apps/launcher/src/main.ts`),
 * on a fixed port so a restart comes back where the balancer expects it.
 */
export class ServerInstance {
  readonly process: ManagedProcess;

  constructor(
    readonly name: string,
    readonly port: number,
    env: Record<string, string>,
    /** A CPU quota (cgroup.ts): the instance runs in this group, restarts included. */
    readonly group?: CpuGroup,
  ) {
    const { command, args } = serverCommand(name);
    this.process = new ManagedProcess(name, {
      ...(group ? group.joinCommand(command, args) : { command, args }),
      // The instance's name on its database sessions (pg_stat_activity, a statement log).
      env: { PGAPPNAME: `flashbooth-${name}`, ...env, PORT: String(port), HOST: '127.0.0.1' },
    });
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(ms = 60_000): Promise<void> {
    this.process.start();
    await this.waitReady(ms);
  }

  async waitReady(ms = 60_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!(await ready(this.port))) {
      if (!this.process.running) {
        throw new Error(`${this.name} exited while starting:\n${this.process.tail()}`);
      }
      if (Date.now() > deadline) {
        throw new Error(`${this.name} not ready within ${ms} ms:\n${this.process.tail()}`);
      }
      await sleep(100);
    }
  }

  kill(): Promise<void> {
    return this.process.stop('SIGKILL');
  }

  stop(): Promise<void> {
    return this.process.stop('SIGTERM');
  }

  /** The JSON log lines of every run (pino), the others left out. */
  logEntries(): Record<string, unknown>[] {
    return parseJsonLines(this.process.allLines());
  }
}

export function parseJsonLines(lines: string[]): Record<string, unknown>[] {
  const entries: Record<string, unknown>[] = [];
  for (const line of lines) {
    if (!line.startsWith('{')) continue;
    try {
      entries.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      // A line cut by SIGKILL.
    }
  }
  return entries;
}

/**
 * How haproxy picks a server. `leastconn`, the default, is production's (the Caddyfiles'
 * `lb_policy least_conn`; round robin among servers equally busy): a visitor's requests come in a
 * fixed order, so strict rotation (`roundrobin`) tends to send the costly ones (the upload whose
 * preview is made where it lands) to the same instance (docs/benchmarks.md, runs D and E).
 */
export type Balance = 'leastconn' | 'roundrobin';

/**
 * Debian's haproxy balancing HTTP over `servers` (`balance`), each checked on
 * GET /api/health/ready every `checkIntervalMs` (300 ms: a test notices a dead instance at once). A request whose connection is refused is sent to another
 * server (redispatch); an answer names the server that gave it in X-Served-By.
 */
export class Haproxy {
  readonly process: ManagedProcess;

  private constructor(
    readonly port: number,
    config: string,
  ) {
    this.process = new ManagedProcess('haproxy', {
      command: existsSync('/usr/sbin/haproxy') ? '/usr/sbin/haproxy' : 'haproxy',
      args: ['-db', '-f', config],
      env: {},
    });
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  static async create(
    dir: string,
    /** `backup`: sent requests only while every other server is down. */
    servers: { name: string; port: number; backup?: boolean }[],
    checkIntervalMs = 300,
    balance: Balance = 'leastconn',
  ): Promise<Haproxy> {
    const listen = await freePort();
    const config = path.join(dir, 'haproxy.cfg');
    writeFileSync(
      config,
      [
        'global',
        '  maxconn 4000',
        '  log stdout format raw local0 notice',
        'defaults',
        '  mode http',
        '  log global',
        '  timeout connect 2s',
        '  timeout client 60s',
        '  timeout server 60s',
        // The live status stream is one long answer with a comment line every 15 s.
        '  timeout http-keep-alive 5s',
        '  option redispatch',
        '  retries 3',
        'frontend flashbooth',
        `  bind 127.0.0.1:${listen}`,
        '  default_backend servers',
        'backend servers',
        `  balance ${balance}`,
        '  option httpchk GET /api/health/ready',
        '  http-check expect status 200',
        '  http-response set-header X-Served-By %[srv_name]',
        `  default-server inter ${checkIntervalMs}ms fastinter ${Math.min(200, checkIntervalMs)}ms downinter ${checkIntervalMs}ms fall 2 rise 1 on-marked-down shutdown-sessions`,
        ...servers.map(
          (server) =>
            `  server ${server.name} 127.0.0.1:${server.port} check${server.backup ? ' backup' : ''}`,
        ),
        '',
      ].join('\n'),
    );
    const check = spawnSync(
      existsSync('/usr/sbin/haproxy') ? '/usr/sbin/haproxy' : 'haproxy',
      ['-c', '-q', '-f', config],
      { encoding: 'utf8' },
    );
    if (check.status !== 0) throw new Error(`haproxy refused its configuration: ${check.stderr}`);
    const balancer = new Haproxy(listen, config);
    balancer.process.start();
    await until(() => portOpen(listen), `haproxy on port ${listen}`, 10_000);
    return balancer;
  }

  stop(): Promise<void> {
    return this.process.stop('SIGTERM');
  }
}

/** Where a test's booth connects and how it waits; the same for one booth and for a fleet. */
interface SimulatedBoothOptions {
  mqttUrl: string;
  serverUrl: string;
  dir: string;
  countdownMs?: number;
  /** More settings for the agents (e.g. a fleet's BOOTH_FLEET_STATUS_CHANGE_MS). */
  env?: Record<string, string>;
}

/** A test booth's settings: simulated camera, short countdown and delivery retries. */
function simulatedBoothEnv(options: SimulatedBoothOptions): Record<string, string> {
  return {
    BOOTH_MQTT_URL: options.mqttUrl,
    BOOTH_SERVER_URL: options.serverUrl,
    BOOTH_CAMERA: 'simulated',
    BOOTH_COUNTDOWN_MS: String(options.countdownMs ?? 200),
    BOOTH_DELIVERY_RETRY_MS: '200',
    BOOTH_DELIVERY_RETRY_MAX_MS: '1000',
    BOOTH_LOG_LEVEL: 'info',
    ...options.env,
  };
}

/** A booth agent as its own process: simulated camera and printer, its data in `dir`. */
export class BoothAgent {
  readonly process: ManagedProcess;

  constructor(
    readonly thingName: string,
    secret: string,
    options: SimulatedBoothOptions,
  ) {
    mkdirSync(options.dir, { recursive: true });
    this.process = new ManagedProcess(thingName, {
      command: process.execPath,
      args: ['--import', 'tsx', 'apps/booth-agent/src/main.ts'],
      env: {
        ...simulatedBoothEnv(options),
        BOOTH_THING_NAME: thingName,
        BOOTH_SECRET: secret,
        BOOTH_PRINTER: `simulated:${path.join(options.dir, 'spool')}`,
        BOOTH_DATA_DIR: options.dir,
      },
    });
  }

  async start(): Promise<void> {
    this.process.start();
    await this.process.waitFor('booth connected and idle', 60_000);
  }

  stop(): Promise<void> {
    return this.process.stop('SIGTERM');
  }

  /** The agent's JSON log lines of every run. */
  logEntries(): Record<string, unknown>[] {
    return parseJsonLines(this.process.allLines());
  }
}

/**
 * Several booths in one process (apps/booth-agent/src/fleet.ts), the same agent and settings as
 * `BoothAgent`'s: a hundred booths as a hundred Node processes would measure the machine, not the
 * server.
 */
export class BoothFleet {
  readonly process: ManagedProcess;

  constructor(
    name: string,
    readonly booths: { thingName: string; secret: string; dir: string }[],
    options: SimulatedBoothOptions,
  ) {
    mkdirSync(options.dir, { recursive: true });
    const file = path.join(options.dir, `${name}.json`);
    writeFileSync(
      file,
      JSON.stringify(
        booths.map((booth) => ({
          thingName: booth.thingName,
          secret: booth.secret,
          dataDir: booth.dir,
        })),
      ),
    );
    this.process = new ManagedProcess(name, {
      command: process.execPath,
      args: ['--import', 'tsx', 'apps/booth-agent/src/fleet.ts'],
      env: { ...simulatedBoothEnv(options), BOOTH_FLEET_FILE: file },
    });
  }

  /** Starts the process and waits until every one of its booths is connected and idle. */
  async start(): Promise<void> {
    this.process.start();
    await this.process.waitFor('booth fleet connected', 30_000 + this.booths.length * 2000);
  }

  stop(): Promise<void> {
    return this.process.stop('SIGTERM');
  }
}

/** CPU seconds (user + system) a process (or one of its threads) has used so far, from /proc. */
export function cpuSeconds(pid: number, tid?: number): number {
  const stat = readFileSync(
    tid === undefined ? `/proc/${pid}/stat` : `/proc/${pid}/task/${tid}/stat`,
    'utf8',
  );
  // Fields after the command name (which may hold spaces) start after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return ticks / CLOCK_TICKS;
}

/**
 * CPU seconds of each thread of a process so far (/proc/<pid>/task/<tid>/stat), by thread id:
 * the main thread's id is the pid; the others are V8's (compilers, GC) and libuv's pool (file
 * system, crypto, image work). Threads that ended meanwhile are missing.
 */
export function threadCpuSeconds(pid: number): Map<number, number> {
  const threads = new Map<number, number>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      threads.set(Number(tid), cpuSeconds(pid, Number(tid)));
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return threads;
}

/**
 * CPU seconds of a process, of its children it waited for (ended PostgreSQL backends) and of its
 * live children: the whole of PostgreSQL from its postmaster's pid.
 */
export function processTreeSeconds(pid: number): number {
  const fields = statFields(pid);
  if (!fields) return 0;
  let ticks = Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const child = statFields(Number(name));
    if (child && Number(child[1]) === pid) ticks += Number(child[11]) + Number(child[12]);
  }
  return ticks / CLOCK_TICKS;
}

/** The fields of /proc/<pid>/stat after the command name; undefined once it has ended. */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** A process's resident memory now (VmRSS, bytes), from /proc/<pid>/status. */
export function residentBytes(pid: number): number {
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : 0;
}

/**
 * A thread's context switches so far (/proc/<pid>/task/<tid>/status): voluntary (it waited: the
 * event loop going to sleep in epoll) and involuntary (the scheduler took its core away).
 */
export function contextSwitches(
  pid: number,
  tid = pid,
): { voluntary: number; involuntary: number } {
  const status = readFileSync(`/proc/${pid}/task/${tid}/status`, 'utf8');
  const field = (name: string) =>
    Number(new RegExp(`^${name}:\\s+(\\d+)$`, 'm').exec(status)?.[1] ?? 0);
  return {
    voluntary: field('voluntary_ctxt_switches'),
    involuntary: field('nonvoluntary_ctxt_switches'),
  };
}

/** USER_HZ: 100 on Linux for every architecture Node runs on. */
const CLOCK_TICKS = 100;
