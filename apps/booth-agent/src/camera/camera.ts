/** A source of photos for a capture session. */
export interface Camera {
  /** The BOOTH_CAMERA driver (simulated, folder, gphoto2, webcam, rpicam), for the booth's health report. */
  readonly driver?: string;
  /** Takes photo number `index` (0-based) of the current session; resolves to an encoded image (JPEG or PNG). */
  capture(index: number): Promise<Buffer>;
}
