import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { CaptureCommandPayload, DeviceErrorReport } from '@flashbooth/contracts';
import { LAYOUTS, samplePhoto } from '@flashbooth/print-composition';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { recordingLog } from '../../test/fakes.js';
import type { ReportedSession } from '../report-outbox.js';
import { DeliveryQueue } from './delivery-queue.js';
import { MemoryQueueFolder } from './queue-folder.js';
import { recoverInterrupted } from './recover.js';

function payload(mediaId: number): CaptureCommandPayload {
  const layout = LAYOUTS.landscape1;
  return {
    capture_id: randomUUID(),
    template: {
      id: 4,
      name: 'One up',
      orientation: layout.orientation,
      is_cut: false,
      is_duplicated: false,
      images: layout.images.map((slot) => ({ ...slot })),
      foreground_url: null,
      capture_kind: 'photo',
      motion: null,
    },
    total_captures: 2,
    uploads: [{ media_id: mediaId, upload_url: `/put/${mediaId}`, content_type: 'image/jpeg' }],
  };
}

describe('recoverInterrupted', () => {
  it('composes and queues a capture with every photo, gives up one without, queues a composed one', async () => {
    const log = recordingLog();
    const folder = new MemoryQueueFolder();
    const before = new DeliveryQueue({ folder, warnItems: 10, log });
    const complete = payload(1);
    const cutShort = payload(2);
    const composed = payload(3);
    const photo = await samplePhoto(0, { width: 300, height: 200, takenAt: new Date() });
    for (const capture of [complete, cutShort, composed]) {
      await before.open(capture, null, new Date());
      await before.addPhoto(capture.capture_id, 0, photo);
    }
    await before.addPhoto(complete.capture_id, 1, photo);
    await before.addPhoto(composed.capture_id, 1, photo);
    await before.composed(composed.capture_id, Buffer.from('print'), new Date());

    // After the restart.
    const queue = new DeliveryQueue({ folder, warnItems: 10, log });
    const reports: { message: string; session?: ReportedSession }[] = [];
    const outbox = {
      report: (message: string, session?: ReportedSession) => {
        reports.push({ message, session });
        return {} as DeviceErrorReport;
      },
    };
    await recoverInterrupted(await queue.load(), { queue, outbox, log });

    expect(queue.manifest(complete.capture_id)?.stage).toBe('queued');
    const print = await sharp(await queue.print(complete.capture_id)).metadata();
    expect(print.format).toBe('jpeg');
    expect(queue.manifest(composed.capture_id)?.stage).toBe('queued');
    expect(queue.manifest(cutShort.capture_id)).toBeUndefined();
    expect(queue.stats().items).toBe(2);
    // The cut-short capture is reported with its id (the server gives the entitlement back);
    // the recovered ones without (they are delivered; staff learn the print may be missing).
    const byCapture = (id: string) => reports.filter((r) => r.message.includes(id));
    expect(byCapture(cutShort.capture_id)).toMatchObject([
      { session: { captureId: cutShort.capture_id, delivered: [] } },
    ]);
    expect(byCapture(cutShort.capture_id)[0]?.message).toMatch(/after 1 of 2 photos/);
    expect(byCapture(complete.capture_id)).toMatchObject([{ session: undefined }]);
    expect(byCapture(complete.capture_id)[0]?.message).toMatch(/not printed again/);
    expect(byCapture(composed.capture_id)).toHaveLength(1);
  });
});

function motionPayload(videoId: number, print: boolean): CaptureCommandPayload {
  const base = payload(videoId);
  return {
    ...base,
    template: {
      ...base.template,
      capture_kind: 'boomerang',
      motion: { frames: 4, seconds: 5, speed: 1, print },
    },
    total_captures: print ? 1 : 0,
    uploads: [
      {
        media_id: videoId,
        upload_url: `/put/${videoId}`,
        content_type: 'video/mp4',
        poster_upload_url: `/put/${videoId}/poster`,
        preview_upload_url: `/put/${videoId}/preview`,
        gif_upload_url: null,
      },
      ...(print
        ? [
            {
              media_id: videoId + 1,
              upload_url: `/put/${videoId + 1}`,
              content_type: 'image/jpeg' as const,
            },
          ]
        : []),
    ],
  };
}

describe('recoverInterrupted with motion captures', () => {
  const folders: MemoryQueueFolder[] = [];
  afterEach(async () => {
    for (const folder of folders.splice(0)) await folder.dispose();
  });

  it('gives up one cut short while recording; queues recorded ones, composing the print first', async () => {
    const log = recordingLog();
    const folder = new MemoryQueueFolder();
    folders.push(folder);
    const before = new DeliveryQueue({ folder, warnItems: 10, log });
    const recording = motionPayload(50, true);
    const withPrint = motionPayload(52, true);
    const noPrint = motionPayload(54, false);
    const frame = await samplePhoto(0, { width: 320, height: 180, takenAt: new Date() });
    for (const capture of [recording, withPrint, noPrint]) {
      await before.open(capture, null, new Date());
      const dir = await before.framesDir(capture.capture_id);
      const frames = [1, 2, 3].map((n) => path.join(dir, `frame-000${n}.jpg`));
      for (const file of frames) await writeFile(file, frame);
      if (capture !== recording) {
        await before.recorded(capture.capture_id, frames, 30, new Date('2026-11-27T10:00:00Z'));
      }
    }

    const queue = new DeliveryQueue({ folder, warnItems: 10, log });
    const reports: { message: string; session?: ReportedSession }[] = [];
    const outbox = {
      report: (message: string, session?: ReportedSession) => {
        reports.push({ message, session });
        return {} as DeviceErrorReport;
      },
    };
    await recoverInterrupted(await queue.load(), { queue, outbox, log });

    expect(queue.manifest(recording.capture_id)).toBeUndefined();
    expect(reports.filter((r) => r.message.includes(recording.capture_id))).toMatchObject([
      { session: { captureId: recording.capture_id, delivered: [] } },
    ]);
    expect(reports[0]?.message).toMatch(/restarted while recording/);
    expect(queue.manifest(withPrint.capture_id)?.stage).toBe('queued');
    expect((await sharp(await queue.print(withPrint.capture_id)).metadata()).format).toBe('jpeg');
    expect(reports.filter((r) => r.message.includes(withPrint.capture_id))[0]?.message).toMatch(
      /not printed again/,
    );
    // Nothing to print: queued quietly.
    expect(queue.manifest(noPrint.capture_id)?.stage).toBe('queued');
    expect(reports.filter((r) => r.message.includes(noPrint.capture_id))).toEqual([]);
    // The videos (with their frames) and the print wait for the worker.
    expect(queue.stats().items).toBe(3);
    expect(await queue.motionFrames(noPrint.capture_id)).toHaveLength(3);
  });
});
