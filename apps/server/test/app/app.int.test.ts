import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { type DatabaseHandle } from '../../src/db/client.js';
import { openPglite } from '../databases.js';
import { DEMO_ADMIN_PHONE } from '../../src/seed/seed.js';
import {
  latestCode,
  newPhone,
  post,
  productionTestConfig,
  startApp,
  testConfig,
} from '../harness.js';

describe('application', () => {
  let database: DatabaseHandle;
  beforeAll(async () => {
    database = await openPglite();
  });
  afterAll(() => database.close());

  it('reports health, serves the OpenAPI document, and answers unknown API paths with the error body', async () => {
    const { app } = await startApp(database);
    expect((await app.inject('/api/health')).json()).toEqual({ status: 'ok' });
    const spec = (await app.inject('/api/docs/json')).json<{ paths: Record<string, unknown> }>();
    expect(Object.keys(spec.paths)).toEqual(
      expect.arrayContaining([
        '/api/regular/auth/verify',
        '/api/enterprise/users/{id}',
        '/api/health',
      ]),
    );
    const missing = await app.inject('/api/regular/nothing-here');
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: 'Not found.', code: 'not_found' });
    const headers = (await app.inject('/api/health')).headers;
    expect(headers['x-request-id']).toBeTruthy();
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['content-security-policy']).toContain("default-src 'self'");
    await app.close();
  });

  it('seeds the demo organization and its administrator, idempotently', async () => {
    const { app } = await startApp(database, { DEMO_DATA: 'true' });
    await app.close();
    const again = await startApp(database, { DEMO_DATA: 'true' });
    await post(again.app, '/api/enterprise/auth/sign-in', { phone: DEMO_ADMIN_PHONE });
    const code = await latestCode(again.app, DEMO_ADMIN_PHONE);
    const verify = await post(again.app, '/api/enterprise/auth/verify', {
      phone: DEMO_ADMIN_PHONE,
      code,
    });
    expect(verify.json()).toMatchObject({
      user: { is_super_user: true, organizations: [{ role: 'admin' }] },
    });
    await again.app.close();
  });

  it('has no development outbox in production', async () => {
    const config = productionTestConfig({ COOKIE_SECURE: 'true' });
    const sent: string[] = [];
    const app = await buildApp(config, {
      database,
      logger: false,
      sms: { kind: 'sns', send: async (m) => void sent.push(m.phone) },
    });
    const phone = newPhone();
    const signUp = await post(app, '/api/regular/auth/sign-up', { phone, name: 'Prod' });
    expect(signUp.statusCode).toBe(201);
    expect(signUp.cookies).toEqual([]);
    expect(sent).toEqual([phone]);
    expect((await app.inject({ url: '/api/dev/sms', query: { phone } })).statusCode).toBe(404);
    await app.close();
  });

  it('never writes a code to the logs', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    const config = testConfig({ LOG_LEVEL: 'trace' });
    const app = await buildApp(config, { database, loggerStream: stream });
    const phone = newPhone();
    await post(app, '/api/regular/auth/sign-up', { phone, name: 'Logged' });
    const code = await latestCode(app, phone);
    await post(app, '/api/regular/auth/verify', { phone, code });
    await app.close();
    const log = lines.join('');
    expect(log.length).toBeGreaterThan(0);
    expect(log).not.toContain(`"${code}"`);
    expect(log).not.toContain(`${code} is your`);
  });

  it('reports an SMS provider failure as a clear 503', async () => {
    const { app } = await startApp(
      database,
      {},
      {
        sms: {
          kind: 'sns',
          send: async () => {
            throw new Error('provider down');
          },
        },
      },
    );
    const response = await post(app, '/api/regular/auth/sign-up', {
      phone: newPhone(),
      name: 'Down',
    });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({
      message: 'Failed to send OTP. Please try again.',
      code: 'service_unavailable',
    });
    await app.close();
  });
});

describe('web app serving', () => {
  it('serves the built app with the runtime configuration injected, for every client-side route', async () => {
    const dist = mkdtempSync(path.join(os.tmpdir(), 'flashbooth-dist-'));
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(
      path.join(dist, 'index.html'),
      '<html><head><!--app-config--></head><body></body></html>',
    );
    writeFileSync(path.join(dist, 'assets', 'app-1234.js'), 'console.log(1)');
    const database = await openPglite();
    const { app } = await startApp(database, {
      WEB_DIST_DIR: dist,
      SUPPORT_EMAIL: 'help@venue.example',
      DEMO_FORM_URL: 'https://forms.example.com/x?</script>',
      PUBLIC_URL: 'https://booths.example.com/',
    });
    for (const url of ['/', '/regular/profile', '/enterprise/devices/3']) {
      const page = await app.inject(url);
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toContain('text/html');
      expect(page.body).toContain('"supportEmail":"help@venue.example"');
      // The QR poster prints the configured public address (without its trailing slash).
      expect(page.body).toContain('"publicUrl":"https://booths.example.com"');
      // Where passkeys work, so the page offers them nowhere else (issue 20 item 7).
      expect(page.body).toContain(
        '"passkeys":{"rpId":"booths.example.com","origins":["https://booths.example.com"]}',
      );
      // A configured value can never close the script element.
      expect(page.body).not.toContain('?</script>');
    }
    const asset = await app.inject('/assets/app-1234.js');
    expect(asset.headers['cache-control']).toContain('immutable');
    expect((await app.inject({ method: 'POST', url: '/somewhere' })).statusCode).toBe(404);
    expect((await app.inject('/api/health')).headers['content-security-policy']).toContain(
      'frame-src',
    );
    await app.close();
    await database.close();
  });
});
