import { randomUUID } from 'node:crypto';
import type { CaptureCommandPayload, DeviceErrorReport } from '@flashbooth/contracts';
import { LAYOUTS, samplePhoto } from '@flashbooth/print-composition';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
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
