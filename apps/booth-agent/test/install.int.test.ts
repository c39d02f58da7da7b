import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const INSTALL_SH = fileURLToPath(new URL('../install/install.sh', import.meta.url));

/**
 * Stand-ins for the system commands install.sh runs: each appends its call to calls.log and
 * keeps what it "installed" in a state folder, so a second run sees the first one's work.
 */
const FAKES: Record<string, string> = {
  'apt-get': `log apt-get "$@"
if [ "$1" = install ]; then for p in "$@"; do case "$p" in -*|install) ;; *) touch "$STATE/pkg.$p";; esac; done; fi`,
  'dpkg-query': `for p in "$@"; do last="$p"; done
[ -e "$STATE/pkg.$last" ] && printf 'install ok installed' || exit 1`,
  node: `[ "$1" = --version ] && echo "$FAKE_NODE_VERSION"`,
  getent: `if [ "$1" = passwd ]; then [ -e "$STATE/user.$2" ] && echo "$2:x:999:999::/var/lib/flashbooth-booth:/usr/sbin/nologin" || exit 2
else echo "$2:x:44:$(cat "$STATE/group.$2" 2>/dev/null)"; fi`,
  useradd: `log useradd "$@"
for u in "$@"; do last="$u"; done; touch "$STATE/user.$last"`,
  usermod: `log usermod "$@"
printf '%s' "$3" > "$STATE/group.$2"`,
  systemctl: `log systemctl "$@"
case "$1" in
  is-enabled) [ -e "$STATE/enabled" ] ;;
  enable) touch "$STATE/enabled" ;;
esac`,
  npm: `log npm "$@" "(in $(pwd))"
mkdir -p node_modules/tsx`,
  curl: `log curl "$@"; echo KEY`,
  gpg: `log gpg "$@"; cat`,
};

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

/** Every path under `root` with its type, mode, change time and content (or link target). */
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

describe('install/install.sh', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'flashbooth-install-'));
  const root = path.join(dir, 'root');
  const state = path.join(dir, 'state');
  const calls = path.join(dir, 'calls.log');
  mkdirSync(root);
  mkdirSync(state);
  const bin = fakeBin(dir);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const run = (nodeVersion = 'v22.11.0') => {
    writeFileSync(calls, '');
    const result = spawnSync('bash', [INSTALL_SH], {
      env: {
        PATH: `${bin}:${process.env.PATH}`,
        FLASHBOOTH_ROOT: root,
        STATE: state,
        CALLS: calls,
        FAKE_NODE_VERSION: nodeVersion,
        HOME: dir,
      },
      encoding: 'utf8',
    });
    expect(result.status, `${result.stdout}\n${result.stderr}`).toBe(0);
    return { output: result.stdout, calls: readFileSync(calls, 'utf8').trim().split('\n') };
  };
  const at = (file: string) => path.join(root, file);

  it('installs packages, the user, the agent, the unit and the command on the first run', () => {
    const first = run();
    expect(first.calls).toContain(
      'apt-get install -y --no-install-recommends gphoto2 ffmpeg cups-client ca-certificates',
    );
    expect(first.calls).toContain(
      'useradd --system --user-group --home-dir /var/lib/flashbooth-booth --no-create-home --shell /usr/sbin/nologin --comment Flashbooth booth agent flashbooth',
    );
    for (const group of ['video', 'lp', 'plugdev']) {
      expect(first.calls).toContain(`usermod -aG ${group} flashbooth`);
    }
    expect(first.calls).toContain(
      `npm ci --omit=dev --workspace=@flashbooth/booth-agent --no-audit --no-fund (in ${at('opt/flashbooth-booth.next')})`,
    );
    expect(first.calls).toContain('systemctl daemon-reload');
    expect(first.calls).toContain('systemctl enable flashbooth-booth.service');
    // Not enrolled yet: nothing to start.
    expect(first.calls.filter((call) => call.includes('restart'))).toEqual([]);
    expect(first.output).toContain('sudo flashbooth-booth enroll <server-url> <code>');

    // The agent, from this checkout, without tests or node_modules of the checkout.
    const agent = at('opt/flashbooth-booth/apps/booth-agent');
    expect(readFileSync(path.join(agent, 'src/cli.ts'), 'utf8')).toContain('runCli');
    expect(() => lstatSync(path.join(agent, 'test'))).toThrow();
    expect(() => lstatSync(at('opt/flashbooth-booth/apps/server/src'))).toThrow();
    expect(lstatSync(at('opt/flashbooth-booth/apps/server/package.json')).isFile()).toBe(true);
    expect(readlinkSync(at('usr/local/bin/flashbooth-booth'))).toBe(
      '/opt/flashbooth-booth/apps/booth-agent/bin/flashbooth-booth',
    );
    expect(lstatSync(at('etc/flashbooth')).mode & 0o777).toBe(0o700);

    const unitFile = at('etc/systemd/system/flashbooth-booth.service');
    expect(lstatSync(unitFile).mode & 0o777).toBe(0o644);
    const unit = readFileSync(unitFile, 'utf8');
    for (const line of [
      'After=network-online.target',
      'Wants=network-online.target',
      'ConditionPathExists=/etc/flashbooth/booth.env',
      'User=flashbooth',
      'EnvironmentFile=-/etc/flashbooth/booth.env',
      'Environment=BOOTH_DATA_DIR=/var/lib/flashbooth-booth',
      'StateDirectory=flashbooth-booth',
      'WorkingDirectory=/var/lib/flashbooth-booth',
      'ExecStart=/opt/flashbooth-booth/apps/booth-agent/bin/flashbooth-booth run',
      'Restart=always',
      'RestartSec=5',
      'WantedBy=multi-user.target',
    ]) {
      expect(unit.split('\n'), line).toContain(line);
    }
  });

  it('changes nothing and restarts nothing on a second run', () => {
    const before = snapshot(root);
    const second = run();
    expect(snapshot(root)).toEqual(before);
    expect(second.calls).toEqual(['systemctl is-enabled --quiet flashbooth-booth.service']);
    expect(second.output).toContain('unchanged: flashbooth-booth.service not restarted');
  });

  it('rewrites a changed unit and restarts an enrolled booth', () => {
    writeFileSync(at('etc/flashbooth/booth.env'), 'BOOTH_THING_NAME=fb-abcdefghij\n');
    const unitFile = at('etc/systemd/system/flashbooth-booth.service');
    writeFileSync(unitFile, readFileSync(unitFile, 'utf8').replace('RestartSec=5', 'RestartSec=1'));
    const third = run();
    expect(third.calls).toEqual([
      'systemctl daemon-reload',
      'systemctl is-enabled --quiet flashbooth-booth.service',
      'systemctl restart flashbooth-booth.service',
    ]);
    expect(readFileSync(unitFile, 'utf8')).toContain('RestartSec=5\n');
  });

  it('adds NodeSource’s repository when Node.js is older than 20.19 (Debian 12 has 18)', () => {
    const fourth = run('v18.19.0');
    expect(fourth.calls).toContain('apt-get install -y --no-install-recommends curl gnupg');
    expect(fourth.calls).toContain('apt-get install -y nodejs');
    expect(readFileSync(at('etc/apt/sources.list.d/nodesource.list'), 'utf8')).toBe(
      'deb [signed-by=/etc/apt/keyrings/nodesource.gpg] https://deb.nodesource.com/node_22.x nodistro main\n',
    );
    expect(readFileSync(at('etc/apt/keyrings/nodesource.gpg'), 'utf8')).toBe('KEY\n');
  });
});
