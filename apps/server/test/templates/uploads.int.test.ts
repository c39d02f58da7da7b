import { TEMPLATE_MESSAGES } from '@flashbooth/contracts';
import { describe, expect, it } from 'vitest';
import { organizations } from '../../src/db/schema.js';
import { databaseTargets } from '../databases.js';
import {
  JPEG,
  PNG,
  type TemplateBody,
  expectError,
  foregroundPng,
  useTemplatesSuite,
} from './templates-suite.js';

describe.each(databaseTargets)('template sample and foreground uploads on $name', ({ open }) => {
  const s = useTemplatesSuite(open);
  const { call, template, device } = s;

  const put = (url: string, body: Buffer, contentType: string) =>
    s.app.inject({ method: 'PUT', url, payload: body, headers: { 'content-type': contentType } });

  async function presign(
    id: number,
    kind: 'sample' | 'foreground',
    contentType: string,
    token = s.superToken,
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

  const confirm = (id: number, kind: 'sample' | 'foreground', key: string, token = s.superToken) =>
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
      await call('POST', `templates/${id}/sample/presigned_upload`, s.superToken, {
        filename: 'a.jpg',
      }),
      400,
      TEMPLATE_MESSAGES.sampleType,
    );
    expect((await presign(id, 'sample', 'image/jpeg', s.memberA)).statusCode).toBe(403);
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

    expect((await confirm(id, 'sample', body.sample_key, s.memberA)).statusCode).toBe(403);
    const confirmed = await confirm(id, 'sample', body.sample_key);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const template1 = confirmed.json<TemplateBody>();
    expect(template1.sample_s3_url).toMatch(/^\/api\/storage\/objects\/templates\/samples\//);
    expect(template1.foreground_s3_url).toBeNull();
    const download = await s.app.inject(template1.sample_s3_url!);
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(JPEG)).toBe(true);
    // Confirming the same key again keeps the object.
    expect((await confirm(id, 'sample', body.sample_key)).statusCode).toBe(200);
    expect(await s.storage.head(body.sample_key)).not.toBeNull();
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
    expect((await call('GET', `templates/${id}`, s.superToken)).json()).toMatchObject({
      sample_s3_url: null,
    });
    // The other template's upload is untouched.
    expect(await s.storage.head(foreign)).not.toBeNull();

    // Bytes that are not a JPEG, sent as one: refused and removed.
    const fake = await uploaded(id, 'sample', Buffer.from('<html>hi</html>'), 'image/jpeg');
    expectError(await confirm(id, 'sample', fake), 400, TEMPLATE_MESSAGES.sampleType);
    expect(await s.storage.head(fake)).toBeNull();
  });

  it('replaces a sample and a foreground, deleting the previous objects', async () => {
    const { id } = await template('Replaced');
    const firstSample = await uploaded(id, 'sample', JPEG, 'image/jpeg');
    expect((await confirm(id, 'sample', firstSample)).statusCode).toBe(200);
    const secondSample = await uploaded(id, 'sample', PNG, 'image/png');
    expect(secondSample).toMatch(/\.png$/);
    expect((await confirm(id, 'sample', secondSample)).statusCode).toBe(200);
    expect(await s.storage.head(firstSample)).toBeNull();
    expect(await s.storage.head(secondSample)).toMatchObject({ contentType: 'image/png' });

    // Foregrounds follow the foreground rule: PNGs of the canvas size (no slots to keep clear).
    const firstForeground = await uploaded(
      id,
      'foreground',
      await foregroundPng(2400, 3600),
      'image/png',
    );
    const withForeground = await confirm(id, 'foreground', firstForeground);
    expect(withForeground.json<TemplateBody>().foreground_s3_url).toMatch(
      /^\/api\/storage\/objects\/templates\/foregrounds\//,
    );
    const secondForeground = await uploaded(
      id,
      'foreground',
      await foregroundPng(2400, 3600, [{ x: 0, y: 0, w: 100, h: 100 }]),
      'image/png',
    );
    expect((await confirm(id, 'foreground', secondForeground)).statusCode).toBe(200);
    expect(await s.storage.head(firstForeground)).toBeNull();
    expect(await s.storage.head(secondSample)).not.toBeNull();

    // Deleting the template removes what it stored.
    expect((await call('DELETE', `templates/${id}`, s.superToken)).statusCode).toBe(204);
    expect(await s.storage.head(secondSample)).toBeNull();
    expect(await s.storage.head(secondForeground)).toBeNull();
  });

  it('shows the sample to visitors of a booth offering the template', async () => {
    const [orgD] = (
      await s.database.db
        .insert(organizations)
        .values({ name: 'Museum' })
        .returning({ id: organizations.id })
    ).map((row) => row.id) as [number];
    const booth = await device(orgD);
    const { id } = await template('Museum print', 'landscape');
    await call('POST', `templates/${id}/orgs`, s.superToken, { org_id: orgD });
    const key = await uploaded(id, 'sample', JPEG, 'image/jpeg');
    await confirm(id, 'sample', key);
    const listed = (
      await call('GET', `devices/${booth}/templates`, s.visitor, undefined, 'regular')
    ).json<{ items: { sample_s3_url: string; orientation: string }[] }>();
    expect(listed.items[0]!.orientation).toBe('landscape');
    const download = await s.app.inject(listed.items[0]!.sample_s3_url);
    expect(download.rawPayload.equals(JPEG)).toBe(true);
  });
});
