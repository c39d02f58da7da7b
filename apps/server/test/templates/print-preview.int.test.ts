import { TEMPLATE_PREVIEW_MAX_SLOTS, TEMPLATE_PREVIEW_MESSAGES } from '@flashbooth/contracts';
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { templates } from '../../src/db/schema.js';
import { databaseTargets } from '../databases.js';
import { PNG, expectError, useTemplatesSuite } from './templates-suite.js';

const slot = (x: number, y: number, filter = 'none') => ({ x, y, w: 1080, h: 720, filter });

describe.each(databaseTargets)('template print preview on $name', ({ open }) => {
  const s = useTemplatesSuite(open);
  const { call, template } = s;
  const preview = (id: number, body: object, token = s.superToken) =>
    call('POST', `templates/${id}/preview`, token, body);

  async function pixels(payload: Buffer) {
    const { data, info } = await sharp(payload).raw().toBuffer({ resolveWithObject: true });
    return { data, info };
  }

  /** The mean colour of a square around (x, y) of a composed print. */
  async function colourAt(payload: Buffer, x: number, y: number) {
    const { data } = await sharp(payload)
      .extract({ left: x - 5, top: y - 5, width: 10, height: 10 })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const sum = [0, 0, 0];
    for (let i = 0; i < data.length; i += 3) for (let c = 0; c < 3; c++) sum[c]! += data[i + c]!;
    return sum.map((value) => value / (data.length / 3));
  }

  /** Uploads and confirms a canvas-sized foreground PNG: opaque red except a clear hole. */
  async function withForeground(id: number, width: number, height: number) {
    const rgba = Buffer.alloc(width * height * 4);
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const at = (y * width + x) * 4;
        rgba[at] = 220;
        rgba[at + 3] = x < 1200 && y < 800 ? 0 : 255;
      }
    }
    const png = await sharp(rgba, { raw: { width, height, channels: 4 } })
      .png()
      .toBuffer();
    const presign = (
      await call('POST', `templates/${id}/foreground/presigned_upload`, s.superToken, {
        filename: 'fg.png',
        contentType: 'image/png',
      })
    ).json<{ foreground_key: string; upload_url: string }>();
    const put = await s.app.inject({
      method: 'PUT',
      url: presign.upload_url,
      payload: png,
      headers: { 'content-type': 'image/png' },
    });
    expect(put.statusCode).toBe(204);
    const confirmed = await call('POST', `templates/${id}/foreground/confirm`, s.superToken, {
      foreground_key: presign.foreground_key,
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
  }

  it('answers a JPEG of the canvas size that follows the draft slots', async () => {
    const { id } = await template('Preview landscape', 'landscape');
    const draft = { orientation: 'landscape', images: [slot(61, 555)] };
    const first = await preview(id, draft);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.headers['content-type']).toBe('image/jpeg');
    const meta = await sharp(first.rawPayload).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 3600, height: 2400 });

    // The slot holds a photo; outside it the canvas is white.
    expect(Math.min(...(await colourAt(first.rawPayload, 600, 900)))).toBeLessThan(230);
    expect(Math.min(...(await colourAt(first.rawPayload, 2500, 900)))).toBeGreaterThan(245);

    // Another position, another print; the same draft, the same print.
    const moved = await preview(id, { ...draft, images: [slot(2000, 555)] });
    expect(moved.statusCode).toBe(200);
    expect(Math.min(...(await colourAt(moved.rawPayload, 2500, 900)))).toBeLessThan(230);
    expect(Math.min(...(await colourAt(moved.rawPayload, 600, 900)))).toBeGreaterThan(245);
    const again = await preview(id, draft);
    expect(
      (await pixels(again.rawPayload)).data.equals((await pixels(first.rawPayload)).data),
    ).toBe(true);

    // A filter changes the slot's colours.
    const grey = await preview(id, { ...draft, images: [slot(61, 555, 'grayscale')] });
    const [r, g, b] = await colourAt(grey.rawPayload, 600, 900);
    expect(Math.abs(r! - g!) + Math.abs(g! - b!)).toBeLessThan(6);
    const [r0, g0, b0] = await colourAt(first.rawPayload, 600, 900);
    expect(Math.abs(r0! - g0!) + Math.abs(g0! - b0!)).toBeGreaterThan(6);
  });

  it('composes portrait prints, duplicated strips and the stored foreground', async () => {
    const { id } = await template('Preview portrait', 'portrait');
    const images = [slot(61, 555), slot(61, 1440), slot(1261, 555), slot(1261, 1440)];
    const plain = await preview(id, { orientation: 'portrait', images });
    expect(await sharp(plain.rawPayload).metadata()).toMatchObject({ width: 2400, height: 3600 });
    // Duplicated: the right strip repeats the left strip's photos.
    const duplicated = await preview(id, { orientation: 'portrait', is_duplicated: true, images });
    expect(duplicated.statusCode).toBe(200);
    const left = await colourAt(duplicated.rawPayload, 400, 1800);
    const right = await colourAt(duplicated.rawPayload, 1600, 1800);
    left.forEach((value, c) => expect(Math.abs(value - right[c]!)).toBeLessThan(3));
    const plainRight = await colourAt(plain.rawPayload, 1600, 1800);
    expect(plainRight.some((value, c) => Math.abs(value - left[c]!) > 10)).toBe(true);

    await withForeground(id, 2400, 3600);
    const covered = await preview(id, { orientation: 'portrait', images });
    // Red foreground over the second slot, the clear corner shows the first slot's photo.
    const [red, green] = await colourAt(covered.rawPayload, 600, 2000);
    expect(red).toBeGreaterThan(200);
    expect(green).toBeLessThan(30);
    const corner = await colourAt(covered.rawPayload, 600, 700);
    const plainCorner = await colourAt(plain.rawPayload, 600, 700);
    corner.forEach((value, c) => expect(Math.abs(value - plainCorner[c]!)).toBeLessThan(3));
  });

  it('lets every signed-in staff member preview, and nobody else', async () => {
    const { id } = await template('Preview rights', 'landscape');
    const draft = { orientation: 'landscape', images: [] };
    expect((await preview(id, draft, s.memberA)).statusCode).toBe(200);
    expect((await preview(id, draft, s.adminB)).statusCode).toBe(200);
    expect((await preview(id, draft, s.visitor)).statusCode).toBe(401);
    const anonymous = await s.app.inject({
      method: 'POST',
      url: `/api/enterprise/templates/${id}/preview`,
      payload: draft,
    });
    expect(anonymous.statusCode).toBe(401);
    // The visitor API has no such call.
    const visitorCall = await call('POST', `templates/${id}/preview`, s.visitor, draft, 'regular');
    expect(visitorCall.statusCode).toBe(404);
    expect((await preview(999_999, draft)).statusCode).toBe(404);
  });

  it('refuses bad drafts with a 4xx, never a 500', async () => {
    const { id } = await template('Preview input', 'landscape');
    const tooMany = Array.from({ length: TEMPLATE_PREVIEW_MAX_SLOTS + 1 }, () => slot(0, 0));
    expectError(
      await preview(id, { orientation: 'landscape', images: tooMany }),
      400,
      TEMPLATE_PREVIEW_MESSAGES.tooManySlots,
    );
    for (const body of [
      {},
      { orientation: 'square', images: [] },
      { orientation: 'landscape' },
      { orientation: 'landscape', images: [{ ...slot(0, 0), w: 100_000 }] },
      { orientation: 'landscape', images: [{ ...slot(0, 0), h: 0 }] },
      { orientation: 'landscape', images: [{ ...slot(0, 0), x: -1 }] },
      { orientation: 'landscape', images: [{ ...slot(0, 0), x: '12' }] },
      { orientation: 'landscape', images: [{ ...slot(0, 0), id: 4 }] },
      { orientation: 'landscape', images: [{ ...slot(0, 0), filter: 'x'.repeat(51) }] },
      { orientation: 'landscape', images: 'all', is_cut: 'yes' },
      { orientation: 'landscape', images: [], extra: true },
    ]) {
      const response = await preview(id, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
    }
    const huge = await s.app.inject({
      method: 'POST',
      url: `/api/enterprise/templates/${id}/preview`,
      headers: { authorization: `Bearer ${s.superToken}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ orientation: 'landscape', images: [], pad: 'x'.repeat(20_000) }),
    });
    expect(huge.statusCode).toBe(413);
    const malformed = await s.app.inject({
      method: 'POST',
      url: `/api/enterprise/templates/${id}/preview`,
      headers: { authorization: `Bearer ${s.superToken}`, 'content-type': 'application/json' },
      payload: '{"orientation":',
    });
    expect(malformed.statusCode).toBe(400);
    // Off the canvas and unknown filters are printed as the booth prints them.
    const odd = await preview(id, {
      orientation: 'landscape',
      images: [slot(7000, 7000), { x: 3500, y: 2300, w: 7200, h: 4800, filter: 'Mystery' }],
    });
    expect(odd.statusCode).toBe(200);
  });

  it('answers 422 when the stored foreground cannot be read', async () => {
    const { id } = await template('Broken foreground', 'landscape');
    // A PNG signature and nothing else, stored before the foreground rule refused such uploads.
    const key = `templates/foregrounds/${id}/${randomUUID()}.png`;
    await s.storage.put(key, PNG, 'image/png');
    await s.database.db.update(templates).set({ foregroundKey: key }).where(eq(templates.id, id));
    expectError(
      await preview(id, { orientation: 'landscape', images: [slot(0, 0)] }),
      422,
      TEMPLATE_PREVIEW_MESSAGES.failed,
    );
  });
});
