import {
  DB_INT_MAX,
  MEDIA_MESSAGES,
  OFFSET_MAX,
  PROFILE_MESSAGES,
  SEARCH_MAX_LENGTH,
  SOFTWARE_MESSAGES,
  TEMPLATE_FILTER_MESSAGE,
} from '@flashbooth/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client.js';
import { databaseTargets } from '../databases.js';
import { bearer, signedIn, staffFixtures, startApp, type StaffFixtures } from '../harness.js';

/*
 * Issue 14, item 5: text with a NUL character and numbers outside the database's integer range
 * are refused by the contract schemas with the field's message (400), before any query; none of
 * them is a 500 (PostgreSQL refuses both).
 */

const NUL = '\u0000';
const TOO_BIG = DB_INT_MAX + 1;
const nul = (field: string) => `${field} must not contain a NUL character.`;
const ID = 'id must be a positive whole number.';
const OFFSET = `offset must be a whole number from 0 to ${OFFSET_MAX}.`;

type Method = 'GET' | 'POST' | 'PATCH';
interface Case {
  name: string;
  pool: 'regular' | 'enterprise';
  method: Method;
  url: string;
  payload?: unknown;
  message: string;
}

describe.each(databaseTargets)('input checked before the database on $name', ({ open }) => {
  let database: DatabaseHandle;
  let app: FastifyInstance;
  let staff: StaffFixtures;
  let visitorToken: string;

  beforeAll(async () => {
    database = await open();
    const testApp = await startApp(database);
    app = testApp.app;
    staff = await staffFixtures(testApp);
    visitorToken = (await signedIn(app, 'regular')).token;
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  const call = (c: Pick<Case, 'pool' | 'method' | 'url' | 'payload'>) =>
    app.inject({
      method: c.method,
      url: `/api/${c.pool}/${c.url}`,
      headers: bearer(c.pool === 'regular' ? visitorToken : staff.superUser.token),
      ...(c.payload !== undefined ? { payload: c.payload as object } : {}),
    });

  const expectRefused = async (c: Case) => {
    const response = await call(c);
    expect(response.statusCode, `${c.name}: ${response.body}`).toBe(400);
    expect(response.json(), c.name).toEqual({ message: c.message, code: 'validation_error' });
  };

  it('refuses NUL in every search with the search message', async () => {
    const searches: [Case['pool'], string][] = [
      ['regular', 'transactions'],
      ['regular', 'media'],
      ['regular', `devices/${staff.device.id}/templates`],
      ['enterprise', 'devices'],
      ['enterprise', `devices/${staff.device.id}/errors`],
      ['enterprise', 'templates'],
      ['enterprise', 'software/channels'],
      ['enterprise', 'software/releases'],
    ];
    for (const [pool, path] of searches) {
      await expectRefused({
        name: path,
        pool,
        method: 'GET',
        url: `${path}?search=${encodeURIComponent(`Booth${NUL}`)}`,
        message: nul('search'),
      });
    }
  });

  it('caps search text at 200 characters', async () => {
    for (const path of ['transactions', 'media']) {
      const long = await call({
        pool: 'regular',
        method: 'GET',
        url: `${path}?search=${'x'.repeat(SEARCH_MAX_LENGTH + 1)}`,
      });
      expect(long.statusCode).toBe(400);
      expect(long.json().message).toBe(`search must be at most ${SEARCH_MAX_LENGTH} characters.`);
      const longest = await call({
        pool: 'regular',
        method: 'GET',
        url: `${path}?search=${'x'.repeat(SEARCH_MAX_LENGTH)}`,
      });
      expect(longest.statusCode).toBe(200);
    }
  });

  it('refuses NUL in every text field with that field’s message', async () => {
    const device = staff.device.id;
    const cases: Case[] = [
      {
        name: 'POST devices name',
        pool: 'enterprise',
        method: 'POST',
        url: 'devices',
        payload: { name: `Lobby${NUL}Booth` },
        message: nul('Device name'),
      },
      {
        name: 'PATCH devices name',
        pool: 'enterprise',
        method: 'PATCH',
        url: `devices/${device}`,
        payload: { name: NUL },
        message: nul('Device name'),
      },
      {
        name: 'sign-up name',
        pool: 'regular',
        method: 'POST',
        url: 'auth/sign-up',
        payload: { phone: '+919876500001', name: `Asha${NUL}` },
        message: nul('Name'),
      },
      {
        name: 'profile name',
        pool: 'regular',
        method: 'PATCH',
        url: 'users/self',
        payload: { name: `Asha${NUL}` },
        message: nul('Full name'),
      },
      {
        name: 'profile email',
        pool: 'regular',
        method: 'PATCH',
        url: 'users/self',
        payload: { email: `asha${NUL}@example.com` },
        message: PROFILE_MESSAGES.email,
      },
      {
        name: 'profile gender',
        pool: 'enterprise',
        method: 'PATCH',
        url: 'users/self',
        payload: { gender: `x${NUL}` },
        message: nul('Gender'),
      },
      {
        name: 'caption',
        pool: 'regular',
        method: 'PATCH',
        url: 'media/1',
        payload: { caption: `Hello${NUL}` },
        message: nul('Caption'),
      },
      {
        name: 'redirect_url',
        pool: 'regular',
        method: 'POST',
        url: 'payments/checkout',
        payload: { txn_id: 1, redirect_url: `https://booths.example/back${NUL}` },
        message: 'redirect_url must be an absolute http(s) URL.',
      },
      {
        name: 'credit note',
        pool: 'enterprise',
        method: 'POST',
        url: 'users/1/credits',
        payload: { amount_rupees: 10, note: `goodwill${NUL}` },
        message: nul('note'),
      },
      {
        name: 'template name',
        pool: 'enterprise',
        method: 'POST',
        url: 'templates',
        payload: { name: `Gala${NUL}` },
        message: nul('Template name'),
      },
      {
        name: 'template rename',
        pool: 'enterprise',
        method: 'PATCH',
        url: 'templates/1',
        payload: { name: `Gala${NUL}` },
        message: nul('Template name'),
      },
      {
        name: 'slot filter',
        pool: 'enterprise',
        method: 'POST',
        url: 'templates/1/images',
        payload: { x: 0, y: 0, w: 10, h: 10, filter: `warm${NUL}` },
        // A filter is one of a known list (issue 38): a NUL makes it none of them.
        message: TEMPLATE_FILTER_MESSAGE,
      },
      {
        name: 'sample key',
        pool: 'enterprise',
        method: 'POST',
        url: 'templates/1/sample/confirm',
        payload: { sample_key: `templates/samples/1/a${NUL}.jpg` },
        message: nul('sample_key'),
      },
      {
        name: 'channel name',
        pool: 'enterprise',
        method: 'POST',
        url: 'software/channels',
        payload: { name: `stable${NUL}` },
        message: nul('Channel name'),
      },
      {
        name: 'channel description',
        pool: 'enterprise',
        method: 'PATCH',
        url: 'software/channels/1',
        payload: { description: `the${NUL}channel` },
        message: nul('Description'),
      },
      {
        name: 'release notes',
        pool: 'enterprise',
        method: 'POST',
        url: 'software/releases',
        payload: { version: '1.0.0', release_notes: `fixes${NUL}` },
        message: nul('Release notes'),
      },
      {
        name: 'release file key',
        pool: 'enterprise',
        method: 'POST',
        url: 'software/releases/1/file/confirm',
        payload: { s3_key: `releases/1/a${NUL}.bin` },
        message: SOFTWARE_MESSAGES.uploadForeign,
      },
      {
        name: 'templates cursor',
        pool: 'regular',
        method: 'GET',
        url: `devices/${device}/templates?last_evaluated_key=${encodeURIComponent(NUL)}`,
        message: nul('last_evaluated_key'),
      },
    ];
    for (const c of cases) await expectRefused(c);
  });

  it('refuses ids, id lists, limits and offsets outside the column range', async () => {
    const device = staff.device.id;
    const cases: Case[] = [
      {
        name: 'payments/create device_id',
        pool: 'regular',
        method: 'POST',
        url: 'payments/create',
        payload: { device_id: TOO_BIG, template_id: 1 },
        message: 'device_id must be a positive whole number.',
      },
      {
        name: 'payments/create template_id as text',
        pool: 'regular',
        method: 'POST',
        url: 'payments/create',
        payload: { device_id: device, template_id: '99999999999' },
        message: 'template_id must be a positive whole number.',
      },
      {
        name: 'payments/checkout txn_id',
        pool: 'regular',
        method: 'POST',
        url: 'payments/checkout',
        payload: { txn_id: TOO_BIG, redirect_url: 'https://booths.example/back' },
        message: 'txn_id must be a positive whole number.',
      },
      {
        name: 'media/repost_allowed media_ids',
        pool: 'regular',
        method: 'PATCH',
        url: 'media/repost_allowed',
        payload: { media_ids: [1, TOO_BIG], is_repost_allowed: true },
        message: MEDIA_MESSAGES.mediaIds,
      },
      {
        name: 'media/uploaded media_ids',
        pool: 'regular',
        method: 'GET',
        url: `media/uploaded?media_ids=1,${TOO_BIG}`,
        message: MEDIA_MESSAGES.mediaIds,
      },
      {
        name: 'devices offset',
        pool: 'enterprise',
        method: 'GET',
        url: `devices?offset=${TOO_BIG}`,
        message: OFFSET,
      },
      {
        name: 'devices offset past the cap',
        pool: 'enterprise',
        method: 'GET',
        url: `devices?offset=${OFFSET_MAX + 1}`,
        message: OFFSET,
      },
      {
        name: 'transactions offset',
        pool: 'regular',
        method: 'GET',
        url: `transactions?offset=${TOO_BIG}`,
        message: OFFSET,
      },
      {
        name: 'media offset',
        pool: 'regular',
        method: 'GET',
        url: `media?offset=-1`,
        message: OFFSET,
      },
      {
        name: 'credit ledger offset',
        pool: 'enterprise',
        method: 'GET',
        url: `users/1/credits/ledger?offset=${TOO_BIG}`,
        message: OFFSET,
      },
      {
        name: 'software limit',
        pool: 'enterprise',
        method: 'GET',
        url: 'software/releases?limit=201',
        message: 'limit must be a whole number from 1 to 200.',
      },
      {
        name: 'devices/{id}',
        pool: 'enterprise',
        method: 'GET',
        url: `devices/${TOO_BIG}`,
        message: ID,
      },
      {
        name: 'visitor devices/{id}',
        pool: 'regular',
        method: 'GET',
        url: `devices/${TOO_BIG}`,
        message: ID,
      },
      {
        name: 'payments/{id}/status',
        pool: 'regular',
        method: 'GET',
        url: `payments/${TOO_BIG}/status`,
        message: ID,
      },
      {
        name: 'users/{id}',
        pool: 'enterprise',
        method: 'GET',
        url: `users/${TOO_BIG}`,
        message: 'id must be self or a positive whole number.',
      },
      {
        name: 'templates/{id}/images/{imageId}',
        pool: 'enterprise',
        method: 'PATCH',
        url: `templates/1/images/${TOO_BIG}`,
        payload: { x: 1 },
        message: 'imageId must be a positive whole number.',
      },
      {
        name: 'orgs/{orgId}/templates',
        pool: 'enterprise',
        method: 'GET',
        url: `orgs/${TOO_BIG}/templates`,
        message: 'orgId must be a positive whole number.',
      },
      {
        name: 'devices/{id}/link org_id',
        pool: 'enterprise',
        method: 'PATCH',
        url: `devices/${device}/link`,
        payload: { org_id: TOO_BIG },
        message: 'Organization ID must be a positive whole number.',
      },
      {
        name: 'devices/{id} software_channel_id',
        pool: 'enterprise',
        method: 'PATCH',
        url: `devices/${device}`,
        payload: { software_channel_id: TOO_BIG },
        message: 'Software channel must be a channel id or null.',
      },
      {
        name: 'capture template_id',
        pool: 'regular',
        method: 'POST',
        url: `devices/${device}/capture`,
        payload: { template_id: TOO_BIG },
        message: 'template_id must be a template id.',
      },
      {
        name: 'channel release_id',
        pool: 'enterprise',
        method: 'PATCH',
        url: 'software/channels/1',
        payload: { release_id: TOO_BIG },
        message: SOFTWARE_MESSAGES.releaseIdInvalid,
      },
    ];
    for (const c of cases) await expectRefused(c);
  });

  it('accepts the edges of the range and answers an unknown id with 404, not 500', async () => {
    const edge = await call({ pool: 'enterprise', method: 'GET', url: `devices/${DB_INT_MAX}` });
    expect(edge.statusCode).toBe(404);
    const deepest = await call({
      pool: 'enterprise',
      method: 'GET',
      url: `devices?offset=${OFFSET_MAX}`,
    });
    expect(deepest.statusCode).toBe(200);
    expect(deepest.json()).toMatchObject({ items: [], total_count: 1 });
    const repost = await call({
      pool: 'regular',
      method: 'PATCH',
      url: 'media/repost_allowed',
      payload: { media_ids: [DB_INT_MAX], is_repost_allowed: true },
    });
    expect(repost.statusCode).toBeLessThan(500);
  });
});
