import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { CaptureCommandPayload } from '@flashbooth/contracts';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { recordingLog } from '../../test/fakes.js';
import { FakeMotionEncoder } from '../motion/encoder.js';
import { TransferError } from '../transfers.js';
import { DeliveryQueue, type QueueItem } from './delivery-queue.js';
import { DeliveryWorker } from './delivery-worker.js';
import { DiskQueueFolder, MemoryQueueFolder, type QueueFolder } from './queue-folder.js';

type Answer = 'ok' | 'down' | number;

/** Transfers that answer from per-call scripts ('down': no answer at all) and record each call. */
function scriptedTransfers() {
  const calls: string[] = [];
  /** The content type of each PUT. */
  const types: string[] = [];
  const script = { put: [] as Answer[], confirm: [] as Answer[], link: [] as Answer[] };
  const capturedAt: (string | null)[] = [];
  const answer = (list: Answer[], what: string) => {
    const next = list.shift() ?? 'ok';
    if (next === 'ok') return;
    if (next === 'down') throw new TransferError(`${what}: ECONNREFUSED`, undefined);
    throw new TransferError(`${what}: HTTP ${next}`, next);
  };
  return {
    calls,
    types,
    script,
    capturedAt,
    transfers: {
      uploadOnce(url: string, type: string): Promise<void> {
        calls.push(`PUT ${url}`);
        types.push(type);
        return Promise.resolve().then(() => answer(script.put, 'PUT upload'));
      },
      confirmOnce(mediaId: number, at: string | null): Promise<void> {
        calls.push(`confirm ${mediaId}`);
        capturedAt.push(at);
        return Promise.resolve().then(() => answer(script.confirm, 'Confirm upload'));
      },
      freshUploadLink(mediaId: number) {
        calls.push(`link ${mediaId}`);
        return Promise.resolve().then(() => {
          answer(script.link, 'Upload link');
          return {
            media_id: mediaId,
            upload_url: `/fresh/${mediaId}`,
            content_type: 'image/jpeg',
            expires_at: '2100-01-01T00:00:00',
            // A video item's other links (the server sends them for video items only).
            poster_upload_url: `/fresh/${mediaId}/poster`,
            preview_upload_url: `/fresh/${mediaId}/preview`,
            gif_upload_url: `/fresh/${mediaId}/gif`,
          };
        });
      },
    },
  };
}

function payload(mediaIds: number[], link = (id: number) => `/put/${id}`): CaptureCommandPayload {
  return {
    capture_id: randomUUID(),
    template: {
      id: 1,
      name: 'T',
      orientation: 'portrait',
      is_cut: false,
      is_duplicated: false,
      images: [],
      foreground_url: null,
      capture_kind: 'photo',
      motion: null,
    },
    total_captures: 1,
    uploads: mediaIds.map((id) => ({
      media_id: id,
      upload_url: link(id),
      content_type: 'image/jpeg' as const,
    })),
  };
}

const workers: DeliveryWorker[] = [];
afterEach(async () => {
  for (const worker of workers.splice(0)) await worker.stop();
});

/** A motion capture (`kind`, no print) with its video item. */
function motionPayload(
  mediaId: number,
  kind: 'gif' | 'boomerang' = 'gif',
  link = (id: number) => `/put/${id}`,
): CaptureCommandPayload {
  const base = payload([]);
  return {
    ...base,
    template: {
      ...base.template,
      capture_kind: kind,
      motion: { frames: 3, seconds: 5, speed: 1, print: false },
    },
    total_captures: 0,
    uploads: [
      {
        media_id: mediaId,
        upload_url: link(mediaId),
        content_type: 'video/mp4',
        poster_upload_url: `${link(mediaId)}/poster`,
        preview_upload_url: `${link(mediaId)}/preview`,
        gif_upload_url: kind === 'gif' ? `${link(mediaId)}/gif` : null,
      },
    ],
  };
}

/** A motion capture whose three frames are recorded, released to the worker. */
async function recordMotion(queue: DeliveryQueue, capture: CaptureCommandPayload, at = new Date()) {
  await queue.open(capture, null, at);
  const dir = await queue.framesDir(capture.capture_id);
  const frames: string[] = [];
  for (let i = 0; i < 3; i += 1) {
    const file = path.join(dir, `frame-000${i + 1}.jpg`);
    await writeFile(
      file,
      await sharp({ create: { width: 32, height: 18, channels: 3, background: '#808080' } })
        .jpeg()
        .toBuffer(),
    );
    frames.push(file);
  }
  await queue.recorded(capture.capture_id, frames, 4 / 3, at);
  await queue.release(capture.capture_id);
}

async function setup<F extends QueueFolder = MemoryQueueFolder>(
  folder: F = new MemoryQueueFolder() as QueueFolder as F,
  retry = { firstMs: 1, maxMs: 4 },
) {
  const log = recordingLog();
  const queue = new DeliveryQueue({ folder, warnItems: 100, log });
  const scripted = scriptedTransfers();
  const delivered: number[] = [];
  const rejected: { item: QueueItem; delivered: number[] }[] = [];
  const encoder = new FakeMotionEncoder();
  const worker = new DeliveryWorker({
    queue,
    transfers: scripted.transfers,
    encoder,
    log,
    now: () => new Date(),
    retry,
    onDelivered: (item) => delivered.push(item.upload.media_id),
    onRejected: (item, _error, done) => rejected.push({ item, delivered: done }),
  });
  workers.push(worker);
  /** A printed capture, released to the worker. */
  const queued = async (capture: CaptureCommandPayload, at = new Date()) => {
    await queue.open(capture, null, at);
    await queue.composed(capture.capture_id, Buffer.from('print'), at);
    await queue.release(capture.capture_id);
    worker.kick();
  };
  const queuedMotion = async (capture: CaptureCommandPayload, at = new Date()) => {
    await recordMotion(queue, capture, at);
    worker.kick();
  };
  return {
    log,
    folder,
    queue,
    worker,
    encoder,
    delivered,
    rejected,
    queued,
    queuedMotion,
    ...scripted,
  };
}

describe('DeliveryWorker', () => {
  it('uploads and confirms oldest first, with the capture end, and empties the queue', async () => {
    const { worker, queued, calls, capturedAt, folder, delivered } = await setup();
    await queued(payload([2]), new Date('2026-11-27T10:00:05Z'));
    await queued(payload([1]), new Date('2026-11-27T10:00:00Z'));
    worker.start();
    await worker.idle();
    expect(calls).toEqual(['PUT /put/1', 'confirm 1', 'PUT /put/2', 'confirm 2']);
    expect(capturedAt).toEqual(['2026-11-27T10:00:00.000Z', '2026-11-27T10:00:05.000Z']);
    expect(delivered).toEqual([1, 2]);
    expect(await folder.list()).toEqual([]);
  });

  it('waits out an outage with growing pauses and never uploads an item twice', async () => {
    const { worker, queued, calls, script, delivered, log } = await setup();
    script.put.push('down', 'down', 503, 'down');
    script.confirm.push('down', 'ok');
    await queued(payload([5, 6]));
    worker.start();
    await worker.idle();
    expect(calls).toEqual([
      'PUT /put/5',
      'PUT /put/5',
      'PUT /put/5',
      'PUT /put/5',
      'PUT /put/5',
      'confirm 5',
      // The PUT went through before the confirmation failed: only the confirmation is repeated.
      'confirm 5',
      'PUT /put/6',
      'confirm 6',
    ]);
    expect(delivered).toEqual([5, 6]);
    expect(log.messages('warn')).toContain('cannot reach the server: deliveries wait');
  });

  it('asks for a fresh link when the stored one is refused or has expired', async () => {
    const { worker, queued, calls, script, queue } = await setup();
    script.put.push(403);
    await queued(payload([7]), new Date('2026-11-27T10:00:00Z'));
    await queued(
      payload([8], (id) => `/put/${id}?expires=1000`),
      new Date('2026-11-27T10:00:01Z'),
    );
    worker.start();
    await worker.idle();
    expect(calls).toEqual([
      'PUT /put/7',
      'link 7',
      'PUT /fresh/7',
      'confirm 7',
      'link 8',
      'PUT /fresh/8',
      'confirm 8',
    ]);
    expect(queue.stats().items).toBe(0);
  });

  it('confirms an item the server already has instead of uploading it again', async () => {
    const { worker, queued, calls, script, delivered } = await setup();
    script.put.push(403);
    script.link.push(409);
    await queued(payload([9]));
    worker.start();
    await worker.idle();
    expect(calls).toEqual(['PUT /put/9', 'link 9']);
    expect(delivered).toEqual([9]);
  });

  it('sets aside an item the server does not know; the others go on', async () => {
    const { worker, queued, calls, script, rejected, delivered, folder } = await setup();
    script.confirm.push(404);
    const capture = payload([10, 11]);
    await queued(capture);
    worker.start();
    await worker.idle();
    expect(calls).toEqual(['PUT /put/10', 'confirm 10', 'PUT /put/11', 'confirm 11']);
    expect(rejected.map((r) => [r.item.upload.media_id, r.delivered])).toEqual([[10, []]]);
    expect(delivered).toEqual([11]);
    expect([...folder.rejected.keys()]).toHaveLength(1);
  });

  it('lets an item with a problem of its own wait while the next goes', async () => {
    // The item's pause is long enough that the next item surely goes first on a busy machine.
    const { worker, queued, calls, script, delivered } = await setup(undefined, {
      firstMs: 200,
      maxMs: 200,
    });
    script.confirm.push(409);
    await queued(payload([12]), new Date('2026-11-27T10:00:00Z'));
    await queued(payload([13]), new Date('2026-11-27T10:00:01Z'));
    worker.start();
    await worker.idle();
    expect(calls.slice(0, 4)).toEqual(['PUT /put/12', 'confirm 12', 'PUT /put/13', 'confirm 13']);
    expect(calls.slice(4)).toEqual(['confirm 12']);
    expect(delivered).toEqual([13, 12]);
  });
});

describe('DeliveryWorker after a restart', () => {
  it('confirms a recovered item first: uploads only when the server has no file', async () => {
    const { folder, log } = await setup();
    const before = new DeliveryQueue({ folder, warnItems: 100, log });
    const capture = payload([20, 21, 22]);
    await before.open(capture, null, new Date());
    await before.composed(capture.capture_id, Buffer.from('print'), new Date());
    await before.release(capture.capture_id);
    await before.markPut(capture.capture_id, 21);

    // The agent restarts: a new queue and worker on the same folder.
    const queue = new DeliveryQueue({ folder, warnItems: 100, log });
    await queue.load();
    const scripted = scriptedTransfers();
    // 20: the server already has it; 22: it has nothing yet (409).
    scripted.script.confirm.push('ok', 'ok', 409, 'ok');
    const worker = new DeliveryWorker({
      queue,
      transfers: scripted.transfers,
      log,
      now: () => new Date(),
      retry: { firstMs: 1, maxMs: 4 },
    });
    workers.push(worker);
    worker.start();
    await worker.idle();
    expect(scripted.calls).toEqual([
      'confirm 20',
      'confirm 21',
      'confirm 22',
      'PUT /put/22',
      'confirm 22',
    ]);
    expect(await folder.list()).toEqual([]);
  });
});

describe('DeliveryWorker with motion items', () => {
  it('encodes a gif item, PUTs its MP4, poster, preview and .gif with their types, confirms once', async () => {
    const { worker, queuedMotion, calls, types, encoder, delivered, folder } = await setup();
    const capture = motionPayload(30, 'gif');
    await queuedMotion(capture);
    const workDir = await folder.path((await folder.list())[0] as string);
    worker.start();
    await worker.idle();
    expect(calls).toEqual([
      'PUT /put/30',
      'PUT /put/30/poster',
      'PUT /put/30/preview',
      'PUT /put/30/gif',
      'confirm 30',
    ]);
    expect(types).toEqual(['video/mp4', 'image/jpeg', 'image/webp', 'image/gif']);
    expect(encoder.requests).toMatchObject([
      { kind: 'gif', speed: 1, fps: 4 / 3, gif: true, aspect: null, foreground: null },
    ]);
    expect(encoder.requests[0]?.frames).toHaveLength(3);
    expect(delivered).toEqual([30]);
    // Delivered: the capture and its folder of frames and encodings are gone.
    expect(await folder.list()).toEqual([]);
    await expect(readdir(workDir)).rejects.toThrow(/ENOENT/);
  });

  it('sends only the files not yet taken after an outage; a boomerang has no .gif', async () => {
    const { worker, queuedMotion, calls, script, encoder, delivered } = await setup();
    script.put.push('ok', 'down');
    await queuedMotion(motionPayload(31, 'boomerang'));
    worker.start();
    await worker.idle();
    expect(calls).toEqual([
      'PUT /put/31',
      'PUT /put/31/poster',
      'PUT /put/31/poster',
      'PUT /put/31/preview',
      'confirm 31',
    ]);
    expect(encoder.requests).toHaveLength(1);
    expect(delivered).toEqual([31]);
  });

  it('asks for fresh links for all the files when one is refused or they expired', async () => {
    const { worker, queuedMotion, calls, script } = await setup();
    script.put.push('ok', 403);
    await queuedMotion(motionPayload(32, 'boomerang'), new Date('2026-11-27T10:00:00Z'));
    await queuedMotion(
      motionPayload(33, 'boomerang', (id) => `/put/${id}?expires=1000`),
      new Date('2026-11-27T10:00:01Z'),
    );
    worker.start();
    await worker.idle();
    expect(calls).toEqual([
      'PUT /put/32',
      'PUT /put/32/poster',
      'link 32',
      'PUT /fresh/32/poster',
      'PUT /fresh/32/preview',
      'confirm 32',
      'link 33',
      'PUT /fresh/33',
      'PUT /fresh/33/poster',
      'PUT /fresh/33/preview',
      'confirm 33',
    ]);
  });

  it('retries an encoding that failed, later, while the other items go on', async () => {
    const { worker, queued, queuedMotion, calls, encoder, delivered, log } = await setup();
    encoder.failNext = new Error('ffmpeg could not encode the video: out of memory');
    await queuedMotion(motionPayload(34, 'boomerang'), new Date('2026-11-27T10:00:00Z'));
    await queued(payload([35]), new Date('2026-11-27T10:00:01Z'));
    worker.start();
    await worker.idle();
    expect(encoder.requests).toHaveLength(2);
    expect(calls.slice(0, 2)).toEqual(['PUT /put/35', 'confirm 35']);
    expect(delivered).toEqual([35, 34]);
    expect(log.messages('warn')).toContain('delivery of an item failed; it is retried later');
  });
});

describe('DeliveryWorker with motion items after a restart', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
  });

  it('encodes again an encoding cut short, and sends only the files not yet taken', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'flashbooth-worker-'));
    dirs.push(dir);
    const log = recordingLog();
    const before = new DeliveryQueue({ folder: new DiskQueueFolder(dir), warnItems: 100, log });
    // 40: killed in the middle of its encoding (a half-written MP4 under its temporary name).
    const cutShort = motionPayload(40, 'boomerang');
    await recordMotion(before, cutShort, new Date('2026-11-27T10:00:00Z'));
    const work = await before.workDir(cutShort.capture_id);
    await writeFile(path.join(work, '.tmp-encoding-motion.mp4'), 'half an mp4');
    // 41: encoded, its MP4 taken by the store, then killed.
    const halfSent = motionPayload(41, 'boomerang');
    await recordMotion(before, halfSent, new Date('2026-11-27T10:00:01Z'));
    await before.encode(halfSent.capture_id, new FakeMotionEncoder());
    await before.markPartPut(halfSent.capture_id, 41, 'video');

    const { queue, worker, encoder, calls, script, delivered } = await setup(
      new DiskQueueFolder(dir),
    );
    await queue.load();
    expect(await readdir(work)).not.toContain('.tmp-encoding-motion.mp4');
    // Each is confirmed first (its files may all be there); the server has none yet.
    script.confirm.push(409, 'ok', 409, 'ok');
    worker.start();
    await worker.idle();
    expect(calls).toEqual([
      'confirm 40',
      'PUT /put/40',
      'PUT /put/40/poster',
      'PUT /put/40/preview',
      'confirm 40',
      'confirm 41',
      'PUT /put/41/poster',
      'PUT /put/41/preview',
      'confirm 41',
    ]);
    expect(encoder.requests).toHaveLength(1);
    expect(delivered).toEqual([40, 41]);
    expect((await readdir(dir)).filter((name) => !name.startsWith('.'))).toEqual([]);
  });
});
