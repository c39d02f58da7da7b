import { describe, expect, it } from 'vitest';
import { databaseTargets } from '../databases.js';
import {
  type Box,
  type TemplateBody,
  expectError,
  foregroundPng,
  useTemplatesSuite,
} from './templates-suite.js';

/*
 * Issue 38, item 1: one rule for every foreground upload — a PNG of the canvas size of the
 * template's orientation, transparent where its slots are — refused at confirmation with the
 * Template Studio's words, and nothing stored.
 */

const PORTRAIT_SLOTS: Box[] = [
  { x: 61, y: 555, w: 1080, h: 720 },
  { x: 61, y: 1440, w: 1080, h: 720 },
];

describe.each(databaseTargets)('the foreground rule on $name', ({ open }) => {
  const s = useTemplatesSuite(open);
  const { call, template } = s;

  async function portraitWithSlots(name: string, slots = PORTRAIT_SLOTS) {
    const created = await template(name, 'portrait');
    for (const slot of slots) {
      const added = await call('POST', `templates/${created.id}/images`, s.superToken, slot);
      expect(added.statusCode, added.body).toBe(201);
    }
    return created.id;
  }

  /** Presign, PUT and confirm `body` as the foreground; the key and the confirmation. */
  async function uploadForeground(id: number, body: Buffer, contentType = 'image/png') {
    const presign = await call(
      'POST',
      `templates/${id}/foreground/presigned_upload`,
      s.superToken,
      {
        filename: 'frame.png',
        contentType,
      },
    );
    expect(presign.statusCode, presign.body).toBe(200);
    const { foreground_key: key, upload_url: url } = presign.json<{
      foreground_key: string;
      upload_url: string;
    }>();
    const put = await s.app.inject({
      method: 'PUT',
      url,
      payload: body,
      headers: { 'content-type': contentType },
    });
    expect(put.statusCode).toBe(204);
    const confirmed = await call('POST', `templates/${id}/foreground/confirm`, s.superToken, {
      foreground_key: key,
    });
    return { key, confirmed };
  }

  const stored = async (id: number) =>
    (await call('GET', `templates/${id}`, s.superToken)).json<TemplateBody>().foreground_s3_url;

  it("refuses a foreground of another size with the Template Studio's words, storing nothing", async () => {
    const id = await portraitWithSlots('Small frame');
    // The case: a fully opaque 640×480 PNG on a 2400×3600 portrait template.
    const { key, confirmed } = await uploadForeground(id, await foregroundPng(640, 480));
    expectError(confirmed, 400, 'Image must be 2400×3600px. Yours is 640×480px.');
    expect(confirmed.json()).toMatchObject({ code: 'bad_request' });
    expect(await stored(id)).toBeNull();
    expect(await s.storage.head(key)).toBeNull();

    // The landscape canvas on a portrait template is another size too.
    const turned = await uploadForeground(id, await foregroundPng(3600, 2400));
    expectError(turned.confirmed, 400, 'Image must be 2400×3600px. Yours is 3600×2400px.');
    expect(await stored(id)).toBeNull();
  });

  it('refuses a foreground that covers a slot, and one without transparency', async () => {
    const id = await portraitWithSlots('Covered');
    const opaque = await uploadForeground(id, await foregroundPng(2400, 3600));
    expectError(
      opaque.confirmed,
      400,
      'The foreground covers slot 1: 0% of it is transparent and at least 90% must be, or its photo will not show. Make the foreground transparent where the photos go.',
    );
    expect(await s.storage.head(opaque.key)).toBeNull();

    // Open over the first slot only: the second is named.
    const half = await uploadForeground(
      id,
      await foregroundPng(2400, 3600, [PORTRAIT_SLOTS[0]!, { x: 61, y: 1440, w: 1080, h: 360 }]),
    );
    expectError(
      half.confirmed,
      400,
      'The foreground covers slot 2: 50% of it is transparent and at least 90% must be, or its photo will not show. Make the foreground transparent where the photos go.',
    );

    // Openings cut where the slots are, but saved without an alpha channel: covered.
    const flat = await uploadForeground(
      id,
      await foregroundPng(2400, 3600, PORTRAIT_SLOTS, { alpha: false }),
    );
    expect(flat.confirmed.statusCode).toBe(400);
    expect(flat.confirmed.json<{ message: string }>().message).toMatch(
      /^The foreground covers slot 1: 0% of it is transparent/,
    );
    expect(await stored(id)).toBeNull();
  });

  it('refuses a JPEG foreground: a foreground is a PNG', async () => {
    const id = await portraitWithSlots('Jpeg frame');
    expectError(
      await call('POST', `templates/${id}/foreground/presigned_upload`, s.superToken, {
        filename: 'frame.jpg',
        contentType: 'image/jpeg',
      }),
      400,
      'The foreground must be a PNG, transparent where the photos go.',
    );
    // A sample may still be a JPEG.
    const sample = await call('POST', `templates/${id}/sample/presigned_upload`, s.superToken, {
      filename: 'sample.jpg',
      contentType: 'image/jpeg',
    });
    expect(sample.statusCode).toBe(200);
  });

  it('accepts a canvas-sized PNG open over every slot, and keeps it when a later one is refused', async () => {
    const id = await portraitWithSlots('Good frame');
    // Corners rounded off the openings (as the Studio cuts them) still leave the slots clear.
    const openings = PORTRAIT_SLOTS.map((slot) => ({ ...slot, x: slot.x + 4, w: slot.w - 8 }));
    const good = await uploadForeground(id, await foregroundPng(2400, 3600, openings));
    expect(good.confirmed.statusCode, good.confirmed.body).toBe(200);
    const url = await stored(id);
    expect(url).toMatch(/^\/api\/storage\/objects\/templates\/foregrounds\//);

    const refused = await uploadForeground(id, await foregroundPng(640, 480));
    expect(refused.confirmed.statusCode).toBe(400);
    expect(await stored(id)).not.toBeNull();
    expect(await s.storage.head(good.key)).not.toBeNull();
  });

  it("checks the template's current slots: none yet, only the size and the type", async () => {
    const { id } = await template('No slots yet', 'landscape');
    const plain = await uploadForeground(id, await foregroundPng(3600, 2400));
    expect(plain.confirmed.statusCode, plain.confirmed.body).toBe(200);
  });
});
