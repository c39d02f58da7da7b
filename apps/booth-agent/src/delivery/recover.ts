import { readFile } from 'node:fs/promises';
import { composePrint } from '@flashbooth/print-composition';
import { evenPicks } from '../motion/timeline.js';
import type { AgentLog } from '../log.js';
import type { ReportOutbox } from '../report-outbox.js';
import {
  interruptedCaptureMessage,
  recoveryFailedMessage,
  restartedBeforePrintMessage,
} from '../reports.js';
import { captureKindOf, type CaptureManifest, type DeliveryQueue } from './delivery-queue.js';

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
 *
 * A motion capture likewise: cut short while recording, it is given up; with its frames on disk
 * (`recorded`) it is queued, its print (when the template prints) composed from stills of the
 * frames first. Its encoding is the delivery worker's, which starts it over if a restart cut it
 * short.
 */
export async function recoverInterrupted(
  manifests: readonly CaptureManifest[],
  { queue, outbox, log }: RecoveryOptions,
): Promise<void> {
  for (const manifest of manifests) {
    const captureId = manifest.capture_id;
    if (manifest.stage === 'queued') continue;
    const motion = captureKindOf(manifest.template) !== 'photo';
    if (motion && manifest.stage === 'capturing') {
      log.warn(
        { captureId },
        'a motion capture was interrupted by a restart while recording: given up',
      );
      outbox.report(interruptedCaptureMessage(captureId, 0, 1, 'recording'), {
        captureId,
        delivered: [],
      });
      await queue.discard(captureId);
      continue;
    }
    if (motion && manifest.stage === 'recorded') {
      const prints = (manifest.template as { motion?: { print?: boolean } | null }).motion?.print;
      if (!prints || manifest.total_captures < 1) {
        // Nothing was to be printed: the capture only lacked its release.
        log.info({ captureId }, 'a recorded motion capture is queued after a restart');
        await queue.release(captureId);
        continue;
      }
      try {
        const frames = await queue.motionFrames(captureId);
        const stills = await Promise.all(
          evenPicks(frames.length, manifest.total_captures).map((i) =>
            readFile(frames[i] as string),
          ),
        );
        const foreground = await queue.foreground(captureId);
        const print = await composePrint({ ...manifest.template, foreground }, stills, {
          onWarning: (message) => log.warn({ captureId }, message),
        });
        await queue.composed(
          captureId,
          print,
          new Date(manifest.captured_at ?? manifest.accepted_at),
        );
      } catch (error) {
        log.error({ err: error, captureId }, 'an interrupted capture could not be composed');
        outbox.report(recoveryFailedMessage(captureId, error), { captureId, delivered: [] });
        await queue.setAside(captureId);
        continue;
      }
    } else if (manifest.stage === 'capturing') {
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
