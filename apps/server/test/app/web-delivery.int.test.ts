/**
 * How the server delivers the web app and its API answers over the wire: the build's compressed
 * copies by Accept-Encoding, caching, the prerendered pages with the runtime settings filled in,
 * API JSON compressed on the fly, and streams left alone. The build folder is made here, as the
 * web build lays it out (apps/web/scripts/prerender.ts), so these tests need no web build.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle } from '../../src/db/client.js';
import { openPglite } from '../databases.js';
import { createStorage } from '../../src/modules/storage/create-storage.js';
import { COMPRESSION_THRESHOLD_BYTES, registerCompression } from '../../src/plugins/compression.js';
import { bearer, registerDevice, signedInSuperUser, startApp, type TestApp } from '../harness.js';

const PLACEHOLDERS = {
  supportEmail: 'fb-support-local@fb-support-domain.invalid',
  partnershipEmail: 'fb-partnership-local@fb-partnership-domain.invalid',
  demoFormUrl: '/fb-demo-form-url.invalid',
};

const SHELL = `<!doctype html><html lang="en"><head><title>Flashbooth</title><!--app-config--></head><body><div id="root"></div><script type="module" src="/assets/index-a1b2c3.js"></script></body></html>`;

/** The landing as the prerender writes it: markup with placeholder addresses, some split at @. */
const LANDING = SHELL.replace(
  '<div id="root"></div>',
  `<div id="root" data-prerendered="hydrate"><main><h1>Instant prints. Shareable moments.</h1>` +
    `<a href="mailto:${PLACEHOLDERS.supportEmail}">fb-support-local@<wbr/>fb-support-domain.invalid</a>` +
    `<a href="mailto:${PLACEHOLDERS.partnershipEmail}">Partnerships</a>` +
    `<p>${'Premium branded photo booths with instant prints. '.repeat(40)}</p></main></div>`,
);
const BOOTH_FRAME = SHELL.replace(
  '<div id="root"></div>',
  `<div id="root" data-prerendered="frame"><div class="booth-skeleton" aria-busy="true">${'<div class="skeleton"></div>'.repeat(40)}</div></div>`,
);

const FILES: Record<string, string> = {
  'assets/index-a1b2c3.js': `export const app = ${JSON.stringify('visitor screens '.repeat(200))};`,
  'assets/index-d4e5f6.css': `.page { color: #16121f; }\n`.repeat(100),
  'favicon.svg': `<svg xmlns="http://www.w3.org/2000/svg">${'<rect width="64" height="64"/>'.repeat(30)}</svg>`,
  'book-a-demo.html': `<!doctype html><title>Book a demo</title>${'<p>Form</p>'.repeat(100)}`,
  'robots.txt': 'User-agent: *\nAllow: /\n',
};

/** A build folder as `npm run build` leaves it, the compressed copies included. */
function makeDist(): string {
  const dist = mkdtempSync(path.join(os.tmpdir(), 'flashbooth-web-delivery-'));
  mkdirSync(path.join(dist, 'assets'));
  mkdirSync(path.join(dist, 'prerendered'));
  for (const [file, text] of Object.entries(FILES)) {
    writeFileSync(path.join(dist, file), text);
    if (file === 'robots.txt') continue; // too small to be worth a copy: sent as it is
    writeFileSync(path.join(dist, `${file}.br`), brotliCompressSync(text));
    writeFileSync(path.join(dist, `${file}.gz`), gzipSync(text));
  }
  writeFileSync(path.join(dist, 'index.html'), SHELL);
  writeFileSync(path.join(dist, 'prerendered/index.html'), LANDING);
  writeFileSync(path.join(dist, 'prerendered/b-deviceId.html'), BOOTH_FRAME);
  writeFileSync(
    path.join(dist, 'prerendered.json'),
    JSON.stringify({
      placeholders: PLACEHOLDERS,
      pages: [
        { path: '/', file: 'prerendered/index.html' },
        { path: '/brochure', file: 'prerendered/index.html' },
        { path: '/b/:deviceId', file: 'prerendered/b-deviceId.html' },
      ],
    }),
  );
  return dist;
}

const decode = (encoding: string | undefined, body: Buffer): string =>
  (encoding === 'br'
    ? brotliDecompressSync(body)
    : encoding === 'gzip'
      ? gunzipSync(body)
      : body
  ).toString();

describe('web app delivery', () => {
  let database: DatabaseHandle;
  let testApp: TestApp;
  let app: FastifyInstance;

  beforeAll(async () => {
    database = await openPglite();
    testApp = await startApp(database, {
      WEB_DIST_DIR: makeDist(),
      SUPPORT_EMAIL: 'help@venue.example',
      PARTNERSHIP_EMAIL: 'deals@venue.example',
    });
    app = testApp.app;
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  const get = (url: string, headers: Record<string, string> = {}) =>
    app.inject({ method: 'GET', url, headers });

  it('sends the build’s Brotli or gzip copy of scripts, styles, SVG and HTML by Accept-Encoding, with Vary', async () => {
    const files = Object.keys(FILES).filter((file) => file !== 'robots.txt');
    const types = ['javascript', 'text/css', 'image/svg+xml', 'text/html'];
    for (const [index, file] of files.entries()) {
      for (const [accept, expected] of [
        ['gzip, deflate, br, zstd', 'br'],
        ['br;q=0, gzip', 'gzip'],
        ['gzip;q=0.5, br;q=1', 'br'],
        ['identity', undefined],
        ['', undefined],
      ] as const) {
        const response = await get(`/${file}`, accept ? { 'accept-encoding': accept } : {});
        expect(response.statusCode, `${file} with ${accept}`).toBe(200);
        expect(response.headers['content-encoding'], `${file} with ${accept}`).toBe(expected);
        expect(response.headers.vary).toContain('Accept-Encoding');
        expect(response.headers['content-type']).toContain(types[index]);
        expect(decode(expected, response.rawPayload)).toBe(FILES[file]);
      }
    }
    // A file without copies goes as it is, whatever the client accepts.
    const robots = await get('/robots.txt', { 'accept-encoding': 'br, gzip' });
    expect(robots.headers['content-encoding']).toBeUndefined();
    expect(robots.body).toBe(FILES['robots.txt']);
  });

  it('caches hashed assets for a year as immutable and revalidates everything else', async () => {
    for (const file of ['assets/index-a1b2c3.js', 'assets/index-d4e5f6.css']) {
      for (const accept of ['br', 'gzip', '']) {
        const response = await get(`/${file}`, { 'accept-encoding': accept });
        expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      }
    }
    for (const url of ['/favicon.svg', '/book-a-demo.html', '/', '/b/3', '/regular/login']) {
      const response = await get(url, { 'accept-encoding': 'br' });
      expect(response.headers['cache-control'], url).toBe('no-cache');
      expect(response.headers.etag ?? response.headers['last-modified'], url).toBeTruthy();
    }
  });

  it('serves the prerendered pages compressed, with the installation’s settings filled in, and revalidates them by ETag', async () => {
    for (const url of ['/', '/brochure', '/?utm_source=qr']) {
      const response = await get(url, { 'accept-encoding': 'br, gzip' });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['content-encoding']).toBe('br');
      expect(response.headers.vary).toBe('Accept-Encoding');
      const html = decode('br', response.rawPayload);
      // The landing's words are there before any script.
      expect(html.indexOf('Instant prints. Shareable moments.')).toBeLessThan(
        html.indexOf('<script type="module"'),
      );
      expect(html).toContain('href="mailto:help@venue.example"');
      expect(html).toContain('help@<wbr/>venue.example');
      expect(html).toContain('href="mailto:deals@venue.example"');
      expect(html).toContain('"supportEmail":"help@venue.example"');
      expect(html).not.toMatch(/fb-[\w-]+|<!--app-config-->/);
    }

    const frame = await get('/b/42', { 'accept-encoding': 'gzip' });
    expect(frame.headers['content-encoding']).toBe('gzip');
    expect(decode('gzip', frame.rawPayload)).toContain('data-prerendered="frame"');

    const first = await get('/', { 'accept-encoding': 'gzip' });
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await get('/', { 'accept-encoding': 'gzip', 'if-none-match': etag });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    // Each encoding is its own representation with its own validator.
    const identity = await get('/', { 'if-none-match': etag });
    expect(identity.statusCode).toBe(200);
    expect(identity.headers.etag).not.toBe(etag);
    expect(identity.body).toContain('Instant prints.');
  });

  it('sends the pages a visitor opens from outside without an opener policy, and every other page with same-origin', async () => {
    // The landing, its brochure address and the booth page (an unknown booth's too): no
    // browsing context group switch for the phone's new tab (lib/opener-policy.ts).
    for (const url of ['/', '/brochure', '/b/42']) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['cross-origin-opener-policy'], url).toBeUndefined();
      expect(response.headers['content-security-policy'], url).toContain("default-src 'self'");
    }
    const etag = (await get('/')).headers.etag as string;
    const revalidated = await get('/', { 'if-none-match': etag });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.headers['cross-origin-opener-policy']).toBeUndefined();
    // The app's shell (the console, the visitor's own pages) and the API keep helmet's policy.
    for (const url of ['/enterprise/devices/3', '/regular/media', '/api/health']) {
      expect((await get(url)).headers['cross-origin-opener-policy'], url).toBe('same-origin');
    }
  });

  it('answers every other page address with the app, filled in and compressed, never a template as built', async () => {
    for (const url of [
      '/regular/login',
      '/enterprise/devices/3',
      '/index.html',
      '/prerendered/index.html',
      '/prerendered.json',
      '/assets/index-a1b2c3.js.br',
    ]) {
      const response = await get(url, { 'accept-encoding': 'br' });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-encoding'], url).toBe('br');
      const html = decode('br', response.rawPayload);
      expect(html, url).toContain('<div id="root"></div>');
      expect(html, url).toContain('"supportEmail":"help@venue.example"');
      expect(html, url).not.toContain('fb-support');
    }
  });

  it('compresses API lists above the threshold and leaves small answers alone', async () => {
    const staff = await signedInSuperUser(testApp);
    for (let i = 0; i < 12; i += 1) {
      await registerDevice(app, staff.token, { name: `Lobby booth ${i}` });
    }
    for (const [accept, expected] of [
      ['br, gzip', 'br'],
      ['gzip', 'gzip'],
      ['', undefined],
    ] as const) {
      const response = await get('/api/enterprise/devices?limit=50', {
        ...bearer(staff.token),
        ...(accept ? { 'accept-encoding': accept } : {}),
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-encoding']).toBe(expected);
      if (expected) expect(response.headers.vary).toContain('accept-encoding');
      const list = JSON.parse(decode(expected, response.rawPayload)) as { items: unknown[] };
      expect(list.items.length).toBeGreaterThanOrEqual(12);
      if (expected)
        expect(response.rawPayload.length).toBeLessThan(COMPRESSION_THRESHOLD_BYTES * 2);
    }
    const docs = await get('/api/docs/json', { 'accept-encoding': 'br' });
    expect(docs.headers['content-encoding']).toBe('br');

    const health = await get('/api/health', { 'accept-encoding': 'br, gzip' });
    expect(health.json()).toEqual({ status: 'ok' });
    expect(health.headers['content-encoding']).toBeUndefined();
  });

  it('sends storage file transfers as stored, byte for byte, whatever the client accepts', async () => {
    const storage = await createStorage(testApp.config, testApp.clock.now);
    const body = Buffer.from('{"compressible":"yes"}\n'.repeat(400));
    await storage.put('software/releases/1/package.bin', body, 'application/octet-stream');
    const url = await storage.presignDownload('software/releases/1/package.bin', 300);
    const response = await get(url, { 'accept-encoding': 'br, gzip' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(Number(response.headers['content-length'])).toBe(body.length);
    expect(response.rawPayload.equals(body)).toBe(true);
    await storage.close();
  });
});

describe('API compression plugin', () => {
  let app: FastifyInstance;
  const bigJson = { items: Array.from({ length: 100 }, (_, id) => ({ id, name: `Item ${id}` })) };

  beforeAll(async () => {
    app = Fastify();
    await registerCompression(app);
    app.get('/list', async () => bigJson);
    app.get('/small', async () => ({ ok: true }));
    // A JSON stream (an export, say) and server-sent events: streamed, so never compressed.
    app.get('/stream', (_request, reply) =>
      reply.type('application/json').send(Readable.from([JSON.stringify(bigJson)])),
    );
    app.get('/events', (_request, reply) =>
      reply.type('text/event-stream').send(Readable.from(['data: 1\n\n'.repeat(300)])),
    );
    app.get('/text-file', (_request, reply) =>
      reply.type('text/plain').send(Readable.from(['line\n'.repeat(1000)])),
    );
    await app.ready();
  });
  afterAll(() => app.close());

  it('compresses JSON from 1 KB with Brotli or gzip and leaves small bodies and streams alone', async () => {
    const list = await app.inject({ url: '/list', headers: { 'accept-encoding': 'br' } });
    expect(list.headers['content-encoding']).toBe('br');
    expect(JSON.parse(decode('br', list.rawPayload))).toEqual(bigJson);
    const gzip = await app.inject({ url: '/list', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');

    const small = await app.inject({ url: '/small', headers: { 'accept-encoding': 'br' } });
    expect(small.headers['content-encoding']).toBeUndefined();

    for (const url of ['/stream', '/events', '/text-file']) {
      const response = await app.inject({ url, headers: { 'accept-encoding': 'br, gzip' } });
      expect(response.headers['content-encoding'], url).toBeUndefined();
      expect(response.rawPayload.length, url).toBeGreaterThan(COMPRESSION_THRESHOLD_BYTES);
    }
  });
});
