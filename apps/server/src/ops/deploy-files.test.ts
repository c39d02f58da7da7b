import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadConfig } from '../config.js';

/*
 * CI has no Docker daemon and no systemd: the image is never built and the units never run there.
 * What can be checked without them is checked here: the files parse, every service waits for the
 * health of what it needs, the files they name exist, and the addresses agree with each other
 * and with the server's routes and settings.
 */

const root = path.resolve(import.meta.dirname, '../../../..');
const deploy = path.join(root, 'deploy');
const read = (...parts: string[]) => readFileSync(path.join(...parts), 'utf8');

interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string };
  restart?: string;
  healthcheck?: { test: string[] | string };
  depends_on?: Record<string, { condition: string }> | string[];
  volumes?: string[];
  environment?: Record<string, string>;
  entrypoint?: string[];
  env_file?: string;
}
const compose = parse(read(deploy, 'compose.yaml'), { merge: true }) as {
  services: Record<string, ComposeService>;
  volumes: Record<string, unknown>;
};
const services = compose.services;
const caddyfile = read(deploy, 'caddy', 'Caddyfile');

/** `KEY=value` lines of an env file (comments and blanks skipped). */
function envFile(file: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of read(file).split('\n')) {
    const match = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    if (match) env[match[1]!] = match[2]!;
  }
  return env;
}

/** The upstreams of the first reverse_proxy line after `marker` in a Caddyfile. */
function upstreamsAfter(caddy: string, marker: string): string[] {
  const from = caddy.indexOf(marker);
  expect(from, `${marker} in the Caddyfile`).toBeGreaterThanOrEqual(0);
  const line = /reverse_proxy ([^{\n]+)/.exec(caddy.slice(from))![1]!;
  return line.trim().split(/\s+/);
}

/** The go-auth hooks' routes, as the server defines them. */
const goAuthRoutes = read(root, 'apps/server/src/modules/mqtt/mqtt-go-auth.routes.ts');

describe('deploy/compose.yaml', () => {
  it('has the database, broker, object store, two server instances and Caddy', () => {
    expect(Object.keys(services)).toEqual(
      expect.arrayContaining([
        'postgres',
        'mosquitto',
        'garage',
        'garage-init',
        'flashbooth-1',
        'flashbooth-2',
        'caddy',
      ]),
    );
  });

  it('gives every long-running service a health check, and one-shot services none', () => {
    for (const [name, service] of Object.entries(services)) {
      if (service.restart === 'no') {
        expect(service.healthcheck, `${name} runs once`).toBeUndefined();
        continue;
      }
      expect(service.healthcheck?.test, `${name} has a healthcheck`).toBeDefined();
    }
    for (const name of ['flashbooth-1', 'flashbooth-2']) {
      expect(JSON.stringify(services[name]!.healthcheck!.test)).toContain('/api/health/ready');
    }
  });

  it('starts each service once what it needs is healthy (or, for a one-shot, done)', () => {
    for (const [name, service] of Object.entries(services)) {
      const needs = service.depends_on ?? {};
      expect(Array.isArray(needs), `${name} uses the long depends_on form`).toBe(false);
      for (const [needed, { condition }] of Object.entries(needs)) {
        const dependency = services[needed];
        expect(dependency, `${name} depends on ${needed}, which exists`).toBeDefined();
        if (dependency!.restart === 'no') {
          expect(condition, `${name} → ${needed}`).toBe('service_completed_successfully');
        } else if (condition === 'service_started') {
          // Only Caddy → a server: the broker's logins go through Caddy to the servers, so a
          // server is ready only after Caddy runs; Caddy then routes by each one's readiness.
          expect(name).toBe('caddy');
          expect(upstreamsAfter(caddyfile, 'handle {\n\t\treverse_proxy')).toContain(
            `${needed}:8080`,
          );
          expect(caddyfile).toContain('health_uri /api/health/ready');
        } else {
          expect(condition, `${name} → ${needed}`).toBe('service_healthy');
        }
      }
    }
    // The servers wait for the database, the broker and the store.
    expect(Object.keys(services['flashbooth-1']!.depends_on!)).toEqual(
      expect.arrayContaining(['postgres', 'mosquitto', 'garage-init']),
    );
  });

  it('pins every image to a version', () => {
    const values = envFile(path.join(deploy, '.env.example'));
    for (const [name, service] of Object.entries(services)) {
      // deploy/.env's values put in, as compose does.
      const image = (service.image ?? '').replace(
        /\$\{([A-Z][A-Z0-9_]*)(?::\?[^}]*)?\}/g,
        (_, variable: string) => values[variable] ?? '',
      );
      const tag = /:([^/:]+)$/.exec(image)?.[1];
      expect(tag, `${name}: ${image}`).toBeDefined();
      expect(tag, `${name}: ${image}`).not.toBe('latest');
    }
    expect(services['flashbooth-1']!.image).toBe(
      'flashbooth:${FLASHBOOTH_VERSION:?set FLASHBOOTH_VERSION in deploy/.env}',
    );
    expect(values.FLASHBOOTH_VERSION).toMatch(/^[\w.-]+$/);
  });

  it('keeps the hook secret in deploy/.env: Mosquitto renders its tracked template at start', () => {
    const mosquitto = services.mosquitto!;
    const secret = '${MQTT_HOOK_SECRET:?set MQTT_HOOK_SECRET in deploy/.env}';
    expect(mosquitto.environment?.MQTT_HOOK_SECRET).toBe(secret);
    expect(services['flashbooth-1']!.environment?.MQTT_HOOK_SECRET).toBe(secret);
    expect(mosquitto.volumes).toEqual(
      expect.arrayContaining([
        './mosquitto/mosquitto.conf.template:/etc/mosquitto/mosquitto.conf.template:ro',
      ]),
    );
    const script = mosquitto.entrypoint!.join(' ');
    expect(script).toContain(
      'sed "s/CHANGE_ME_HOOK_SECRET/$${MQTT_HOOK_SECRET}/g" /etc/mosquitto/mosquitto.conf.template',
    );
    expect(script).toMatch(
      /> \/tmp\/mosquitto\.conf && exec \S+mosquitto -c \/tmp\/mosquitto\.conf$/,
    );
    // No secret in a tracked file nor a step that edits one; the env files stay untracked.
    expect(read(deploy, 'mosquitto', 'mosquitto.conf.template')).toContain('CHANGE_ME_HOOK_SECRET');
    expect(existsSync(path.join(deploy, 'mosquitto', 'mosquitto.conf'))).toBe(false);
    expect(read(deploy, 'compose.yaml')).not.toMatch(/sed -i/);
    expect(read(root, 'docs/operations.md')).not.toMatch(/sed -i[^\n]*CHANGE_ME_HOOK_SECRET/);
    expect(envFile(path.join(deploy, 'flashbooth.env.example'))).not.toHaveProperty(
      'MQTT_HOOK_SECRET',
    );
    expect(read(deploy, '.gitignore').split('\n')).toEqual(
      expect.arrayContaining(['.env', 'flashbooth.env']),
    );
  });

  it('mounts files that exist and volumes it declares', () => {
    for (const [name, service] of Object.entries(services)) {
      for (const volume of service.volumes ?? []) {
        const source = volume.split(':')[0]!;
        if (source.startsWith('.')) {
          expect(existsSync(path.join(deploy, source)), `${name} mounts ${source}`).toBe(true);
        } else {
          expect(compose.volumes, `${name} uses the volume ${source}`).toHaveProperty(source);
        }
      }
      if (service.build) {
        const context = path.join(deploy, service.build.context);
        expect(existsSync(path.join(context, service.build.dockerfile))).toBe(true);
      }
    }
  });

  it('points Caddy at the servers and the store, and the servers at the other containers', () => {
    expect(upstreamsAfter(caddyfile, '{$FLASHBOOTH_DOMAIN} {')).toEqual(['mosquitto:9001']);
    expect(upstreamsAfter(caddyfile, 'handle {\n\t\treverse_proxy')).toEqual([
      'flashbooth-1:8080',
      'flashbooth-2:8080',
    ]);
    expect(upstreamsAfter(caddyfile, 's3.{$FLASHBOOTH_DOMAIN}')).toEqual(['garage:3900']);
    expect(caddyfile).not.toMatch(/^\s*encode\b/m);
    const environment = services['flashbooth-1']!.environment!;
    expect(environment.PORT).toBe('8080');
    expect(environment.MQTT_URL).toBe('mqtt://mosquitto:1883');
    expect(environment.DATABASE_URL).toMatch(/@postgres:5432\//);
    expect(environment.STORAGE_DRIVER).toBe('s3');
  });

  it("holds settings the server accepts in production (the examples' values filled in)", () => {
    const compose = envFile(path.join(deploy, '.env.example'));
    const substitute = (value: string) =>
      value.replace(
        /\$\{([A-Z][A-Z0-9_]*)(?::\?[^}]*)?\}/g,
        (_, name: string) => compose[name] ?? '',
      );
    const server = Object.fromEntries(
      Object.entries(services['flashbooth-1']!.environment!).map(([key, value]) => [
        key,
        substitute(String(value)),
      ]),
    );
    const config = loadConfig({
      ...envFile(path.join(deploy, 'flashbooth.env.example')),
      ...server,
    });
    expect(config.isProduction).toBe(true);
    expect(config.storage.s3.credentials?.accessKeyId).toBe(compose.S3_ACCESS_KEY_ID);
    expect(config.metrics).toMatchObject({ port: 9464, host: '0.0.0.0' });
    expect(config.mqtt.boothUrl).toBe(`wss://${compose.FLASHBOOTH_DOMAIN}/mqtt`);
  });
});

describe('deploy/Dockerfile', () => {
  const dockerfile = read(deploy, 'Dockerfile');
  const lines = dockerfile.replace(/\\\n/g, ' ').split('\n');

  it('copies only files that exist, from stages it defines', () => {
    const stages = lines.flatMap((line) => /^FROM \S+ AS (\S+)/i.exec(line)?.[1] ?? []);
    expect(stages).toEqual(['web', 'deps', 'runtime']);
    const copies = lines.filter((line) => /^COPY /.test(line));
    expect(copies.length).toBeGreaterThan(10);
    for (const line of copies) {
      const words = line.split(/\s+/).slice(1);
      const from = words.find((word) => word.startsWith('--from='))?.slice('--from='.length);
      const paths = words.filter((word) => !word.startsWith('--'));
      const sources = paths.slice(0, -1);
      if (from) {
        expect(stages, line).toContain(from);
        continue;
      }
      for (const source of sources) {
        expect(existsSync(path.join(root, source)), `${line}: ${source}`).toBe(true);
      }
    }
    // Every workspace's package.json is in the lockfile's install, or `npm ci` refuses.
    const workspaces = ['packages', 'apps']
      .flatMap((dir) => readdirSync(path.join(root, dir)).map((name) => `${dir}/${name}`))
      .concat('e2e')
      .filter((dir) => existsSync(path.join(root, dir, 'package.json')));
    for (const workspace of workspaces) {
      expect(dockerfile, workspace).toContain(`COPY ${workspace}/package.json ${workspace}/`);
    }
  });

  it('runs as a non-root user, checks readiness and starts what npm start starts', () => {
    const runtime = lines.slice(lines.findIndex((line) => line.includes('AS runtime'))).join('\n');
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime).toMatch(/^HEALTHCHECK .*\/api\/health\/ready/m);
    expect(runtime).toContain('COPY --from=deps /app /app');
    expect(dockerfile).toContain('npm ci --omit=dev');
    const cmd = /^CMD (\[.*\])$/m.exec(runtime)![1]!;
    const args = JSON.parse(cmd) as string[];
    expect(args.slice(0, 3)).toEqual(['node', '--import', 'tsx']);
    expect(existsSync(path.join(root, args[3]!))).toBe(true);
    const serve = (JSON.parse(read(root, 'package.json')) as { scripts: Record<string, string> })
      .scripts.serve;
    expect(serve).toBe(`node --import tsx ${args[3]}`);
    // tsx runs the TypeScript in production: it must be a production dependency.
    const launcher = JSON.parse(read(root, 'apps/launcher/package.json')) as {
      dependencies: Record<string, string>;
    };
    expect(launcher.dependencies).toHaveProperty('tsx');
  });
});

describe('deploy/systemd', () => {
  const dir = path.join(deploy, 'systemd');
  const units = readdirSync(dir).filter((file) => /\.(service|timer)$/.test(file));
  const debianCaddy = read(dir, 'Caddyfile');

  it('runs programs and files that exist in the repository', () => {
    expect(units).toEqual(
      expect.arrayContaining([
        'flashbooth@.service',
        'flashbooth-backup.service',
        'flashbooth-backup.timer',
      ]),
    );
    for (const unit of units.filter((file) => file.endsWith('.service'))) {
      const text = read(dir, unit);
      const exec = /^ExecStart=(.+)$/m.exec(text)![1]!.split(/\s+/);
      expect(exec[0], unit).toBe('/usr/bin/node');
      expect(exec.slice(1, 3)).toEqual(['--import', 'tsx']);
      expect(existsSync(path.join(root, exec[3]!)), `${unit}: ${exec[3]}`).toBe(true);
      expect(text).toMatch(/^WorkingDirectory=\/opt\/flashbooth$/m);
      expect(text).toMatch(/^EnvironmentFile=\/etc\/flashbooth\/flashbooth\.env$/m);
      expect(text).toMatch(/^User=flashbooth$/m);
    }
    const timer = read(dir, 'flashbooth-backup.timer');
    expect(units).toContain(/^Unit=(.+)$/m.exec(timer)![1]);
  });

  it("balances the instances the operations guide enables, on each one's readiness", () => {
    const upstreams = upstreamsAfter(debianCaddy, 'handle {\n\t\treverse_proxy');
    const guide = read(root, 'docs/operations.md');
    expect(upstreams.length).toBeGreaterThanOrEqual(2);
    for (const upstream of upstreams) {
      const [host, port] = upstream.split(':');
      expect(host).toBe('127.0.0.1');
      expect(guide, `the guide enables flashbooth@${port}`).toContain(`flashbooth@${port}`);
    }
    expect(debianCaddy).toContain('health_uri /api/health/ready');
    expect(debianCaddy).not.toMatch(/^\s*encode\b/m);
  });

  it('states one owner and mode for the env file: the example, the guide and the unit', () => {
    const stated = 'mode 0640, owner root:flashbooth';
    expect(read(dir, 'flashbooth.env.example').split('\n')[0]).toContain(stated);
    const guide = read(root, 'docs/operations.md');
    expect(guide).toContain(`\`/etc/flashbooth/flashbooth.env\` (${stated})`);
    expect(guide).toContain(
      'sudo install -m 0640 -o root -g flashbooth deploy/systemd/flashbooth.env.example /etc/flashbooth/flashbooth.env',
    );
    expect(read(dir, 'flashbooth@.service')).toContain('mode 0640, owner\n# root:flashbooth');
    for (const text of [read(dir, 'flashbooth.env.example'), guide]) {
      expect(text).not.toMatch(/flashbooth\.env[^\n]*0600/);
    }
  });

  it('gives the Debian instances settings the server accepts in production', () => {
    const env = envFile(path.join(dir, 'flashbooth.env.example'));
    const config = loadConfig({ ...env, PORT: '8081', DATA_DIR: '/var/lib/flashbooth/8081' });
    expect(config.isProduction).toBe(true);
    expect(config.storage.driver).toBe('s3');
    expect(config.metrics.token).toBeDefined();
  });
});

describe("Mosquitto's go-auth configuration", () => {
  const configurations = [
    {
      file: path.join(deploy, 'mosquitto', 'mosquitto.conf.template'),
      caddy: caddyfile,
      host: 'caddy',
    },
    {
      file: path.join(deploy, 'systemd', 'mosquitto-flashbooth.conf'),
      caddy: read(deploy, 'systemd', 'Caddyfile'),
      host: '127.0.0.1',
    },
  ];

  it.each(configurations)('asks the server routes that exist ($file)', ({ file, caddy, host }) => {
    const conf = read(file);
    const option = (name: string) => new RegExp(`^auth_opt_${name} (.+)$`, 'm').exec(conf)?.[1];
    expect(option('backends')).toBe('http');
    expect(option('http_host')).toBe(host);
    expect(option('http_response_mode')).toBe('status');
    expect(option('http_params_mode')).toBe('json');
    for (const [name, route] of [
      ['http_getuser_uri', '/user'],
      ['http_aclcheck_uri', '/acl'],
    ] as const) {
      expect(option(name)).toBe(`/api/mqtt/go-auth${route}?secret=CHANGE_ME_HOOK_SECRET`);
      expect(goAuthRoutes).toContain(`'${route}'`);
    }
    // The hook listener of the Caddyfile is the one go-auth is pointed at.
    const port = option('http_port');
    expect(caddy).toMatch(new RegExp(`^http://(127\\.0\\.0\\.1)?:${port} \\{`, 'm'));
    expect(routesMount()).toContain("'/api/mqtt/go-auth'");
  });
});

function routesMount(): string {
  return read(root, 'apps/server/src/routes.ts');
}
