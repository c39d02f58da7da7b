import { composePrint } from '@flashbooth/print-composition';
import type { AgentLog } from '../log.js';
import type { ReportOutbox } from '../report-outbox.js';
import {
  interruptedCaptureMessage,
  recoveryFailedMessage,
  restartedBeforePrintMessage,
} from '../reports.js';
import type { CaptureManifest, DeliveryQueue } from './delivery-queue.js';

export interface RecoveryOptions {
  queue: DeliveryQueue;
  outbox: Pick<ReportOutbox, 'report'>;
  log: AgentLog;
}

/**
 * At start-up, the captures a restart (a crash, a power cut) interrupted in the middle of their
 * session: one with every photo taken is composed from its saved command, foreground and photos
 * and queued; one composed before the restart is queued as it is. Neither is printed again by
 * itself (the print may have come out; staff are told). One cut short before its last photo
 * cannot be finished: it is reported with its capture id, so the server gives the visitor's
 * entitlement back, and removed.
 */
export async function recoverInterrupted(
  manifests: readonly CaptureManifest[],
  { queue, outbox, log }: RecoveryOptions,
): Promise<void> {
  for (const manifest of manifests) {
    const captureId = manifest.capture_id;
    if (manifest.stage === 'queued') continue;
    if (manifest.stage === 'capturing') {
      const photos = await queue.photos(captureId);
      if (photos.length < manifest.total_captures) {
        log.warn(
          { captureId, photos: photos.length, of: manifest.total_captures },
          'a capture was interrupted by a restart before its last photo: given up',
        );
        outbox.report(
          interruptedCaptureMessage(captureId, photos.length, manifest.total_captures),
          { captureId, delivered: [] },
        );
        await queue.discard(captureId);
        continue;
      }
      try {
        const foreground = await queue.foreground(captureId);
        const print = await composePrint({ ...manifest.template, foreground }, photos, {
          onWarning: (message) => log.warn({ captureId }, message),
        });
        await queue.composed(captureId, print, new Date(manifest.accepted_at));
      } catch (error) {
        log.error({ err: error, captureId }, 'an interrupted capture could not be composed');
        outbox.report(recoveryFailedMessage(captureId, error), { captureId, delivered: [] });
        await queue.setAside(captureId);
        continue;
      }
    }
    log.warn(
      { captureId },
      'a capture interrupted by a restart is delivered without printing it again',
    );
    outbox.report(
      restartedBeforePrintMessage(
        captureId,
        manifest.uploads.map((u) => u.media_id),
      ),
    );
    await queue.release(captureId);
  }
}
