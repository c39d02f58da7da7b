/**
 * The public wall's page as the server sends it (/regular/wall, issue 41): the prerendered wall
 * with the first page of cards in its list's place, escaped, and that page inlined for the app
 * exactly as the API answers it signed out; the app starts on use. The build folder is made here
 * as apps/web/scripts/prerender.ts lays it out.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { WALL_PAGE_SIZE } from '@flashbooth/contracts/rules';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../../src/db/client.js';
import { devices, media } from '../../src/db/schema.js';
import { createOrg, signedIn, startApp, type TestApp } from '../harness.js';

const PLACEHOLDERS = {
  supportEmail: 'fb-support-local@fb-support-domain.invalid',
  partnershipEmail: 'fb-partnership-local@fb-partnership-domain.invalid',
  demoFormUrl: '/fb-demo-form-url.invalid',
};

const SHELL = `<!doctype html><html lang="en"><head><title>Flashbooth</title><!--app-config--></head><body><div id="root"></div><script type="module" src="/assets/app-loader-a1b2c3.js"></script></body></html>`;
const WALL = SHELL.replace(
  '<div id="root"></div>',
  '<div id="root" data-prerendered="wall" data-app-start="use"><main class="page"><h1>Wall</h1>' +
    '<a href="mailto:fb-support-local@fb-support-domain.invalid">help</a>' +
    '<!--wall-list--><div aria-busy="true"><ul class="card-grid wall-grid" aria-hidden="true"></ul></div><!--/wall-list-->' +
    '</main></div>',
);

function makeDist(): string {
  const dist = mkdtempSync(path.join(os.tmpdir(), 'flashbooth-wall-page-'));
  mkdirSync(path.join(dist, 'prerendered'));
  writeFileSync(path.join(dist, 'index.html'), SHELL);
  writeFileSync(path.join(dist, 'prerendered/regular-wall.html'), WALL);
  writeFileSync(
    path.join(dist, 'prerendered.json'),
    JSON.stringify({
      placeholders: PLACEHOLDERS,
      pages: [{ path: '/regular/wall', file: 'prerendered/regular-wall.html' }],
    }),
  );
  return dist;
}

/** The JSON the page carries for the app. */
function inlined(html: string) {
  const match = /<script type="application\/json" id="wall-data">([^<]*)<\/script>/.exec(html);
  if (!match) throw new Error('no #wall-data in the page');
  return JSON.parse(match[1]!) as {
    rendered_at: number;
    search: string;
    page: number;
    data: { items: { id: number; caption: string | null }[]; total_count: number };
  };
}

describe('wall page', () => {
  let database: DatabaseHandle;
  let testApp: TestApp;
  let app: FastifyInstance;
  let orgId: number;
  let boothId: number;
  let userId: number;
  const hostileName = 'Ria </script><img src=x onerror=alert(1)> \u2028 end';
  const hostileCaption = 'Night "out" <b>bold</b> & </p><script>alert(1)</script>';

  beforeAll(async () => {
    database = await openDatabase({});
    testApp = await startApp(database, {
      WEB_DIST_DIR: makeDist(),
      SUPPORT_EMAIL: 'help@venue.example',
    });
    app = testApp.app;
    orgId = await createOrg(database, 'Café & "Co"');
    const [booth] = await database.db
      .insert(devices)
      .values({ name: 'Atrium <booth>', thingName: `wall-${randomUUID()}`, orgId, secretHash: 'x' })
      .returning({ id: devices.id });
    boothId = booth!.id;
    userId = (await signedIn(app, 'regular', undefined, hostileName)).userId;
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  let minute = 0;
  async function photo(caption: string | null = null): Promise<number> {
    minute += 1;
    const captureId = randomUUID();
    const [row] = await database.db
      .insert(media)
      .values({
        userId,
        deviceId: boothId,
        orgId,
        captureId,
        s3Key: `media/${userId}/${captureId}.jpg`,
        caption,
        isPublic: true,
        isUploaded: true,
        createdAt: new Date(Date.UTC(2025, 8, 1, 0, minute)),
      })
      .returning({ id: media.id });
    return row!.id;
  }

  const get = (headers: Record<string, string> = {}) =>
    app.inject({ method: 'GET', url: '/regular/wall', headers });

  it('says the wall is empty in the HTML, and starts the app on use', async () => {
    const response = await get();
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    // A page a visitor opens from outside: no opener policy (lib/opener-policy.ts).
    expect(response.headers['cross-origin-opener-policy']).toBeUndefined();
    expect(response.body).toContain('data-prerendered="wall" data-app-start="use"');
    expect(response.body).toContain('No public media found.');
    expect(response.body).not.toContain('wall-list');
    expect(response.body).toContain('help@venue.example');
    expect(inlined(response.body).data).toEqual({ items: [], total_count: 0, next_cursor: null });
  });

  it('shows the first page of cards, escaped, and inlines what the API answers signed out', async () => {
    // A page kept from before is shown for a few seconds: the clock of the page cache is real.
    await new Promise((resolve) => setTimeout(resolve, 5_100));
    const ids: number[] = [];
    for (let i = 0; i < WALL_PAGE_SIZE + 2; i += 1)
      ids.push(await photo(i === 11 ? hostileCaption : null));
    const html = (await get()).body;
    // The newest first, ten of twelve, with the page numbers.
    const shown = [...html.matchAll(/data-media-id="(\d+)"/g)].map((m) => Number(m[1]));
    expect(shown).toEqual(ids.slice(2).reverse());
    expect(html).toContain('aria-label="Page 2">2</button>');
    expect(html).not.toContain('<img src=x');
    expect(html).not.toContain('<script>alert');
    expect(html).toContain(
      '<h2 class="wall-card-user">Ria &lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;',
    );
    expect(html).toContain(
      '<p class="wall-card-caption">Night &quot;out&quot; &lt;b&gt;bold&lt;/b&gt; &amp; &lt;/p&gt;&lt;script&gt;alert(1)&lt;/script&gt;</p>',
    );
    expect(html).toContain('Café &amp; &quot;Co&quot; · Atrium &lt;booth&gt;');
    expect(html.match(/<\/script>/g)).toHaveLength(3); // app-config, wall-data, the loader
    const json = /id="wall-data">([^<]*)</.exec(html)![1]!;
    expect(json).not.toMatch(/[\u2028\u2029]/);

    const data = inlined(html);
    expect(data.search).toBe('');
    expect(data.page).toBe(1);
    expect(Math.abs(data.rendered_at - Date.now())).toBeLessThan(60_000);
    const api = await app.inject({
      method: 'GET',
      url: `/api/regular/media/public?limit=${WALL_PAGE_SIZE}&offset=0`,
    });
    expect(data.data).toEqual(api.json());
  });

  it('is compressed, revalidated by its validator and kept while the wall is unchanged', async () => {
    const first = await get({ 'accept-encoding': 'br' });
    expect(first.headers['content-encoding']).toBe('br');
    expect(first.headers['cache-control']).toBe('no-cache');
    expect(first.headers.vary).toContain('Accept-Encoding');
    const again = await get({
      'accept-encoding': 'br',
      'if-none-match': String(first.headers.etag),
    });
    expect(again.statusCode).toBe(304);
    expect(first.headers['cross-origin-opener-policy']).toBeUndefined();
    expect(again.headers['cross-origin-opener-policy']).toBeUndefined();
  });
});
