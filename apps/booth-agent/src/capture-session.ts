import {
  type CaptureCommandPayload,
  CaptureCommandPayloadSchema,
  type DeviceCommandMessage,
  PRINTS_LEFT_WARNING,
} from '@flashbooth/contracts';
import { composePrint, printLayout, type Template } from '@flashbooth/print-composition';
import type { Camera } from './camera/camera.js';
import { isExpired } from './command-intake.js';
import type { AgentLog } from './log.js';
import type { Printer } from './printer/printer.js';
import { BOOTH_MESSAGES, type Reply } from './replies.js';
import type { ReportOutbox } from './report-outbox.js';
import {
  lowRollMessage,
  rollEmptyMessage,
  sessionFailureMessage,
  type SessionProgress,
} from './reports.js';
import type { BoothState } from './state.js';
import type { StatusBoard } from './status.js';
import { sleep } from './time.js';
import type { Transfers } from './transfers.js';

export interface CaptureSessionOptions {
  thingName: string;
  camera: Camera;
  printer: Printer;
  /** The visitor's countdown before each photo (DESIGN 2b: 10 s). */
  countdownMs: number;
  board: StatusBoard;
  /** Prints left; saved after each print. */
  store: { readonly state: BoothState; persist(): Promise<void> };
  outbox: Pick<ReportOutbox, 'report'>;
  transfers: Pick<Transfers, 'download' | 'upload' | 'confirmUpload'>;
  now: () => Date;
  log: AgentLog;
}

/**
 * The `capture` command (DESIGN 2b): fetch the foreground, accept, report `ready`, count down
 * and take each photo, compose, print (one print off the roll), PUT the print to every upload URL
 * and confirm each, then report `idle`. A refused capture or a failed session goes to the
 * device's error log with what was already delivered.
 */
export class CaptureSession {
  constructor(private readonly options: CaptureSessionOptions) {}

  /** Checks and accepts a capture command, then runs the session in the background. */
  async handle(command: DeviceCommandMessage, reply: Reply): Promise<void> {
    const { board, store, outbox, transfers, log, now } = this.options;
    const parsed = CaptureCommandPayloadSchema.safeParse(command.payload);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
      log.error({ id: command.id, issues }, 'malformed capture command');
      await reply({ error: `Invalid capture command (${issues.join('; ')}).` });
      return;
    }
    const payload = parsed.data;
    if (!board.free) {
      await reply({ error: BOOTH_MESSAGES.busy });
      return;
    }
    if (store.state.prints_left < 1) {
      log.error({ id: command.id, printsLeft: store.state.prints_left }, 'roll empty');
      await reply({ error: BOOTH_MESSAGES.rollEmpty });
      outbox.report(rollEmptyMessage(payload.capture_id), {
        captureId: payload.capture_id,
        delivered: [],
      });
      return;
    }
    // Claimed before the first await, so a second capture arriving meanwhile is refused.
    const end = board.claim('ready');
    let foreground: Buffer | null;
    try {
      // Before accepting: a template the booth cannot render is refused, so the server gives
      // the visitor's entitlement back instead of charging for a print that never comes.
      foreground = payload.template.foreground_url
        ? await transfers.download(payload.template.foreground_url)
        : null;
    } catch (error) {
      log.error({ err: error, captureId: payload.capture_id }, 'foreground fetch failed');
      end();
      await reply({ error: BOOTH_MESSAGES.foreground });
      const progress: SessionProgress = { stage: 'foreground', photo: 0, delivered: [] };
      outbox.report(sessionFailureMessage(payload, progress, error), {
        captureId: payload.capture_id,
        delivered: [],
      });
      return;
    }
    if (isExpired(command, now())) {
      // The server gave up while the foreground loaded, and has already undone the capture.
      log.warn({ captureId: payload.capture_id }, 'capture expired before it was accepted');
      end();
      return;
    }
    await reply({ status: 'accepted' });
    log.info(
      { captureId: payload.capture_id, photos: payload.total_captures },
      'capture session started',
    );
    await board.publishQuietly();
    const progress: SessionProgress = { stage: 'camera', photo: 0, delivered: [] };
    void this.run(payload, foreground, progress)
      .catch((error: unknown) => {
        log.error(
          { err: error, captureId: payload.capture_id, stage: progress.stage },
          'capture session failed',
        );
        outbox.report(sessionFailureMessage(payload, progress, error), {
          captureId: payload.capture_id,
          delivered: [...progress.delivered],
        });
      })
      .finally(() => {
        end();
        void board.publishQuietly();
      });
  }

  /**
   * Countdown and photo per capture, compose, print, upload. `progress` tells the caller where
   * a failure happened and what was already delivered.
   */
  private async run(
    payload: CaptureCommandPayload,
    foreground: Buffer | null,
    progress: SessionProgress,
  ): Promise<void> {
    const { camera, printer, countdownMs, board, store, outbox, transfers, log, thingName } =
      this.options;
    const photos: Buffer[] = [];
    for (let index = 0; index < payload.total_captures; index += 1) {
      await sleep(countdownMs);
      progress.photo = index;
      photos.push(await camera.capture(index));
    }

    progress.stage = 'compose';
    await board.set('processing');
    const template: Template = { ...payload.template, foreground };
    const image = await composePrint(template, photos, {
      onWarning: (message) =>
        log.warn({ captureId: payload.capture_id, template: template.id }, message),
    });
    const firstMedia = payload.uploads[0]?.media_id;
    progress.stage = 'print';
    const { jobId } = await printer.print({
      image,
      copies: 1,
      strips: printLayout(template).strips,
      jobName: firstMedia !== undefined ? `media-${firstMedia}` : `capture-${payload.capture_id}`,
    });
    const before = store.state.prints_left;
    store.state.prints_left = Math.max(0, before - 1);
    log.info({ captureId: payload.capture_id, jobId }, 'printed');
    await store.persist();
    if (store.state.prints_left < PRINTS_LEFT_WARNING) {
      log.warn(
        { thingName, printsLeft: store.state.prints_left },
        'the paper roll is nearly empty',
      );
      // Reported when the count crosses the line, not on every print below it; a restock above
      // the line arms it again.
      if (before >= PRINTS_LEFT_WARNING) outbox.report(lowRollMessage(store.state.prints_left));
    }

    // The new prints_left goes out with this status, which is how staff see the roll running low.
    await board.set('uploading');
    for (const upload of payload.uploads) {
      progress.mediaId = upload.media_id;
      progress.stage = 'upload';
      await transfers.upload(upload.upload_url, upload.content_type, image);
      // The server checks the file and marks the item uploaded (it makes the preview afterwards).
      progress.stage = 'confirm';
      await transfers.confirmUpload(upload.media_id);
      progress.delivered.push(upload.media_id);
      log.info({ captureId: payload.capture_id, mediaId: upload.media_id }, 'uploaded');
    }
  }
}
