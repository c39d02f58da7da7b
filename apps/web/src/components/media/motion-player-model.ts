/**
 * When a card's looping clip loads and plays. A clip loads only once its card is near the screen
 * (and then stays loaded), plays while it is on the screen, and pauses when it scrolls away. For a person
 * who asked for reduced motion it shows its still poster until they press Play. A person's own
 * Pause holds until they press Play again.
 */
export type MotionChoice = 'none' | 'play' | 'pause';

export interface MotionInput {
  /** The card is on the screen or within the player's margin of it. */
  near: boolean;
  /** Some of the card is on the screen. */
  visible: boolean;
  /** prefers-reduced-motion: reduce. */
  reduced: boolean;
  /** The last press of the player's own Play/Pause button. */
  choice: MotionChoice;
  /** The clip was loaded before (its source stays once set). */
  loaded: boolean;
}

export interface MotionPlan {
  /** Give the video its source (before this it has none and `preload="none"`). */
  load: boolean;
  /** Play it now; otherwise hold it paused. */
  play: boolean;
}

export function motionPlan({ near, visible, reduced, choice, loaded }: MotionInput): MotionPlan {
  const wanted = reduced ? choice === 'play' : choice !== 'pause';
  const load = loaded || ((near || visible) && wanted);
  return { load, play: load && visible && wanted };
}

/** The video and still of a motion item: its MP4 and its poster JPEG (the low-resolution copy). */
export function motionSources(media: {
  lowres_s3_url: string | null;
  s3_url: string | null;
  is_uploaded: boolean;
}): { video: string; poster: string | null } | null {
  if (!media.is_uploaded || !media.s3_url) return null;
  return { video: media.s3_url, poster: media.lowres_s3_url };
}
