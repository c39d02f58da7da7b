import { DEVICE_MESSAGES, TEMPLATE_MESSAGES } from '@flashbooth/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../src/db/client.js';
import { devices, organizations } from '../src/db/schema.js';
import { createStorage } from '../src/modules/storage/create-storage.js';
import type { ObjectStorage } from '../src/modules/storage/storage.js';
import { databaseTargets } from './databases.js';
import {
  bearer,
  newPhone,
  signedIn,
  signedInOrgStaff,
  signedInProductAdmin,
  startApp,
} from './harness.js';

const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0xff, 0xd9]);
const PNG = Buffer.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
]);

interface TemplateBody {
  id: number;
  name: string;
  orientation: string;
  is_cut: boolean;
  is_duplicated: boolean;
  sample_s3_url: string | null;
  foreground_s3_url: string | null;
  images: { id: number; x: number; y: number; w: number; h: number; filter: string }[];
}

describe.each(databaseTargets)('templates API on $name', ({ open }) => {
  const superPhone = newPhone();
  let database: DatabaseHandle;
  let app: FastifyInstance;
  /** The same local store (folder, secret, clock) the app uses, to look at objects directly. */
  let storage: ObjectStorage;

  let superToken: string;
  let productAdminToken: string;
  let orgA: number;
  let orgB: number;
  let memberA: string;
  let adminB: string;
  let visitor: string;

  beforeAll(async () => {
    database = await open();
    const started = await startApp(database, {
      OTP_SEND_LIMIT_PER_IP: '1000',
      SUPER_USER_PHONES: superPhone,
    });
    app = started.app;
    storage = await createStorage(started.config, started.clock.now);
    const db = database.db;
    superToken = (await signedIn(app, 'enterprise', superPhone)).token;
    productAdminToken = (await signedInProductAdmin(app, database)).token;
    [orgA, orgB] = (
      await db
        .insert(organizations)
        .values([{ name: 'Sunrise Mall', logoKey: 'logos/sunrise.png' }, { name: 'Harbour Café' }])
        .returning({ id: organizations.id })
    ).map((row) => row.id) as [number, number];
    const staff = async (orgId: number, role: 'admin' | 'member') =>
      (await signedInOrgStaff(app, database, orgId, role)).token;
    memberA = await staff(orgA, 'member');
    adminB = await staff(orgB, 'admin');
    visitor = (await signedIn(app, 'regular')).token;
  });
  afterAll(async () => {
    await app.close();
    await storage.close();
    await database.close();
  });

  const call = (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    token: string,
    payload?: object,
    pool = 'enterprise',
  ) =>
    app.inject({
      method,
      url: `/api/${pool}/${url}`,
      headers: bearer(token),
      ...(payload ? { payload } : {}),
    });

  async function template(name = 'Classic strip', orientation?: 'portrait' | 'landscape') {
    const response = await call('POST', 'templates', superToken, {
      name,
      ...(orientation ? { orientation } : {}),
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<TemplateBody>();
  }

  const expectError = (
    response: { statusCode: number; json: () => unknown },
    status: number,
    message: string,
  ) => {
    expect(response.statusCode).toBe(status);
    expect(response.json()).toMatchObject({ message });
  };

  async function device(orgId: number | null) {
    const [row] = await database.db
      .insert(devices)
      .values({
        name: 'Booth',
        orgId,
        thingName: `fb-t${Math.random().toString(36).slice(2, 12)}`,
        secretHash: 'x',
      })
      .returning({ id: devices.id });
    return row!.id;
  }

  it('creates templates for super users and product admins only', async () => {
    const created = await call('POST', 'templates', superToken, { name: '  Wedding  ' });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({
      id: expect.any(Number),
      name: 'Wedding',
      orientation: 'portrait',
      is_cut: false,
      is_duplicated: false,
      sample_s3_url: null,
      foreground_s3_url: null,
      images: [],
    });
    const landscape = await call('POST', 'templates', productAdminToken, {
      name: 'Wide',
      orientation: 'landscape',
    });
    expect(landscape.json()).toMatchObject({ name: 'Wide', orientation: 'landscape' });

    expect((await call('POST', 'templates', memberA, { name: 'Mine' })).statusCode).toBe(403);
    expect((await call('POST', 'templates', adminB, { name: 'Mine' })).statusCode).toBe(403);
    expect((await call('POST', 'templates', visitor, { name: 'Mine' })).statusCode).toBe(401);
    expect((await app.inject({ method: 'GET', url: '/api/enterprise/templates' })).statusCode).toBe(
      401,
    );
  });

  it.each([
    [{ name: '   ' }, TEMPLATE_MESSAGES.nameRequired],
    [{}, TEMPLATE_MESSAGES.nameRequired],
    [{ name: null }, TEMPLATE_MESSAGES.nameRequired],
  ])('refuses the new template %o with the spec message', async (payload, message) => {
    const response = await call('POST', 'templates', superToken, payload);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message, code: 'validation_error' });
  });

  it('refuses an unknown orientation', async () => {
    const response = await call('POST', 'templates', superToken, {
      name: 'X',
      orientation: 'square',
    });
    expect(response.statusCode).toBe(400);
  });

  it('lets every staff member read and search templates, with offset paging', async () => {
    const tag = `Gala${Date.now()}`;
    const made = [];
    for (let index = 0; index < 3; index += 1) made.push(await template(`${tag} ${index}`));
    const search = await call('GET', `templates?search=${tag.toLowerCase()}`, memberA);
    expect(search.statusCode).toBe(200);
    const body = search.json<{ items: TemplateBody[]; total_count: number }>();
    expect(body.total_count).toBe(3);
    // Newest first.
    expect(body.items.map((item) => item.id)).toEqual(made.map((item) => item.id).reverse());
    const second = (await call('GET', `templates?search=${tag}&limit=1&offset=1`, adminB)).json<{
      items: TemplateBody[];
      total_count: number;
    }>();
    expect(second).toMatchObject({ total_count: 3 });
    expect(second.items.map((item) => item.id)).toEqual([made[1]!.id]);
    expect((await call('GET', 'templates?search=%25', memberA)).json()).toMatchObject({
      items: [],
      total_count: 0,
    });
    const all = (await call('GET', 'templates', memberA)).json<{ items: unknown[] }>();
    expect(all.items.length).toBeLessThanOrEqual(10);

    const read = await call('GET', `templates/${made[0]!.id}`, memberA);
    expect(read.json()).toMatchObject({ id: made[0]!.id, name: `${tag} 0` });
    expectError(await call('GET', 'templates/999999', superToken), 404, TEMPLATE_MESSAGES.notFound);
  });

  it('changes a template’s fields (admins only) with the spec’s messages', async () => {
    const { id } = await template('Before');
    expect((await call('PATCH', `templates/${id}`, memberA, { name: 'X' })).statusCode).toBe(403);
    const renamed = await call('PATCH', `templates/${id}`, superToken, { name: '  After ' });
    expect(renamed.json()).toMatchObject({ name: 'After', orientation: 'portrait' });
    const flags = await call('PATCH', `templates/${id}`, productAdminToken, {
      orientation: 'landscape',
      is_cut: true,
      is_duplicated: true,
    });
    expect(flags.json()).toMatchObject({
      name: 'After',
      orientation: 'landscape',
      is_cut: true,
      is_duplicated: true,
    });
    expectError(
      await call('PATCH', `templates/${id}`, superToken, { name: '  ' }),
      400,
      TEMPLATE_MESSAGES.nameEmpty,
    );
    expectError(
      await call('PATCH', `templates/${id}`, superToken, {}),
      400,
      TEMPLATE_MESSAGES.noChanges,
    );
    expect(
      (await call('PATCH', `templates/${id}`, superToken, { sample_key: 'x' })).statusCode,
    ).toBe(400);
    expect((await call('PATCH', `templates/${id}`, superToken, { is_cut: 'yes' })).statusCode).toBe(
      400,
    );
    expectError(
      await call('PATCH', 'templates/999999', superToken, { name: 'Y' }),
      404,
      TEMPLATE_MESSAGES.notFound,
    );
  });

  it('deletes templates (admins only)', async () => {
    const { id } = await template('Short-lived');
    expect((await call('DELETE', `templates/${id}`, memberA)).statusCode).toBe(403);
    expect((await call('DELETE', `templates/${id}`, superToken)).statusCode).toBe(204);
    expect((await call('GET', `templates/${id}`, superToken)).statusCode).toBe(404);
    expect((await call('DELETE', `templates/${id}`, superToken)).statusCode).toBe(404);
  });

  it('manages image slots: defaults, validation, order, ownership and permissions', async () => {
    const { id } = await template('Three up');
    const other = await template('Other');
    const first = await call('POST', `templates/${id}/images`, superToken, {
      x: 61,
      y: 555,
      w: 1080,
      h: 720,
    });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toEqual({
      id: expect.any(Number),
      x: 61,
      y: 555,
      w: 1080,
      h: 720,
      filter: 'none',
    });
    const second = (
      await call('POST', `templates/${id}/images`, productAdminToken, {
        x: 61.5,
        y: 1440,
        w: 1080,
        h: 720,
        filter: 'sepia',
      })
    ).json<{ id: number }>();

    for (const payload of [
      { x: -1, y: 0, w: 1, h: 1 },
      { x: 0, y: 0, w: 0, h: 1 },
      { x: 0, y: 0, w: 1, h: -2 },
      { x: 'a', y: 0, w: 1, h: 1 },
      { y: 0, w: 1, h: 1 },
      { x: 0, y: 0, w: 1, h: 1, filter: '  ' },
    ]) {
      const response = await call('POST', `templates/${id}/images`, superToken, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json()).toMatchObject({ code: 'validation_error' });
    }
    expect(
      (await call('POST', `templates/${id}/images`, memberA, { x: 0, y: 0, w: 1, h: 1 }))
        .statusCode,
    ).toBe(403);
    expect(
      (await call('POST', 'templates/999999/images', superToken, { x: 0, y: 0, w: 1, h: 1 }))
        .statusCode,
    ).toBe(404);

    const listed = await call('GET', `templates/${id}/images`, memberA);
    expect(listed.json<{ items: { id: number }[] }>().items.map((item) => item.id)).toEqual([
      first.json<{ id: number }>().id,
      second.id,
    ]);
    const withImages = (await call('GET', `templates/${id}`, memberA)).json<TemplateBody>();
    expect(withImages.images).toEqual(listed.json<{ items: unknown[] }>().items);

    const moved = await call('PATCH', `templates/${id}/images/${second.id}`, superToken, {
      y: 2325,
      filter: 'bw',
    });
    expect(moved.json()).toMatchObject({ id: second.id, x: 61.5, y: 2325, filter: 'bw' });
    expectError(
      await call('PATCH', `templates/${id}/images/${second.id}`, superToken, {}),
      400,
      TEMPLATE_MESSAGES.noChanges,
    );
    expect(
      (await call('PATCH', `templates/${id}/images/${second.id}`, memberA, { y: 1 })).statusCode,
    ).toBe(403);
    // A slot is reached only through its own template.
    expectError(
      await call('PATCH', `templates/${other.id}/images/${second.id}`, superToken, { y: 1 }),
      404,
      TEMPLATE_MESSAGES.imageNotFound,
    );
    expect(
      (await call('DELETE', `templates/${other.id}/images/${second.id}`, superToken)).statusCode,
    ).toBe(404);
    expect((await call('DELETE', `templates/${id}/images/${second.id}`, memberA)).statusCode).toBe(
      403,
    );
    expect(
      (await call('DELETE', `templates/${id}/images/${second.id}`, superToken)).statusCode,
    ).toBe(204);
    expect(
      (await call('GET', `templates/${id}/images`, superToken)).json<{ items: unknown[] }>().items,
    ).toHaveLength(1);
  });

  it('associates organizations (admins only) and shows members only their own', async () => {
    const { id } = await template('Festival');
    for (const payload of [{}, { org_id: '' }, { org_id: '  ' }, { org_id: null }]) {
      expectError(
        await call('POST', `templates/${id}/orgs`, superToken, payload),
        400,
        TEMPLATE_MESSAGES.orgIdRequired,
      );
    }
    expectError(
      await call('POST', `templates/${id}/orgs`, superToken, { org_id: 999999 }),
      404,
      TEMPLATE_MESSAGES.orgNotFound,
    );
    expect((await call('POST', `templates/${id}/orgs`, memberA, { org_id: orgA })).statusCode).toBe(
      403,
    );
    const added = await call('POST', `templates/${id}/orgs`, superToken, { org_id: ` ${orgA} ` });
    expect(added.statusCode).toBe(201);
    expect(added.json()).toMatchObject({ id: orgA, name: 'Sunrise Mall' });
    expect(
      (await call('POST', `templates/${id}/orgs`, superToken, { org_id: orgA })).statusCode,
    ).toBe(200);
    expect(
      (await call('POST', `templates/${id}/orgs`, productAdminToken, { org_id: orgB })).statusCode,
    ).toBe(201);

    const all = (await call('GET', `templates/${id}/orgs`, superToken)).json<{
      items: { id: number; name: string; logo_s3_url: string | null }[];
    }>();
    expect(all.items.map((org) => org.id)).toEqual([orgA, orgB]);
    expect(all.items[0]!.logo_s3_url).toMatch(/^\/api\/storage\/objects\/logos\/sunrise\.png\?/);
    expect(all.items[1]).toEqual({ id: orgB, name: 'Harbour Café', logo_s3_url: null });
    const mine = (await call('GET', `templates/${id}/orgs`, memberA)).json<{
      items: { id: number }[];
    }>();
    expect(mine.items.map((org) => org.id)).toEqual([orgA]);
    expect((await call('GET', 'templates/999999/orgs', memberA)).statusCode).toBe(404);

    const ofA = await call('GET', `orgs/${orgA}/templates`, memberA);
    expect(ofA.statusCode).toBe(200);
    expect(ofA.json<{ items: TemplateBody[] }>().items.map((item) => item.id)).toContain(id);
    // Another organization's list is hidden from its non-members.
    expectError(
      await call('GET', `orgs/${orgB}/templates`, memberA),
      404,
      TEMPLATE_MESSAGES.orgNotFound,
    );
    expect((await call('GET', `orgs/${orgB}/templates`, adminB)).statusCode).toBe(200);
    expect((await call('GET', `orgs/${orgB}/templates`, superToken)).statusCode).toBe(200);
    expect((await call('GET', 'orgs/999999/templates', superToken)).statusCode).toBe(404);

    expect((await call('DELETE', `templates/${id}/orgs/${orgB}`, adminB)).statusCode).toBe(403);
    expect((await call('DELETE', `templates/${id}/orgs/${orgB}`, superToken)).statusCode).toBe(204);
    expectError(
      await call('DELETE', `templates/${id}/orgs/${orgB}`, superToken),
      404,
      TEMPLATE_MESSAGES.notAssociated,
    );
    expect(
      (await call('GET', `orgs/${orgB}/templates`, adminB))
        .json<{ items: { id: number }[] }>()
        .items.map((item) => item.id),
    ).not.toContain(id);
  });

  it('lists a booth’s templates to visitors with cursor paging and search', async () => {
    const [orgC] = (
      await database.db
        .insert(organizations)
        .values({ name: 'Pier Arcade' })
        .returning({ id: organizations.id })
    ).map((row) => row.id) as [number];
    const booth = await device(orgC);
    const ids: number[] = [];
    for (let index = 1; index <= 11; index += 1) {
      const made = await template(index % 3 === 0 ? `Birthday ${index}` : `Party ${index}`);
      expect(
        (await call('POST', `templates/${made.id}/orgs`, superToken, { org_id: orgC })).statusCode,
      ).toBe(201);
      ids.push(made.id);
    }
    await template('Not offered here');
    await call('PATCH', `templates/${ids[0]}`, superToken, { is_cut: true });

    const list = (query = '', token = visitor) =>
      call('GET', `devices/${booth}/templates${query}`, token, undefined, 'regular');

    const first = await list();
    expect(first.statusCode).toBe(200);
    const page1 = first.json<{
      items: Record<string, unknown>[];
      last_evaluated_key: string | null;
    }>();
    expect(page1.items.map((item) => item.id)).toEqual(ids.slice(0, 9));
    expect(page1.items[0]).toEqual({
      id: ids[0],
      name: 'Party 1',
      orientation: 'portrait',
      sample_s3_url: null,
      is_cut: true,
      is_duplicated: false,
    });
    expect(page1.last_evaluated_key).toEqual(expect.any(String));
    const page2 = (await list(`?last_evaluated_key=${page1.last_evaluated_key}`)).json<{
      items: { id: number }[];
      last_evaluated_key: string | null;
    }>();
    expect(page2.items.map((item) => item.id)).toEqual(ids.slice(9));
    expect(page2.last_evaluated_key).toBeNull();

    // Exactly one page full: no further key.
    const byFour = (await list('?limit=4&search=birthday')).json<{
      items: { id: number; name: string }[];
      last_evaluated_key: string | null;
    }>();
    expect(byFour.items.map((item) => item.name)).toEqual([
      'Birthday 3',
      'Birthday 6',
      'Birthday 9',
    ]);
    expect(byFour.last_evaluated_key).toBeNull();
    const byTwo = (await list('?limit=2&search=BIRTH')).json<{
      items: { id: number }[];
      last_evaluated_key: string | null;
    }>();
    expect(byTwo.items.map((item) => item.id)).toEqual([ids[2], ids[5]]);
    const rest = (
      await list(`?limit=2&search=birth&last_evaluated_key=${byTwo.last_evaluated_key}`)
    ).json<{ items: { id: number }[]; last_evaluated_key: string | null }>();
    expect(rest).toEqual({
      items: [expect.objectContaining({ id: ids[8] })],
      last_evaluated_key: null,
    });
    // Empty parameters count as absent.
    expect(
      (await list('?search=&last_evaluated_key=')).json<{ items: unknown[] }>().items,
    ).toHaveLength(9);

    for (const bad of ['abc!', 'MA', Buffer.from('-1').toString('base64url'), 'x'.repeat(101)]) {
      expect((await list(`?last_evaluated_key=${bad}`)).statusCode, bad).toBe(400);
    }
    for (const limit of ['0', '51', 'many']) {
      expect((await list(`?limit=${limit}`)).statusCode, limit).toBe(400);
    }

    const unlinked = await device(null);
    for (const id of [unlinked, 999999]) {
      expectError(
        await call('GET', `devices/${id}/templates`, visitor, undefined, 'regular'),
        404,
        DEVICE_MESSAGES.notFound,
      );
    }
    expect(
      (await call('GET', 'devices/abc/templates', visitor, undefined, 'regular')).statusCode,
    ).toBe(400);
    // A staff token is refused by the visitor API, and the call needs a session.
    expect((await list('', superToken)).statusCode).toBe(401);
    expect(
      (await app.inject({ method: 'GET', url: `/api/regular/devices/${booth}/templates` }))
        .statusCode,
    ).toBe(401);
    // The staff API has no such route.
    expect((await call('GET', `devices/${booth}/templates`, superToken)).statusCode).toBe(404);
  });

  describe('sample and foreground uploads', () => {
    const put = (url: string, body: Buffer, contentType: string) =>
      app.inject({ method: 'PUT', url, payload: body, headers: { 'content-type': contentType } });

    async function presign(
      id: number,
      kind: 'sample' | 'foreground',
      contentType: string,
      token = superToken,
    ) {
      return call('POST', `templates/${id}/${kind}/presigned_upload`, token, {
        filename: '../../My Photo.jpg',
        contentType,
      });
    }

    /** Presign, PUT the bytes, and return the key (not yet confirmed). */
    async function uploaded(id: number, kind: 'sample' | 'foreground', body: Buffer, type: string) {
      const response = await presign(id, kind, type);
      expect(response.statusCode, response.body).toBe(200);
      const presigned = response.json<Record<string, string>>();
      const key = presigned[`${kind}_key`]!;
      expect((await put(presigned.upload_url!, body, type)).statusCode).toBe(204);
      return key;
    }

    const confirm = (id: number, kind: 'sample' | 'foreground', key: string, token = superToken) =>
      call('POST', `templates/${id}/${kind}/confirm`, token, { [`${kind}_key`]: key });

    it('refuses non-image types with the spec messages, and non-admins', async () => {
      const { id } = await template('Uploads');
      expectError(await presign(id, 'sample', 'text/plain'), 400, TEMPLATE_MESSAGES.sampleType);
      expectError(await presign(id, 'sample', 'image/gif'), 400, TEMPLATE_MESSAGES.sampleType);
      expectError(
        await presign(id, 'foreground', 'application/pdf'),
        400,
        TEMPLATE_MESSAGES.foregroundType,
      );
      expectError(
        await call('POST', `templates/${id}/sample/presigned_upload`, superToken, {
          filename: 'a.jpg',
        }),
        400,
        TEMPLATE_MESSAGES.sampleType,
      );
      expect((await presign(id, 'sample', 'image/jpeg', memberA)).statusCode).toBe(403);
      expect((await presign(999999, 'sample', 'image/jpeg')).statusCode).toBe(404);
    });

    it('uploads a sample with a random key, confirms it and serves it', async () => {
      const { id } = await template('Sampled');
      const response = await presign(id, 'sample', 'image/jpeg');
      const body = response.json<{ sample_key: string; upload_url: string }>();
      expect(body.sample_key).toMatch(new RegExp(`^templates/samples/${id}/[0-9a-f-]{36}\\.jpg$`));
      expect(body.sample_key).not.toMatch(/photo/i);
      expect(body.upload_url).toContain(body.sample_key);
      // The signed type is enforced.
      expect((await put(body.upload_url, JPEG, 'image/png')).statusCode).toBe(400);
      expect((await put(body.upload_url, JPEG, 'image/jpeg')).statusCode).toBe(204);

      expect((await confirm(id, 'sample', body.sample_key, memberA)).statusCode).toBe(403);
      const confirmed = await confirm(id, 'sample', body.sample_key);
      expect(confirmed.statusCode, confirmed.body).toBe(200);
      const template1 = confirmed.json<TemplateBody>();
      expect(template1.sample_s3_url).toMatch(/^\/api\/storage\/objects\/templates\/samples\//);
      expect(template1.foreground_s3_url).toBeNull();
      const download = await app.inject(template1.sample_s3_url!);
      expect(download.statusCode).toBe(200);
      expect(download.rawPayload.equals(JPEG)).toBe(true);
      // Confirming the same key again keeps the object.
      expect((await confirm(id, 'sample', body.sample_key)).statusCode).toBe(200);
      expect(await storage.head(body.sample_key)).not.toBeNull();
    });

    it('refuses keys this template was not given, missing objects and fake images', async () => {
      const { id } = await template('Guarded');
      const other = await template('Someone else');
      const foreign = await uploaded(other.id, 'sample', JPEG, 'image/jpeg');
      const wrongKind = await uploaded(id, 'foreground', PNG, 'image/png');
      for (const key of [
        foreign,
        wrongKind,
        'media/x.jpg',
        `templates/samples/${id}/../${other.id}/x.jpg`,
        `templates/samples/${id}/00000000-0000-0000-0000-000000000000.jpg`,
      ]) {
        const response = await confirm(id, 'sample', key);
        expect(response.statusCode, key).toBe(400);
      }
      expect((await call('GET', `templates/${id}`, superToken)).json()).toMatchObject({
        sample_s3_url: null,
      });
      // The other template's upload is untouched.
      expect(await storage.head(foreign)).not.toBeNull();

      // Bytes that are not a JPEG, sent as one: refused and removed.
      const fake = await uploaded(id, 'sample', Buffer.from('<html>hi</html>'), 'image/jpeg');
      expectError(await confirm(id, 'sample', fake), 400, TEMPLATE_MESSAGES.sampleType);
      expect(await storage.head(fake)).toBeNull();
    });

    it('replaces a sample and a foreground, deleting the previous objects', async () => {
      const { id } = await template('Replaced');
      const firstSample = await uploaded(id, 'sample', JPEG, 'image/jpeg');
      expect((await confirm(id, 'sample', firstSample)).statusCode).toBe(200);
      const secondSample = await uploaded(id, 'sample', PNG, 'image/png');
      expect(secondSample).toMatch(/\.png$/);
      expect((await confirm(id, 'sample', secondSample)).statusCode).toBe(200);
      expect(await storage.head(firstSample)).toBeNull();
      expect(await storage.head(secondSample)).toMatchObject({ contentType: 'image/png' });

      const firstForeground = await uploaded(id, 'foreground', PNG, 'image/png');
      const withForeground = await confirm(id, 'foreground', firstForeground);
      expect(withForeground.json<TemplateBody>().foreground_s3_url).toMatch(
        /^\/api\/storage\/objects\/templates\/foregrounds\//,
      );
      const secondForeground = await uploaded(id, 'foreground', JPEG, 'image/jpeg');
      expect((await confirm(id, 'foreground', secondForeground)).statusCode).toBe(200);
      expect(await storage.head(firstForeground)).toBeNull();
      expect(await storage.head(secondSample)).not.toBeNull();

      // Deleting the template removes what it stored.
      expect((await call('DELETE', `templates/${id}`, superToken)).statusCode).toBe(204);
      expect(await storage.head(secondSample)).toBeNull();
      expect(await storage.head(secondForeground)).toBeNull();
    });

    it('shows the sample to visitors of a booth offering the template', async () => {
      const [orgD] = (
        await database.db
          .insert(organizations)
          .values({ name: 'Museum' })
          .returning({ id: organizations.id })
      ).map((row) => row.id) as [number];
      const booth = await device(orgD);
      const { id } = await template('Museum print', 'landscape');
      await call('POST', `templates/${id}/orgs`, superToken, { org_id: orgD });
      const key = await uploaded(id, 'sample', JPEG, 'image/jpeg');
      await confirm(id, 'sample', key);
      const listed = (
        await call('GET', `devices/${booth}/templates`, visitor, undefined, 'regular')
      ).json<{ items: { sample_s3_url: string; orientation: string }[] }>();
      expect(listed.items[0]!.orientation).toBe('landscape');
      const download = await app.inject(listed.items[0]!.sample_s3_url);
      expect(download.rawPayload.equals(JPEG)).toBe(true);
    });
  });
});
