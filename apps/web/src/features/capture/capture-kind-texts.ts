import type { CaptureKind } from '@flashbooth/contracts/rules';

/**
 * The capture screen's words for each kind. A photo keeps the spec's texts; a motion kind has one
 * countdown at the booth, then a recording of `record_seconds`, then the booth makes the clip.
 */

/** What the visitor makes, in a sentence's words: "photos", "boomerang", "GIF", "video". */
export function madeThing(kind: CaptureKind): string {
  switch (kind) {
    case 'photo':
      return 'photos';
    case 'gif':
      return 'GIF';
    case 'boomerang':
      return 'boomerang';
    case 'video':
      return 'video';
  }
}

/** The how-to list above the Capture button. */
export function howToSteps(kind: CaptureKind): string[] {
  const first = [
    'Stand in front of the photobooth screen.',
    'Press Capture below when you are ready.',
  ];
  switch (kind) {
    case 'photo':
      return [
        ...first,
        'Watch the countdown on the booth and strike a pose for each photo.',
        'Your photos appear in My Media once they are uploaded.',
      ];
    case 'gif':
      return [
        ...first,
        'After the countdown the booth takes a few quick photos in a row: a new pose for each!',
        'Your GIF appears in My Media once it is uploaded.',
      ];
    case 'boomerang':
      return [
        ...first,
        'After the countdown the booth records a short burst: wave, jump, throw confetti!',
        'Your boomerang appears in My Media once it is uploaded.',
      ];
    case 'video':
      return [
        ...first,
        'After the countdown the booth records a short video: keep moving until it stops.',
        'Your video appears in My Media once it is uploaded.',
      ];
  }
}

/** Where a motion capture is, from the booth being ready (its countdown starts then). */
export type MotionStage = 'countdown' | 'recording' | 'making';

export interface MotionMoment {
  stage: MotionStage;
  /** When this stage ends (ms since the epoch), for the seconds shown beside it. */
  endsAt: number;
}

/**
 * The stage of a motion capture at `now`: the booth's countdown (`countdownMs` from `readyAt`),
 * then the recording (`recordSeconds`), then the booth making the clip.
 */
export function motionMoment(
  readyAt: number,
  countdownMs: number,
  recordSeconds: number,
  now: number,
): MotionMoment {
  const recordingAt = readyAt + countdownMs;
  const recordedAt = recordingAt + Math.max(0, recordSeconds) * 1000;
  if (now < recordingAt) return { stage: 'countdown', endsAt: recordingAt };
  if (now < recordedAt) return { stage: 'recording', endsAt: recordedAt };
  return { stage: 'making', endsAt: recordedAt };
}

/** The motion stage's words (in the live region: said once per stage, not every second). */
export function motionStageText(kind: Exclude<CaptureKind, 'photo'>, stage: MotionStage): string {
  if (stage === 'making') {
    return `Got it! The booth is making your ${madeThing(kind)}…`;
  }
  if (kind === 'gif') {
    return stage === 'countdown' ? 'Get ready to pose!' : 'Strike a pose for each frame!';
  }
  return stage === 'countdown' ? 'Get ready to move!' : 'Recording… keep moving!';
}

/** The label beside the seconds of a motion stage ("3 seconds until recording"). */
export function motionSecondsLabel(stage: MotionStage, seconds: number): string {
  const unit = seconds === 1 ? 'second' : 'seconds';
  return stage === 'countdown' ? `${unit} until recording` : `${unit} of recording left`;
}

/** The success panel's heading: the spec's for photos, the same words for a motion kind. */
export function successText(kind: CaptureKind): string {
  if (kind === 'photo') return 'All done! Your photos are ready.';
  return `All done! Your ${madeThing(kind)} is ready.`;
}
