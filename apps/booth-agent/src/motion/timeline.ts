/**
 * How a motion capture plays: which recorded frame each frame of the MP4 shows. Pure
 * arithmetic, shared by the encoder, the preview and the tests.
 */

export type MotionKind = 'gif' | 'boomerang' | 'video';

/** The MP4's rate. */
export const OUTPUT_FPS = 30;
/** Every MP4 is at least this long (Instagram's shortest video), made of whole loops. */
export const MIN_LOOP_SECONDS = 3;
/** The animated WebP's rate: smooth enough for a list, a fraction of the bytes. */
export const PREVIEW_FPS = 12;
/** The widest animated WebP and .gif. */
export const PREVIEW_MAX_WIDTH = 480;

/**
 * The recorded frames in playing order: a boomerang goes forward then back without showing
 * its two end frames twice (0 1 2 3 2 1, then the loop starts again at 0).
 */
export function playOrder(kind: MotionKind, count: number): number[] {
  const forward = Array.from({ length: count }, (_, index) => index);
  if (kind !== 'boomerang' || count < 3) return forward;
  const back = forward.slice(1, -1).reverse();
  return [...forward, ...back];
}

export interface Timeline {
  /** One loop: the recorded frame shown by each output frame at `fps`. */
  frames: number[];
  /** One loop's length in seconds. */
  loopSeconds: number;
  /** How many times the loop is played in the MP4 (at least MIN_LOOP_SECONDS). */
  loops: number;
}

/**
 * One loop of `kind` made of `count` frames recorded at `sourceFps`, played `speed` times as
 * fast, sampled at `fps`: output frame i shows the frame playing at i / fps.
 */
export function timeline(
  kind: MotionKind,
  count: number,
  sourceFps: number,
  speed: number,
  fps = OUTPUT_FPS,
): Timeline {
  if (count < 1) throw new Error('a motion capture needs at least one frame');
  if (!(sourceFps > 0) || !(speed > 0)) throw new Error('frame rate and speed must be positive');
  const order = playOrder(kind, count);
  const rate = sourceFps * speed;
  const outputFrames = Math.max(1, Math.round((order.length / rate) * fps));
  const frames = Array.from(
    { length: outputFrames },
    (_, i) => order[Math.min(order.length - 1, Math.floor((i * rate) / fps + 1e-9))] as number,
  );
  const loopSeconds = outputFrames / fps;
  const loops = Math.max(1, Math.ceil(MIN_LOOP_SECONDS / loopSeconds - 1e-9));
  return { frames, loopSeconds, loops };
}

/** A shape (any unit): a template slot's width and height, or a frame's. */
export interface Aspect {
  width: number;
  height: number;
}

/** The long side of the MP4: 1280, or 1920 when the camera's frames are that large. */
export const HD_LONG_SIDE = 1280;
export const FULL_HD_LONG_SIDE = 1920;

/** A whole number of pixels, even (yuv420p halves both sides). */
export const even = (value: number): number => Math.max(2, 2 * Math.round(value / 2));

/**
 * The shape a motion clip is framed to: the template's first print slot (the clip shows what the
 * print's photo shows, cropped the same way: scaled to cover, cut equally off both sides), or,
 * for a template without a slot, null: the camera's own shape (nothing cut).
 */
export function clipAspect(template: {
  images?: readonly { w: number; h: number }[];
}): Aspect | null {
  const slot = template.images?.[0];
  if (!slot || !(slot.w > 0) || !(slot.h > 0)) return null;
  return { width: slot.w, height: slot.h };
}

/** `aspect` at `long` pixels on its long side, both sides even. */
export function sizeAt(aspect: Aspect, long: number): { width: number; height: number } {
  return aspect.width >= aspect.height
    ? { width: even(long), height: even((long * aspect.height) / aspect.width) }
    : { width: even((long * aspect.width) / aspect.height), height: even(long) };
}

/**
 * The MP4's size: `aspect` (the slot's shape, or the frame's own when null) at 1280 on its long
 * side, or 1920 when the frames cover that size without being enlarged.
 */
export function videoSize(
  aspect: Aspect | null,
  frame: { width: number; height: number },
  allowFullHd = true,
): { width: number; height: number } {
  const shape = aspect ?? frame;
  const full = sizeAt(shape, FULL_HD_LONG_SIDE);
  // Cropped to the slot's shape without being enlarged: the camera's frames must reach it.
  const fits = frame.width >= full.width && frame.height >= full.height;
  return allowFullHd && fits ? full : sizeAt(shape, HD_LONG_SIDE);
}

/**
 * The frames the poster is chosen from: the middle third (the group is posed by then and not
 * yet leaving), at least one.
 */
export function middleFrames(count: number): number[] {
  if (count <= 2) return Array.from({ length: count }, (_, index) => index);
  const from = Math.floor(count / 3);
  const to = Math.max(from + 1, Math.ceil((2 * count) / 3));
  return Array.from({ length: to - from }, (_, index) => from + index);
}

/**
 * Picks `count` stills spread evenly over `frames` recorded frames (the print of a motion
 * capture): the centres of `count` equal parts.
 */
export function evenPicks(frames: number, count: number): number[] {
  return Array.from({ length: count }, (_, index) =>
    Math.min(frames - 1, Math.floor(((index + 0.5) * frames) / count)),
  );
}
