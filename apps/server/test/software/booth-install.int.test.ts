import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Device, EnrollmentCode, Rollout } from '@flashbooth/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from '../databases.js';
import { packBoothRelease } from '../../src/modules/software/booth-release.js';
import {
  apiCall,
  eventually,
  registerDevice,
  signedInSuperUser,
  startApp,
  type TestApp,
} from '../harness.js';

const REPO = fileURLToPath(new URL('../../../../', import.meta.url));

/**
 * Stand-ins for the system commands install.sh runs: each appends its call to calls.log and keeps
 * what it "installed" in a state folder, so a second run sees the first one's work. `node` and
 * `curl` are the real ones (curl downloads from the running server); `npm ci` links this
 * checkout's node_modules into the unpacked release instead of downloading packages.
 */
const FAKES: Record<string, string> = {
  'apt-get': `log apt-get "$@"
if [ "$1" = install ]; then for p in "$@"; do case "$p" in -*|install) ;; *) touch "$STATE/pkg.$p";; esac; done; fi`,
  'dpkg-query': `for p in "$@"; do last="$p"; done
[ -e "$STATE/pkg.$last" ] && printf 'install ok installed' || exit 1`,
  node: `if [ "$1" = --version ]; then echo "$FAKE_NODE_VERSION"; else exec "$REAL_NODE" "$@"; fi`,
  getent: `if [ "$1" = passwd ]; then [ -e "$STATE/user.$2" ] && echo "$2:x:999:999::/var/lib/flashbooth-booth:/usr/sbin/nologin" || exit 2
else echo "$2:x:44:$(cat "$STATE/group.$2" 2>/dev/null)"; fi`,
  useradd: `log useradd "$@"
for u in "$@"; do last="$u"; done; touch "$STATE/user.$last"`,
  usermod: `log usermod "$@"
printf '%s' "$3" > "$STATE/group.$2"`,
  chown: `log chown "$@"`,
  systemctl: `log systemctl "$@"
case "$1" in
  is-enabled) [ -e "$STATE/enabled" ] ;;
  enable) touch "$STATE/enabled" ;;
esac`,
  npm: `log npm "$@" "(in $(pwd))"
ln -s "$REPO_NODE_MODULES" node_modules`,
  gpg: `log gpg "$@"; cat`,
};

/**
 * A command's exit status and output. Asynchronous: the server under test runs in this process,
 * and a blocked event loop would never answer the script's own downloads.
 */
function run(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

function fakeBin(dir: string): string {
  const bin = path.join(dir, 'bin');
  mkdirSync(bin);
  for (const [name, body] of Object.entries(FAKES)) {
    const file = path.join(bin, name);
    writeFileSync(file, `#!/bin/sh\nlog() { echo "$*" >> "$CALLS"; }\n${body}\n`);
    chmodSync(file, 0o755);
  }
  return bin;
}

/** Every path under `root` with its type, mode, change time and size (or link target). */
function snapshot(root: string): Record<string, string> {
  const entries: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const file = path.join(dir, name);
      const stat = lstatSync(file);
      const key = path.relative(root, file);
      if (stat.isSymbolicLink()) entries[key] = `link ${readlinkSync(file)}`;
      else if (stat.isDirectory()) {
        entries[key] = `dir ${(stat.mode & 0o7777).toString(8)} ${stat.ctimeMs}`;
        walk(file);
      } else {
        entries[key] =
          `file ${(stat.mode & 0o7777).toString(8)} ${stat.mtimeMs} ${stat.ctimeMs} ${stat.size}`;
      }
    }
  };
  walk(root);
  return entries;
}

/**
 * Issue 39, item 1, end to end: the console's one command (`curl -fsSL <server>/booth/install.sh
 * | sudo sh -s -- <code>`) run against a server listening on a port, in a temporary root with
 * stand-ins for apt-get, systemctl, useradd and the rest; then the installed service (its unit's
 * ExecStart, started as systemd would) takes a rollout of another release and, started again,
 * runs that release.
 */
describe('the one-command install of a booth computer, then a rollout to it', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'flashbooth-booth-install-'));
  const root = path.join(dir, 'root');
  const state = path.join(dir, 'state');
  const calls = path.join(dir, 'calls.log');
  mkdirSync(root);
  mkdirSync(state);
  const bin = fakeBin(dir);
  const at = (file: string) => path.join(root, file);
  let running: TestApp;
  let serverUrl: string;
  let token: string;
  let device: { id: number; thingName: string };
  let service: ChildProcess | undefined;
  let serviceOutput = '';
  /** The built-in release's version, as the served script names it. */
  let builtIn: string;

  const env = (nodeVersion: string) => ({
    PATH: `${bin}:${process.env.PATH}`,
    HOME: dir,
    FLASHBOOTH_ROOT: root,
    STATE: state,
    CALLS: calls,
    REAL_NODE: process.execPath,
    REPO_NODE_MODULES: path.join(REPO, 'node_modules'),
    FAKE_NODE_VERSION: nodeVersion,
  });

  /** The command the console shows, without sudo (the stand-ins need no root). */
  const install = async (code: string | undefined, nodeVersion = 'v24.11.1') => {
    writeFileSync(calls, '');
    const result = await run(
      'sh',
      ['-c', `curl -fsSL ${serverUrl}/booth/install.sh | sh -s -- ${code ?? ''}`],
      env(nodeVersion),
    );
    expect(result.status, `${result.stdout}\n${result.stderr}`).toBe(0);
    return {
      output: result.stdout,
      calls: readFileSync(calls, 'utf8').trim().split('\n').filter(Boolean),
    };
  };

  const unit = () => readFileSync(at('etc/systemd/system/flashbooth-booth.service'), 'utf8');
  const unitValue = (key: string) =>
    unit()
      .split('\n')
      .filter((line) => line.startsWith(`${key}=`))
      .map((line) => line.slice(key.length + 1));

  /** What systemd does with the unit: its ExecStart with its Environment (paths under root). */
  const startService = () => {
    const [execStart] = unitValue('ExecStart');
    const [command, ...args] = execStart!.split(' ');
    const vars = Object.fromEntries(
      unitValue('Environment').map((pair) => {
        const [key, value] = pair.split('=') as [string, string];
        return [key, value.startsWith('/') ? path.join(root, value) : value];
      }),
    );
    serviceOutput = '';
    const child = spawn(path.join(root, command!), args, {
      cwd: path.join(root, unitValue('WorkingDirectory')[0]!),
      env: {
        ...env('v24.11.1'),
        ...vars,
        NODE_ENV: 'test',
        BOOTH_SETTINGS_FILE: path.join(root, unitValue('EnvironmentFile')[0]!.replace(/^-/, '')),
        BOOTH_LOG_LEVEL: 'info',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (chunk: Buffer) => (serviceOutput += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (serviceOutput += chunk.toString()));
    service = child;
    return new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  };

  const readDevice = async () =>
    (await apiCall(running.app, 'GET', `devices/${device.id}`, token)).json<Device>();

  beforeAll(async () => {
    running = await startApp(await openPglite(), {
      OTP_SEND_LIMIT_PER_IP: '1000',
      DEVICE_UPDATE_TIMEOUT_MS: '120000',
      ROLLOUT_TICK_MS: '100',
    });
    serverUrl = await running.app.listen({ port: 0, host: '127.0.0.1' });
    ({ token } = await signedInSuperUser(running));
    device = await registerDevice(running.app, token, { name: 'Lobby booth' });
  });
  afterAll(async () => {
    service?.kill('SIGKILL');
    await running?.app.close();
    await running?.database.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the install script with this server, the release’s link, SHA-256 and size, no sign-in', async () => {
    const response = await fetch(`${serverUrl}/booth/install.sh`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/x-shellscript/);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const script = await response.text();
    expect(script).not.toMatch(/@FLASHBOOTH_[A-Z_]+@/);
    expect(script).toContain(`SERVER_URL='${serverUrl}'`);
    const value = (name: string) => new RegExp(`^${name}='([^']*)'$`, 'm').exec(script)?.[1];
    builtIn = value('RELEASE_VERSION')!;
    expect(builtIn).toMatch(/^booth-agent-[0-9a-f]{12}$/);
    const sha256 = value('RELEASE_SHA256');
    const size = Number(value('RELEASE_SIZE'));

    // The file behind the link is the one the checksum and size describe ...
    const file = Buffer.from(await (await fetch(value('RELEASE_URL')!)).arrayBuffer());
    expect(file.length).toBe(size);
    expect(createHash('sha256').update(file).digest('hex')).toBe(sha256);
    // ... and a software release the console lists, with that checksum and size.
    const releases = await apiCall(running.app, 'GET', 'software/releases', token);
    const listed = releases
      .json<{ items: { version: string; sha256: string | null; size_bytes: number | null }[] }>()
      .items.find((item) => item.version === builtIn);
    expect(listed).toMatchObject({ sha256, size_bytes: size });
    // Packed the same way from the same sources, it is the same bytes (names sorted, no times).
    const [again, twice] = await Promise.all([
      packBoothRelease({ version: 'booth-agent-reproducible' }),
      packBoothRelease({ version: 'booth-agent-reproducible' }),
    ]);
    expect(twice.sha256).toBe(again.sha256);
  });

  it('installs, verifies, enrolls and starts the service with one command', async () => {
    // Made through the listening server, so the command names the address booths reach.
    const made = await fetch(`${serverUrl}/api/enterprise/devices/${device.id}/enrollment-code`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(made.status).toBe(201);
    const code = (await made.json()) as EnrollmentCode;
    expect(code.command).toBe(
      `curl -fsSL ${serverUrl}/booth/install.sh | sudo sh -s -- ${code.code}`,
    );

    const first = await install(code.code);
    expect(first.calls).toContain(
      'apt-get install -y --no-install-recommends gphoto2 ffmpeg cups-client ca-certificates curl',
    );
    expect(first.calls).toContain(
      'useradd --system --user-group --home-dir /var/lib/flashbooth-booth --no-create-home --shell /usr/sbin/nologin --comment Flashbooth booth agent flashbooth',
    );
    for (const group of ['video', 'lp', 'plugdev']) {
      expect(first.calls).toContain(`usermod -aG ${group} flashbooth`);
    }
    const version = builtIn;
    const app = at(`var/lib/flashbooth-booth/releases/${version}/app`);
    expect(first.calls).toContain(
      `npm ci --omit=dev --workspace=@flashbooth/booth-agent --no-audit --no-fund (in ${app}.next)`,
    );
    expect(first.calls).toContain(
      `chown -R flashbooth:flashbooth ${at('var/lib/flashbooth-booth')}`,
    );
    expect(first.calls.slice(-4)).toEqual([
      'systemctl daemon-reload',
      'systemctl is-enabled --quiet flashbooth-booth.service',
      'systemctl enable flashbooth-booth.service',
      'systemctl restart flashbooth-booth.service',
    ]);
    expect(first.output).toContain(`Enrolled as ${device.thingName} with ${serverUrl}.`);

    // The release as packed (no tests), its link, the pointer the agent reads, the command.
    expect(readlinkSync(at('var/lib/flashbooth-booth/releases/current'))).toBe(`${version}/app`);
    expect(readFileSync(path.join(app, 'apps/booth-agent/src/cli.ts'), 'utf8')).toContain('runCli');
    expect(() => lstatSync(path.join(app, 'apps/booth-agent/test'))).toThrow();
    const current = JSON.parse(
      readFileSync(at('var/lib/flashbooth-booth/releases/current.json'), 'utf8'),
    ) as Record<string, unknown>;
    expect(current).toMatchObject({
      version,
      app: `/var/lib/flashbooth-booth/releases/${version}/app`,
      file: `/var/lib/flashbooth-booth/releases/${version}/flashbooth-${version}.tar.gz`,
    });
    expect(readlinkSync(at('usr/local/bin/flashbooth-booth'))).toBe(
      '/var/lib/flashbooth-booth/releases/current/apps/booth-agent/bin/flashbooth-booth',
    );
    expect(lstatSync(at('etc/flashbooth')).mode & 0o777).toBe(0o700);
    expect(lstatSync(at('etc/flashbooth/booth.env')).mode & 0o777).toBe(0o600);
    expect(readFileSync(at('etc/flashbooth/booth.env'), 'utf8')).toContain(
      `BOOTH_THING_NAME=${device.thingName}`,
    );
    for (const line of [
      'ConditionPathExists=/etc/flashbooth/booth.env',
      'User=flashbooth',
      'EnvironmentFile=-/etc/flashbooth/booth.env',
      'Environment=BOOTH_DATA_DIR=/var/lib/flashbooth-booth',
      'Environment=BOOTH_RELEASES_DIR=/var/lib/flashbooth-booth/releases',
      'ExecStart=/var/lib/flashbooth-booth/releases/current/apps/booth-agent/bin/flashbooth-booth run',
      'Restart=always',
      'WantedBy=multi-user.target',
    ]) {
      expect(unit().split('\n'), line).toContain(line);
    }
  });

  it('changes nothing and restarts nothing when run again without a code', async () => {
    const before = snapshot(root);
    const again = await install(undefined);
    expect(snapshot(root)).toEqual(before);
    expect(again.calls).toEqual(['systemctl is-enabled --quiet flashbooth-booth.service']);
    expect(again.output).toContain('unchanged: flashbooth-booth.service not restarted');
  });

  it('adds NodeSource’s node_24.x repository when Node.js is older than 24', async () => {
    writeFileSync(path.join(state, 'pkg.gnupg'), '');
    writeFileSync(calls, '');
    // curl is the real one: only NodeSource's key is a stand-in.
    const curl = path.join(bin, 'curl');
    const realCurl = spawnSync('sh', ['-c', 'command -v curl'], { encoding: 'utf8' }).stdout.trim();
    writeFileSync(
      curl,
      `#!/bin/sh\ncase "$*" in *deb.nodesource.com*) echo KEY ;; *) exec ${realCurl} "$@" ;; esac\n`,
    );
    chmodSync(curl, 0o755);
    try {
      const old = await run(
        'sh',
        ['-c', `curl -fsSL ${serverUrl}/booth/install.sh | sh -s --`],
        env('v20.19.0'),
      );
      // The stand-in apt-get installs no newer node: the script says so and stops.
      expect(old.status).toBe(1);
      expect(old.stderr).toContain('Node.js 24 or newer is still not installed (v20.19.0)');
      expect(readFileSync(calls, 'utf8')).toContain('apt-get install -y nodejs');
      expect(readFileSync(at('etc/apt/sources.list.d/nodesource.list'), 'utf8')).toBe(
        'deb [signed-by=/etc/apt/keyrings/nodesource.gpg] https://deb.nodesource.com/node_24.x nodistro main\n',
      );
    } finally {
      rmSync(curl);
    }
  });

  it('refuses a code that cannot be one before installing anything', async () => {
    const result = await run(
      'sh',
      ['-c', `curl -fsSL ${serverUrl}/booth/install.sh | sh -s -- NOT-A-CODE1`],
      env('v24.11.1'),
    );
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(
      'Enter the 8-character enrollment code shown in the console, e.g. ABCD-EFGH.',
    );
  });

  it('takes a rollout: the service’s ExecStart then runs the new release', async () => {
    // The installed service, started as systemd would: it logs in and reports its release.
    const firstRun = startService();
    const installed = builtIn;
    await eventually(readDevice, (d) => d.status === 'idle', 60_000).catch((error: unknown) => {
      throw new Error(`${String(error)}\n${serviceOutput}`);
    });
    expect((await readDevice()).software_version).toBe(installed);

    // A new release of the agent, uploaded as staff do, on a channel the booth follows.
    const next = await packBoothRelease({ version: 'booth-agent-2.0.0-test' });
    const created = await apiCall(running.app, 'POST', 'software/releases', token, {
      version: next.version,
    });
    expect(created.statusCode, created.body).toBe(201);
    const releaseId = created.json<{ id: number }>().id;
    const presigned = await apiCall(
      running.app,
      'POST',
      `software/releases/${releaseId}/file/presigned_upload`,
      token,
      { contentType: 'application/gzip' },
    );
    expect(presigned.statusCode, presigned.body).toBe(200);
    const { upload_url, s3_key } = presigned.json<{ upload_url: string; s3_key: string }>();
    const put = await running.app.inject({
      method: 'PUT',
      url: upload_url,
      payload: next.bytes,
      headers: { 'content-type': 'application/gzip' },
    });
    expect(put.statusCode, put.body).toBe(204);
    const confirmed = await apiCall(
      running.app,
      'POST',
      `software/releases/${releaseId}/file/confirm`,
      token,
      { s3_key },
    );
    expect(confirmed.json<{ sha256: string }>().sha256).toBe(next.sha256);
    const channel = await apiCall(running.app, 'POST', 'software/channels', token, {
      name: 'Stable',
      release_id: releaseId,
    });
    const channelId = channel.json<{ id: number }>().id;
    const joined = await apiCall(running.app, 'PATCH', `devices/${device.id}`, token, {
      software_channel_id: channelId,
    });
    expect(joined.statusCode, joined.body).toBe(200);

    const started = await apiCall(
      running.app,
      'POST',
      `software/channels/${channelId}/rollouts`,
      token,
      {},
    );
    expect(started.statusCode, started.body).toBe(201);

    // The agent downloads, verifies, unpacks and switches `current`, answers, and exits for
    // systemd (Restart=always) to start it again.
    expect(await firstRun).toBe(0);
    expect(serviceOutput).toContain('release installed: restarting');
    const releases = at('var/lib/flashbooth-booth/releases');
    expect(readlinkSync(path.join(releases, 'current'))).toBe(`${next.version}/app`);
    const rollout = await eventually(
      async () =>
        (
          await apiCall(running.app, 'GET', `software/channels/${channelId}/rollouts/latest`, token)
        ).json<{ rollout: Rollout | null }>().rollout,
      (latest) => latest?.state === 'completed',
      30_000,
    );
    expect(rollout?.counts.updated).toBe(1);

    // The unit's ExecStart now leads into the new release ...
    const execStart = path.join(root, unitValue('ExecStart')[0]!.split(' ')[0]!);
    expect(realpathSync(execStart)).toBe(
      realpathSync(path.join(releases, next.version, 'app/apps/booth-agent/bin/flashbooth-booth')),
    );
    const printed = await run(execStart, ['version'], env('v24.11.1'));
    expect(printed.stdout.trim()).toBe(next.version);

    // ... and the service started again runs it and reports it.
    void startService();
    await eventually(
      readDevice,
      (d) => d.status === 'idle' && d.software_version === next.version,
      60_000,
    ).catch((error: unknown) => {
      throw new Error(`${String(error)}\n${serviceOutput}`);
    });
    expect(serviceOutput).toContain(next.version);
  }, 180_000);
});
