/** A source of photos for a capture session. */
export interface Camera {
  /** The BOOTH_CAMERA driver (simulated, folder, gphoto2, webcam, rpicam), for the booth's health report. */
  readonly driver?: string;
  /** Takes photo number `index` (0-based) of the current session; resolves to an encoded image (JPEG or PNG). */
  capture(index: number): Promise<Buffer>;
  /**
   * Records motion as JPEG frames written into `request.dir` (the capture's own folder in the
   * delivery queue, so the frames are on disk before anything else happens to them) and
   * resolves with the frames' paths in playing order. A camera without it records a burst of
   * stills with `capture` (recordWithStills), whatever the mode.
   */
  record?(request: MotionRequest): Promise<MotionRecording>;
}

/**
 * What to record: `burst`, `count` stills `intervalMs` apart (a GIF's frames); `clip`, `seconds`
 * of video at `fps` (a boomerang's burst, a video).
 */
export interface MotionRequest {
  mode: 'burst' | 'clip';
  /** burst: the stills taken. */
  count: number;
  /** burst: the time between two stills. */
  intervalMs: number;
  /** clip: its length. */
  seconds: number;
  /** clip: frames per second asked of the camera (30). */
  fps: number;
  /**
   * The frame size the encoding wants: the template's slot's shape at 1280 on its long side
   * (1280×854 for a 3:2 slot; `motionRequest`). Cameras that can choose (simulated, folder) make
   * frames this size; the others give their own size, which the encoder scales and crops in the
   * middle.
   */
  size: { width: number; height: number };
  /** An existing folder for the frames (frame-0001.jpg, frame-0002.jpg, …). */
  dir: string;
}

export interface MotionRecording {
  /** The frames' paths, in order. */
  frames: string[];
  /**
   * The frames' real rate: a clip's frames per second as the camera delivered them (a camera's
   * live view may give fewer than asked), a burst's 1000 / intervalMs.
   */
  fps: number;
}

/** The name of frame `index` (0-based) in a recording folder. */
export const frameName = (index: number): string =>
  `frame-${String(index + 1).padStart(4, '0')}.jpg`;

/** ffmpeg's and rpicam's pattern for the same names. */
export const FRAME_PATTERN = 'frame-%04d.jpg';

/** How many frames a request asks for. */
export function requestedFrames(request: MotionRequest): number {
  return request.mode === 'burst'
    ? Math.max(1, Math.round(request.count))
    : Math.max(1, Math.round(request.seconds * request.fps));
}
