// The texts of the booth's error reports (DeviceErrorReport on flashbooth/devices/{thing}/errors).
// Staff read them in the device's error log: each says what failed and what to do about it.
import type { CaptureCommandPayload, DeviceUpdatePayload } from '@flashbooth/contracts';

/** Where a capture session was when it failed, in the order a session runs. */
export type SessionStage = 'foreground' | 'camera' | 'queue' | 'compose' | 'print';

export interface SessionProgress {
  stage: SessionStage;
  /** The photo being taken (0-based), in the camera stage. */
  photo: number;
  /** Items uploaded and confirmed so far: these reached the visitor (none before the queue). */
  delivered: number[];
}

/** An error's message, with its cause's (fetch says only "fetch failed"), kept short. */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error).slice(0, 300);
  const cause = error.cause instanceof Error ? error.cause.message : undefined;
  const text =
    cause && !error.message.includes(cause) ? `${error.message}: ${cause}` : error.message;
  return text.slice(0, 300);
}

function delivery(delivered: readonly number[]): string {
  return delivered.length === 0
    ? 'Nothing was delivered to the visitor.'
    : `Delivered before the failure: media ${delivered.join(', ')}.`;
}

/** The report of a capture session that failed at `progress.stage`. */
export function sessionFailureMessage(
  capture: CaptureCommandPayload,
  progress: SessionProgress,
  error: unknown,
): string {
  const id = capture.capture_id;
  const template = `template "${capture.template.name}" (id ${capture.template.id})`;
  const cause = describeError(error);
  let what: string;
  switch (progress.stage) {
    case 'foreground':
      what =
        `Capture ${id} was refused: the artwork (foreground) of ${template} could not be ` +
        `downloaded (${cause}). Check the booth's internet connection and the template's ` +
        'foreground image in the staff console.';
      break;
    case 'camera':
      what =
        capture.template.capture_kind && capture.template.capture_kind !== 'photo'
          ? `Capture ${id} failed: the camera did not record the ${capture.template.capture_kind} ` +
            `(${cause}). Check that the camera is connected and switched on; restart the booth ` +
            'if it happens again.'
          : `Capture ${id} failed: the camera did not take photo ${progress.photo + 1} of ` +
            `${capture.total_captures} (${cause}). Check that the camera is connected and switched ` +
            'on; restart the booth if it happens again.';
      break;
    case 'queue':
      what =
        `Capture ${id} failed: the booth could not save the photos to its delivery queue ` +
        `(${cause}). Check the booth's disk (free space, BOOTH_QUEUE_DIR and its permissions).`;
      break;
    case 'compose':
      what =
        `Capture ${id} failed: the photos could not be composed into ${template} (${cause}). ` +
        "Check the template's image slots and foreground image in the staff console.";
      break;
    case 'print':
      what =
        `Capture ${id} failed: the printer did not print (${cause}). Check that the printer is ` +
        'switched on and has paper and ribbon, and clear any jam.';
      break;
  }
  return `${what} ${delivery(progress.delivered)}`;
}

/** A capture refused because the roll is empty. */
export function rollEmptyMessage(captureId: string): string {
  return (
    `Capture ${captureId} was refused: the paper roll is empty (0 prints left). Load a new ` +
    'roll, then set the prints left with Restock Media in the staff console.'
  );
}

/** The roll just fell below the warning level (PRINTS_LEFT_WARNING). */
export function lowRollMessage(printsLeft: number): string {
  const prints = printsLeft === 1 ? '1 print' : `${printsLeft} prints`;
  return `Only ${prints} left on the paper roll. Restock the printer soon.`;
}

/** A software update that failed; the booth keeps its version. */
export function updateFailureMessage(
  release: DeviceUpdatePayload,
  runningVersion: string,
  reason: string,
): string {
  return (
    `Software update to ${release.version} (release ${release.release_id}) failed: ${reason}. ` +
    `The booth keeps running version ${runningVersion}. Check the release file in the staff ` +
    'console (upload it again if needed), then send the update again.'
  );
}

/** A capture cut short by a restart before all its photos were taken. */
export function interruptedCaptureMessage(
  captureId: string,
  photosTaken: number,
  totalCaptures: number,
  during: 'photos' | 'recording' = 'photos',
): string {
  if (during === 'recording') {
    return (
      `Capture ${captureId} was interrupted: the booth restarted while recording, so nothing ` +
      'was made. Nothing was delivered to the visitor. Check why the booth restarted (power, ' +
      'crash) in its log.'
    );
  }
  return (
    `Capture ${captureId} was interrupted: the booth restarted after ${photosTaken} of ` +
    `${totalCaptures} photos, so no print was made. Nothing was delivered to the visitor. ` +
    'Check why the booth restarted (power, crash) in its log.'
  );
}

/** A capture whose photos were all taken but which a restart interrupted before it was queued. */
export function recoveryFailedMessage(captureId: string, error: unknown): string {
  return (
    `Capture ${captureId} was interrupted by a restart and its print could not be composed ` +
    `again (${describeError(error)}). Nothing was delivered to the visitor; its files are kept ` +
    "in the delivery queue's rejected folder."
  );
}

/** An item the server refused for good (its media record is gone). */
export function undeliverableMessage(
  captureId: string,
  mediaId: number,
  error: unknown,
  delivered: readonly number[],
): string {
  return (
    `Capture ${captureId}: media ${mediaId} cannot be delivered, the server refused it ` +
    `(${describeError(error)}). Its files are kept in the delivery queue's rejected folder. ` +
    delivery(delivered)
  );
}

/** A capture recovered after a restart: delivered, but perhaps never printed. */
export function restartedBeforePrintMessage(
  captureId: string,
  mediaIds: readonly number[],
): string {
  return (
    `Capture ${captureId} was interrupted by a restart after its photos were taken. Its photo ` +
    `(media ${mediaIds.join(', ')}) is delivered to the visitor, but the print may not have ` +
    'come out: it is not printed again by itself. Reprint it for the visitor if they ask.'
  );
}
