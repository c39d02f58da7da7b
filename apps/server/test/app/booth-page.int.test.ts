/**
 * The booth page as the server sends it (/b/{id} and /regular/photobooths/{id}): the prerendered
 * frame with the booth's name and venue in place of its placeholders, the booth and its first
 * templates inlined for the app, escaped for where they stand, kept for a short while; an
 * unknown or unlinked booth gets the plain frame (whose app shows the not-found panel) as a 404.
 * The build folder is made here as apps/web/scripts/prerender.ts lays it out.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { BOOTH_TEMPLATES_PAGE_SIZE } from '@flashbooth/contracts/rules';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle } from '../../src/db/client.js';
import { openPglite } from '../databases.js';
import { BOOTH_PAGE_TTL_SECONDS } from '../../src/plugins/web-app.js';
import {
  bearer,
  createOrg,
  registerDevice,
  signedIn,
  signedInSuperUser,
  startApp,
  type TestApp,
} from '../harness.js';
import { createTemplate } from '../media-fixtures.js';

const PLACEHOLDERS = {
  supportEmail: 'fb-support-local@fb-support-domain.invalid',
  partnershipEmail: 'fb-partnership-local@fb-partnership-domain.invalid',
  demoFormUrl: '/fb-demo-form-url.invalid',
};
const BOOTH_PLACEHOLDERS = { deviceName: 'fb-booth-device-name', orgName: 'fb-booth-venue-name' };

const SHELL = `<!doctype html><html lang="en"><head><title>Flashbooth</title><!--app-config--></head><body><div id="root"></div><script type="module" src="/assets/index-a1b2c3.js"></script></body></html>`;
const FRAME = SHELL.replace(
  '<div id="root"></div>',
  '<div id="root" data-prerendered="frame"><div class="booth-skeleton" aria-busy="true"></div></div>',
);
const BOOTH_FRAME = SHELL.replace(
  '<div id="root"></div>',
  `<div id="root" data-prerendered="frame"><dialog open="" class="dialog booth-location-dialog">` +
    `<dd data-testid="location-org">${BOOTH_PLACEHOLDERS.orgName}</dd>` +
    `<dd data-testid="location-device">${BOOTH_PLACEHOLDERS.deviceName}</dd>` +
    `<a href="mailto:${PLACEHOLDERS.supportEmail}">help</a></dialog></div>`,
);

function makeDist(): string {
  const dist = mkdtempSync(path.join(os.tmpdir(), 'flashbooth-booth-page-'));
  mkdirSync(path.join(dist, 'prerendered'));
  writeFileSync(path.join(dist, 'index.html'), SHELL);
  writeFileSync(path.join(dist, 'prerendered/b-deviceId.html'), FRAME);
  writeFileSync(path.join(dist, 'prerendered/booth-frame.html'), BOOTH_FRAME);
  const boothPaths = ['/b/:deviceId', '/regular/photobooths/:deviceId'];
  writeFileSync(
    path.join(dist, 'prerendered.json'),
    JSON.stringify({
      placeholders: PLACEHOLDERS,
      pages: boothPaths.map((route) => ({ path: route, file: 'prerendered/b-deviceId.html' })),
      boothFrame: {
        file: 'prerendered/booth-frame.html',
        paths: boothPaths,
        placeholders: BOOTH_PLACEHOLDERS,
      },
    }),
  );
  return dist;
}

/** The JSON the page carries for the app. */
function inlined(html: string) {
  const match = /<script type="application\/json" id="booth-data">([^<]*)<\/script>/.exec(html);
  if (!match) throw new Error('no #booth-data in the page');
  return JSON.parse(match[1]!) as {
    device_id: number;
    rendered_at: number;
    device: { id: number; name: string; org_name: string | null; price_rupees: number };
    templates: { items: { id: number; name: string }[]; last_evaluated_key: string | null };
  };
}

describe('booth page', () => {
  let database: DatabaseHandle;
  let testApp: TestApp;
  let app: FastifyInstance;
  let boothId: number;
  let unlinkedId: number;
  const hostileName = 'Booth </script><img src=x onerror=alert(1)> \u2028\u2029 end';
  const venueName = 'Café & "Co" <b>bold</b>';

  beforeAll(async () => {
    database = await openPglite();
    testApp = await startApp(database, {
      WEB_DIST_DIR: makeDist(),
      SUPPORT_EMAIL: 'help@venue.example',
    });
    app = testApp.app;
    const { token } = await signedInSuperUser(testApp);
    const orgId = await createOrg(database, venueName);
    boothId = (await registerDevice(app, token, { orgId, name: hostileName, priceRupees: 50 })).id;
    unlinkedId = (await registerDevice(app, token, { name: 'Spare booth' })).id;
    for (let i = 0; i < BOOTH_TEMPLATES_PAGE_SIZE + 1; i += 1) {
      await createTemplate(database.db, { orgIds: [orgId], slots: 0 });
    }
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  const get = (url: string, headers: Record<string, string> = {}) =>
    app.inject({ method: 'GET', url, headers });

  it('shows the booth’s name and venue in the HTML, escaped, and inlines the booth and its first templates', async () => {
    const response = await get(`/b/${boothId}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    const html = response.body;
    expect(html).not.toContain('fb-booth-');
    expect(html).toContain('help@venue.example');
    expect(html).toContain(
      '<dd data-testid="location-device">Booth &lt;/script&gt;&lt;img src=x onerror=alert(1)&gt;',
    );
    expect(html).toContain(
      '<dd data-testid="location-org">Café &amp; &quot;Co&quot; &lt;b&gt;bold&lt;/b&gt;</dd>',
    );
    // Nothing a name holds can end the script element or break a line in it.
    expect(html).not.toContain('<img');
    expect(html.match(/<\/script>/g)).toHaveLength(3); // app-config, booth-data, the entry
    const json = /id="booth-data">([^<]*)</.exec(html)![1]!;
    expect(json).not.toMatch(/[\u2028\u2029]/);
    expect(json).toContain('\\u2028\\u2029');

    const data = inlined(html);
    expect(data.device_id).toBe(boothId);
    expect(data.device).toEqual({
      id: boothId,
      name: hostileName,
      org_name: venueName,
      price_rupees: 50,
      status: expect.any(String),
    });
    expect(data.templates.items).toHaveLength(BOOTH_TEMPLATES_PAGE_SIZE);
    expect(data.templates.last_evaluated_key).not.toBeNull();
    expect(Math.abs(data.rendered_at - Date.now())).toBeLessThan(60_000);
  });

  it('inlines what the visitor API answers for the same booth, at both addresses', async () => {
    const html = (await get(`/regular/photobooths/${boothId}`)).body;
    const data = inlined(html);
    const { token } = await signedIn(app, 'regular');
    const api = (url: string) =>
      app.inject({ method: 'GET', url: `/api/regular/${url}`, headers: bearer(token) });
    expect(data.device).toEqual((await api(`devices/${boothId}`)).json());
    expect(data.templates).toEqual(
      (await api(`devices/${boothId}/templates?limit=${BOOTH_TEMPLATES_PAGE_SIZE}`)).json(),
    );
  });

  it('is kept for a short while, here and in caches, with a validator', async () => {
    const first = await get(`/b/${boothId}`, { 'accept-encoding': 'br' });
    expect(first.headers['cache-control']).toBe(`public, max-age=${BOOTH_PAGE_TTL_SECONDS}`);
    expect(first.headers['content-encoding']).toBe('br');
    expect(first.headers.vary).toContain('Accept-Encoding');
    const again = await get(`/b/${boothId}`, { 'accept-encoding': 'br' });
    expect(again.headers.etag).toBe(first.headers.etag);
    const revalidated = await get(`/b/${boothId}`, {
      'accept-encoding': 'br',
      'if-none-match': String(first.headers.etag),
    });
    expect(revalidated.statusCode).toBe(304);
  });

  it('answers an unknown, unlinked or malformed booth with the plain frame as a 404', async () => {
    for (const url of [
      '/b/999999',
      `/b/${unlinkedId}`,
      '/b/abc',
      '/b/0',
      '/b/99999999999',
      '/regular/photobooths/999999',
    ]) {
      const response = await get(url);
      expect(response.statusCode, url).toBe(404);
      expect(response.headers['cache-control'], url).toBe('no-cache');
      expect(response.body, url).toContain('data-prerendered="frame"');
      expect(response.body, url).not.toContain('booth-data');
      expect(response.body, url).not.toContain('location-device');
    }
  });
});
