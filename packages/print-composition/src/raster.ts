/**
 * Pixel copying for the print canvas, on plain 8-bit buffers. libvips' composite blends every
 * layer in floating point over the whole canvas (about 80 ms per layer at 3600×2400 on the booth's
 * two cores); slots are opaque rectangles that only need copying, and the one translucent layer,
 * the foreground, blends in a single integer pass. Together they take a few tens of milliseconds.
 */

/** An 8-bit image: `channels` bytes per pixel, rows without padding. */
export interface RawImage {
  data: Buffer;
  width: number;
  height: number;
  channels: number;
}

export function whiteCanvas(width: number, height: number): RawImage {
  return { data: Buffer.alloc(width * height * 3, 255), width, height, channels: 3 };
}

/** Copies an RGB `tile` into the RGB `canvas` at (left, top); the caller keeps it inside the canvas. */
export function copyInto(canvas: RawImage, tile: RawImage, left: number, top: number): void {
  if (canvas.channels !== 3 || tile.channels !== 3) {
    throw new Error(
      `copyInto expects RGB images, got ${canvas.channels} and ${tile.channels} bands`,
    );
  }
  if (
    left < 0 ||
    top < 0 ||
    left + tile.width > canvas.width ||
    top + tile.height > canvas.height
  ) {
    throw new Error('copyInto: the tile does not fit in the canvas');
  }
  const rowBytes = tile.width * 3;
  for (let row = 0; row < tile.height; row += 1) {
    const source = row * rowBytes;
    tile.data.copy(canvas.data, ((top + row) * canvas.width + left) * 3, source, source + rowBytes);
  }
}

/** Draws a canvas-sized RGBA `overlay` over the RGB `canvas` ("over" operator, straight alpha). */
export function blendOver(canvas: RawImage, overlay: RawImage): void {
  if (canvas.channels !== 3 || overlay.channels !== 4) {
    throw new Error('blendOver expects an RGB canvas and an RGBA overlay');
  }
  if (canvas.width !== overlay.width || canvas.height !== overlay.height) {
    throw new Error('blendOver: the overlay must be the size of the canvas');
  }
  const dst = canvas.data;
  const src = overlay.data;
  const pixels = canvas.width * canvas.height;
  for (let p = 0, s = 0, d = 0; p < pixels; p += 1, s += 4, d += 3) {
    const alpha = src[s + 3] as number;
    // Overlays are mostly fully transparent or fully opaque: skip the arithmetic for those.
    if (alpha === 0) continue;
    if (alpha === 255) {
      dst[d] = src[s] as number;
      dst[d + 1] = src[s + 1] as number;
      dst[d + 2] = src[s + 2] as number;
      continue;
    }
    const rest = 255 - alpha;
    // Rounded; storing into a byte array truncates the fraction.
    dst[d] = ((src[s] as number) * alpha + (dst[d] as number) * rest + 127) / 255;
    dst[d + 1] = ((src[s + 1] as number) * alpha + (dst[d + 1] as number) * rest + 127) / 255;
    dst[d + 2] = ((src[s + 2] as number) * alpha + (dst[d + 2] as number) * rest + 127) / 255;
  }
}
