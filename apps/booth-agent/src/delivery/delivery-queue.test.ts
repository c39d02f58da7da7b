import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { CaptureCommandPayload } from '@flashbooth/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { recordingLog } from '../../test/fakes.js';
import { DeliveryQueue, linkExpiry, MANIFEST_FILE, type QueueChange } from './delivery-queue.js';
import { DiskQueueFolder } from './queue-folder.js';

function capturePayload(mediaIds: number[], totalCaptures = 2): CaptureCommandPayload {
  return {
    capture_id: randomUUID(),
    template: {
      id: 3,
      name: 'Two up',
      orientation: 'landscape',
      is_cut: false,
      is_duplicated: false,
      images: [],
      foreground_url: '/fg.png?expires=1',
      capture_kind: 'photo',
      motion: null,
    },
    total_captures: totalCaptures,
    uploads: mediaIds.map((id) => ({
      media_id: id,
      upload_url: `/api/storage/media/${id}.jpg?expires=4102444800&sig=x`,
      content_type: 'image/jpeg' as const,
    })),
  };
}

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'flashbooth-queue-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const queueOn = (folder = dir) =>
  new DeliveryQueue({ folder: new DiskQueueFolder(folder), warnItems: 2, log: recordingLog() });

describe('DeliveryQueue on disk', () => {
  it('keeps a capture, its photos, print and upload states across a restart', async () => {
    const first = queueOn();
    const changes: QueueChange[] = [];
    first.onChange((change) => changes.push(change));
    const payload = capturePayload([11, 12]);
    await first.open(payload, Buffer.from('png'), new Date('2026-11-27T10:00:00.000Z'));
    await first.addPhoto(payload.capture_id, 0, Buffer.from('photo one'));
    await first.addPhoto(payload.capture_id, 1, Buffer.from('photo two'));
    await first.composed(
      payload.capture_id,
      Buffer.from('print'),
      new Date('2026-11-27T10:00:20Z'),
    );
    // Not deliverable before it is printed.
    expect(first.next()).toBeUndefined();
    await first.release(payload.capture_id);
    await first.markPut(payload.capture_id, 11);
    expect(changes).toEqual(['added']);

    const second = queueOn();
    const [manifest] = await second.load();
    expect(manifest).toMatchObject({
      capture_id: payload.capture_id,
      stage: 'queued',
      captured_at: '2026-11-27T10:00:20.000Z',
      has_foreground: true,
      template: { id: 3, name: 'Two up' },
      uploads: [
        { media_id: 11, state: 'put', expires_at: '2100-01-01T00:00:00.000Z' },
        { media_id: 12, state: 'pending' },
      ],
    });
    expect(manifest!.template).not.toHaveProperty('foreground_url');
    expect((await second.print(payload.capture_id)).toString()).toBe('print');
    expect((await second.photos(payload.capture_id)).map(String)).toEqual([
      'photo one',
      'photo two',
    ]);
    expect(second.next()).toMatchObject({
      upload: { media_id: 11, state: 'put' },
      recovered: true,
    });
    expect(second.stats()).toMatchObject({
      items: 2,
      oldest_at: '2026-11-27T10:00:20',
      over_limit: false,
    });
    expect(second.stats().bytes).toBeGreaterThan(0);
  });

  it('deletes a capture once every item is confirmed, and says the queue drained', async () => {
    const queue = queueOn();
    const changes: QueueChange[] = [];
    queue.onChange((change) => changes.push(change));
    const payload = capturePayload([21, 22], 1);
    await queue.open(payload, null, new Date());
    await queue.addPhoto(payload.capture_id, 0, Buffer.from('p'));
    await queue.composed(payload.capture_id, Buffer.from('print'), new Date());
    await queue.release(payload.capture_id);
    await queue.markConfirmed(payload.capture_id, 21);
    expect(await readdir(dir)).toHaveLength(1);
    await queue.markConfirmed(payload.capture_id, 22);
    expect(await readdir(dir)).toEqual([]);
    expect(changes).toEqual(['added', 'delivered', 'drained']);
    expect(queue.stats()).toEqual({ items: 0, bytes: 0, oldest_at: null, over_limit: false });
  });

  it('orders captures oldest first and warns over its limit', async () => {
    const queue = queueOn();
    const older = capturePayload([31, 32], 1);
    const newer = capturePayload([33], 1);
    await queue.open(newer, null, new Date('2026-11-27T11:00:00Z'));
    await queue.open(older, null, new Date('2026-11-27T10:00:00Z'));
    for (const payload of [newer, older]) {
      await queue.composed(payload.capture_id, Buffer.from('x'), new Date());
      await queue.release(payload.capture_id);
    }
    expect(queue.next()?.upload.media_id).toBe(31);
    expect(queue.next((id) => id === 31)?.upload.media_id).toBe(32);
    expect(queue.stats()).toMatchObject({ items: 3, over_limit: true });
  });

  it('clears half-written entries and sets a corrupt one aside at start-up', async () => {
    await mkdir(path.join(dir, '.tmp-20261127T100000000Z-x'));
    await mkdir(path.join(dir, 'broken'));
    await writeFile(path.join(dir, 'broken', MANIFEST_FILE), '{"format": 1');
    const log = recordingLog();
    const queue = new DeliveryQueue({ folder: new DiskQueueFolder(dir), warnItems: 5, log });
    expect(await queue.load()).toEqual([]);
    expect((await readdir(dir)).sort()).toEqual(['rejected']);
    expect(await readdir(path.join(dir, 'rejected'))).toEqual(['broken']);
    expect(log.messages('error')).toEqual(['a delivery queue entry is corrupt: set aside']);
  });

  it('deletes at start-up a capture whose items were all confirmed before a crash', async () => {
    const first = queueOn();
    const payload = capturePayload([51], 1);
    await first.open(payload, null, new Date());
    await first.composed(payload.capture_id, Buffer.from('print'), new Date());
    await first.release(payload.capture_id);
    // The confirmation is recorded, then the process dies before the folder is deleted.
    const entry = (await readdir(dir))[0]!;
    const manifest = JSON.parse(
      (await readFile(path.join(dir, entry, MANIFEST_FILE))).toString('utf8'),
    ) as { uploads: { state: string }[] };
    manifest.uploads[0]!.state = 'confirmed';
    await writeFile(path.join(dir, entry, MANIFEST_FILE), JSON.stringify(manifest));
    const second = queueOn();
    expect(await second.load()).toEqual([]);
    expect(await readdir(dir)).toEqual([]);
  });

  it('removes a capture that failed before it was queued', async () => {
    const queue = queueOn();
    const payload = capturePayload([41]);
    await queue.open(payload, null, new Date());
    await queue.discard(payload.capture_id);
    expect(await readdir(dir)).toEqual([]);
    expect(queue.stats().items).toBe(0);
  });
});

describe('linkExpiry', () => {
  it("reads the local store's expires and S3's X-Amz-Date + X-Amz-Expires", () => {
    expect(linkExpiry('/api/storage/k?expires=1800000000&sig=a')?.toISOString()).toBe(
      '2027-01-15T08:00:00.000Z',
    );
    expect(
      linkExpiry(
        'https://s3.test/b/k?X-Amz-Date=20261127T100000Z&X-Amz-Expires=86400&X-Amz-Signature=x',
      )?.toISOString(),
    ).toBe('2026-11-28T10:00:00.000Z');
    expect(linkExpiry('https://cdn.test/upload/1')).toBeUndefined();
  });
});
