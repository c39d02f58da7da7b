import sharp from 'sharp';

export interface PhotoSize {
  width: number;
  height: number;
}

export interface JpegExpectation {
  /** The exact size the camera was asked for (webcam, Raspberry Pi camera). */
  size?: PhotoSize;
  /** The least a usable photo measures on its short side (a DSLR picks its own size). */
  minShortSide?: number;
}

/** Reads `WIDTHxHEIGHT` (e.g. 1920x1080); undefined when it is not that. */
export function parseSize(text: string): PhotoSize | undefined {
  const match = /^(\d{2,5})[x×](\d{2,5})$/i.exec(text.trim());
  if (!match) return undefined;
  const width = Number(match[1]);
  const height = Number(match[2]);
  return width > 0 && height > 0 ? { width, height } : undefined;
}

export const formatSize = (size: PhotoSize): string => `${size.width}x${size.height}`;

/**
 * Checks that a camera program gave back a JPEG of the size it was asked for, so a wrong
 * setting (a webcam that cannot do the size, a camera set to RAW) is named at the booth instead
 * of surfacing as a broken print. Resolves to the photo's size.
 */
export async function checkJpeg(
  photo: Buffer,
  expected: JpegExpectation,
  who: string,
): Promise<PhotoSize> {
  if (photo.length === 0) throw new Error(`${who} gave back an empty file instead of a photo`);
  let meta: sharp.Metadata;
  try {
    meta = await sharp(photo).metadata();
  } catch (error) {
    throw new Error(`${who} gave back a file that is not an image (${photo.length} bytes)`, {
      cause: error,
    });
  }
  if (meta.format !== 'jpeg') {
    throw new Error(
      `${who} gave back a ${meta.format ?? 'unknown'} image instead of a JPEG: set the camera to JPEG`,
    );
  }
  const size = { width: meta.width, height: meta.height };
  if (
    expected.size &&
    (size.width !== expected.size.width || size.height !== expected.size.height)
  ) {
    throw new Error(
      `${who} gave back a ${formatSize(size)} photo instead of ${formatSize(expected.size)}: ` +
        'choose a size the camera supports',
    );
  }
  if (expected.minShortSide && Math.min(size.width, size.height) < expected.minShortSide) {
    throw new Error(
      `${who} gave back a ${formatSize(size)} photo, too small to print: ` +
        'set the camera to its largest JPEG size',
    );
  }
  return size;
}
