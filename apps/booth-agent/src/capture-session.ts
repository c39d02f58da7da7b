import { readFile } from 'node:fs/promises';
import {
  type CaptureCommandPayload,
  CaptureCommandPayloadSchema,
  type DeviceCommandMessage,
  MOTION_RULES,
  PRINTS_LEFT_WARNING,
} from '@flashbooth/contracts';
import { composePrint, printLayout, type Template } from '@flashbooth/print-composition';
import type { Camera, MotionRequest } from './camera/camera.js';
import { recordMotion } from './camera/motion-frames.js';
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
import { captureKindOf, type DeliveryQueue } from './delivery/delivery-queue.js';
import { clipAspect, evenPicks, HD_LONG_SIDE, type MotionKind, sizeAt } from './motion/timeline.js';

export interface CaptureSessionOptions {
  thingName: string;
  camera: Camera;
  printer: Printer;
  /** Composes the print (default composePrint; a load test's fleet may reuse one print). */
  compose?: typeof composePrint;
  /** The visitor's countdown before each photo (DESIGN 2b: 10 s). */
  countdownMs: number;
  board: StatusBoard;
  /** Prints left; saved after each print. */
  store: { readonly state: BoothState; persist(): Promise<void> };
  outbox: Pick<ReportOutbox, 'report'>;
  transfers: Pick<Transfers, 'download'>;
  /** Where the photos and the print are kept until the server confirms them. */
  queue: DeliveryQueue;
  /** Each photo's outcome, for the camera's health. */
  onCameraResult?: (error: unknown) => void;
  now: () => Date;
  log: AgentLog;
}

/** The refusal when the delivery queue cannot be written (the server gives the entitlement back). */
export const QUEUE_REFUSAL =
  'The photobooth cannot save photos right now (its disk is full or cannot be written).';

/**
 * The `capture` command (DESIGN 2b): fetch the foreground, open the capture in the delivery
 * queue, accept, report `ready`, count down and take each photo (each saved to the queue),
 * compose (the print saved to the queue), print (one print off the roll), then hand the
 * capture's uploads to the delivery worker and report `idle`: uploads never hold the booth.
 * A refused capture or a failed session goes to the device's error log; a session that fails
 * before its print leaves nothing in the queue.
 */
export class CaptureSession {
  constructor(private readonly options: CaptureSessionOptions) {}

  /** Checks and accepts a capture command, then runs the session in the background. */
  async handle(command: DeviceCommandMessage, reply: Reply): Promise<void> {
    const { board, store, outbox, transfers, queue, log, now } = this.options;
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
    try {
      // On disk before the booth says yes: from here the capture survives a restart.
      await queue.open(payload, foreground, now());
    } catch (error) {
      log.error({ err: error, captureId: payload.capture_id }, 'cannot write the delivery queue');
      end();
      await reply({ error: QUEUE_REFUSAL });
      const progress: SessionProgress = { stage: 'queue', photo: 0, delivered: [] };
      outbox.report(sessionFailureMessage(payload, progress, error), {
        captureId: payload.capture_id,
        delivered: [],
      });
      return;
    }
    await reply({ status: 'accepted' });
    const kind = captureKindOf(payload.template);
    log.info(
      { captureId: payload.capture_id, kind, photos: payload.total_captures },
      'capture session started',
    );
    await board.publishQuietly();
    const progress: SessionProgress = { stage: 'camera', photo: 0, delivered: [] };
    const session =
      kind === 'photo'
        ? this.run(payload, foreground, progress)
        : this.runMotion(kind, payload, foreground, progress);
    void session
      .catch(async (error: unknown) => {
        log.error(
          { err: error, captureId: payload.capture_id, stage: progress.stage },
          'capture session failed',
        );
        // Nothing of a failed session is delivered: the server gives the entitlement back.
        await queue
          .discard(payload.capture_id)
          .catch((discardError: unknown) =>
            log.error({ err: discardError }, 'could not remove a failed capture from the queue'),
          );
        outbox.report(sessionFailureMessage(payload, progress, error), {
          captureId: payload.capture_id,
          delivered: [],
        });
      })
      .finally(() => {
        end();
        void board.publishQuietly();
      });
  }

  /**
   * Countdown and photo per capture (each saved), compose (saved), print, then release the
   * capture to the delivery worker. `progress` tells the caller where a failure happened.
   */
  private async run(
    payload: CaptureCommandPayload,
    foreground: Buffer | null,
    progress: SessionProgress,
  ): Promise<void> {
    const { camera, countdownMs, queue, now } = this.options;
    const captureId = payload.capture_id;
    const photos: Buffer[] = [];
    for (let index = 0; index < payload.total_captures; index += 1) {
      await sleep(countdownMs);
      progress.stage = 'camera';
      progress.photo = index;
      let photo: Buffer;
      try {
        photo = await camera.capture(index);
        this.options.onCameraResult?.(undefined);
      } catch (error) {
        this.options.onCameraResult?.(error);
        throw error;
      }
      progress.stage = 'queue';
      await queue.addPhoto(captureId, index, photo);
      photos.push(photo);
    }
    const capturedAt = now();

    await this.printAndQueue(payload, foreground, photos, capturedAt, progress);
  }

  /**
   * A motion capture (gif, boomerang, video): one countdown, then the camera records into the
   * capture's folder in the queue. Once the frames are on disk the booth says `processing` (the
   * visitor's screen moves on); a template that also prints gets stills picked evenly from the
   * frames, composed and printed like a photo capture. The encoding and the uploads are the
   * delivery worker's, after the capture is released.
   */
  private async runMotion(
    kind: MotionKind,
    payload: CaptureCommandPayload,
    foreground: Buffer | null,
    progress: SessionProgress,
  ): Promise<void> {
    const { camera, countdownMs, board, queue, log, now } = this.options;
    const captureId = payload.capture_id;
    const motion = payload.template.motion;
    await sleep(countdownMs);
    progress.stage = 'queue';
    const dir = await queue.framesDir(captureId);
    progress.stage = 'camera';
    const request = motionRequest(kind, motion, payload.template, dir);
    let recording;
    try {
      recording = await recordMotion(camera, request);
      if (recording.frames.length === 0) throw new Error('the camera recorded no frames');
      this.options.onCameraResult?.(undefined);
    } catch (error) {
      this.options.onCameraResult?.(error);
      throw error;
    }
    const capturedAt = now();
    progress.stage = 'queue';
    await queue.recorded(captureId, recording.frames, recording.fps, capturedAt);
    log.info(
      { captureId, kind, frames: recording.frames.length, fps: recording.fps },
      'motion recorded',
    );
    await board.set('processing');

    if (motion?.print && payload.total_captures > 0) {
      const picks = evenPicks(recording.frames.length, payload.total_captures);
      const stills = await Promise.all(
        picks.map((index) => readFile(recording.frames[index] as string)),
      );
      await this.printAndQueue(payload, foreground, stills, capturedAt, progress);
      return;
    }
    // Nothing to print: the delivery worker takes it from here.
    await queue.release(captureId);
    log.info({ captureId, items: payload.uploads.length }, 'queued for delivery');
  }

  /** Compose (saved), print, count the print off the roll, then release to the delivery worker. */
  private async printAndQueue(
    payload: CaptureCommandPayload,
    foreground: Buffer | null,
    photos: Buffer[],
    capturedAt: Date,
    progress: SessionProgress,
  ): Promise<void> {
    const { printer, board, store, outbox, queue, log, thingName } = this.options;
    const captureId = payload.capture_id;
    progress.stage = 'compose';
    // A motion capture says `processing` as soon as its frames are taken.
    if (board.current !== 'processing') await board.set('processing');
    const template: Template = { ...payload.template, foreground };
    const compose = this.options.compose ?? composePrint;
    const image = await compose(template, photos, {
      onWarning: (message) => log.warn({ captureId, template: template.id }, message),
    });
    progress.stage = 'queue';
    await queue.composed(captureId, image, capturedAt);

    // The print's own item names the job (a motion capture lists its video first).
    const printMedia = payload.uploads.find((upload) => upload.content_type === 'image/jpeg');
    progress.stage = 'print';
    const { jobId } = await printer.print({
      image,
      copies: 1,
      strips: printLayout(template).strips,
      jobName: printMedia !== undefined ? `media-${printMedia.media_id}` : `capture-${captureId}`,
    });
    const before = store.state.prints_left;
    store.state.prints_left = Math.max(0, before - 1);
    log.info({ captureId, jobId }, 'printed');
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
    // Printed: the delivery worker takes it from here, and the booth is free for the next visitor.
    await queue.release(captureId);
    log.info({ captureId, items: payload.uploads.length }, 'queued for delivery');
  }
}

/**
 * What the camera records for a motion kind: a gif's stills (MOTION_RULES.gifIntervalSeconds
 * apart), a boomerang's burst, a video's clip, at MOTION_RULES.fps. Frames are asked for at the
 * clip's size: the template's first slot's shape (the print's photo, and the clip framed like
 * it), or without a slot 3:2 in the template's orientation (a camera's usual picture); cameras
 * that cannot choose give their own size, which the encoder crops in the middle.
 */
export function motionRequest(
  kind: MotionKind,
  motion: CaptureCommandPayload['template']['motion'],
  template: Pick<CaptureCommandPayload['template'], 'orientation' | 'images'>,
  dir: string,
): MotionRequest {
  const aspect = clipAspect(template);
  const shape =
    aspect ??
    (template.orientation === 'portrait' ? { width: 2, height: 3 } : { width: 3, height: 2 });
  const size = sizeAt(shape, HD_LONG_SIDE);
  const frames = motion?.frames ?? MOTION_RULES.gifFrames.default;
  const seconds =
    kind === 'boomerang'
      ? MOTION_RULES.boomerangBurstSeconds
      : (motion?.seconds ?? MOTION_RULES.videoSeconds.default);
  return {
    mode: kind === 'gif' ? 'burst' : 'clip',
    count: frames,
    intervalMs: MOTION_RULES.gifIntervalSeconds * 1000,
    seconds,
    fps: MOTION_RULES.fps,
    size,
    dir,
  };
}
