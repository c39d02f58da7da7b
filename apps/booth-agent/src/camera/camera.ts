/** A source of photos for a capture session. */
export interface Camera {
  /** Takes photo number `index` (0-based) of the current session; resolves to an encoded image (JPEG or PNG). */
  capture(index: number): Promise<Buffer>;
}
