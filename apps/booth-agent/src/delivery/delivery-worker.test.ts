import { randomUUID } from 'node:crypto';
import type { CaptureCommandPayload } from '@flashbooth/contracts';
import { afterEach, describe, expect, it } from 'vitest';
import { recordingLog } from '../../test/fakes.js';
import { TransferError } from '../transfers.js';
import { DeliveryQueue, type QueueItem } from './delivery-queue.js';
import { DeliveryWorker } from './delivery-worker.js';
import { MemoryQueueFolder } from './queue-folder.js';

type Answer = 'ok' | 'down' | number;

/** Transfers that answer from per-call scripts ('down': no answer at all) and record each call. */
function scriptedTransfers() {
  const calls: string[] = [];
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
    script,
    capturedAt,
    transfers: {
      uploadOnce(url: string): Promise<void> {
        calls.push(`PUT ${url}`);
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

async function setup() {
  const log = recordingLog();
  const folder = new MemoryQueueFolder();
  const queue = new DeliveryQueue({ folder, warnItems: 100, log });
  const scripted = scriptedTransfers();
  const delivered: number[] = [];
  const rejected: { item: QueueItem; delivered: number[] }[] = [];
  const worker = new DeliveryWorker({
    queue,
    transfers: scripted.transfers,
    log,
    now: () => new Date(),
    retry: { firstMs: 1, maxMs: 4 },
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
  return { log, folder, queue, worker, delivered, rejected, queued, ...scripted };
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
    const { worker, queued, calls, script, delivered } = await setup();
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
