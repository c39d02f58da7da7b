import { LOWRES_MAX_WIDTH } from '@flashbooth/contracts';
import sharp from 'sharp';

export interface PreviewOptions {
  /** The widest the preview may be (default `LOWRES_MAX_WIDTH`, what My Media shows). */
  maxWidth?: number;
}

/**
 * The low-res preview of a photo or print: a JPEG (quality 80) at most `maxWidth` wide, never
 * enlarged, upright by its EXIF orientation. The server makes one for every delivered item.
 */
export function makeLowresPreview(image: Buffer, options: PreviewOptions = {}): Promise<Buffer> {
  return sharp(image)
    .rotate()
    .resize({ width: options.maxWidth ?? LOWRES_MAX_WIDTH, withoutEnlargement: true })
    .jpeg({ quality: 80 })
    .toBuffer();
}
