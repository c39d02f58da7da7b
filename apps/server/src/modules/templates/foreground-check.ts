import {
  FOREGROUND_MESSAGES,
  foregroundProblem,
  type LayoutOrientation,
  type SlotBox,
} from '@flashbooth/contracts';
import sharp from 'sharp';

/**
 * The foreground rule (contracts' template-foreground-rules.ts) on an uploaded file: a PNG of the
 * canvas size of `orientation`, transparent over each of `slots` (the template's current slots,
 * in order). Only the header is read until the size is right, so a huge image is never decoded.
 * Null when the file may be the template's foreground, else the message to refuse it with.
 */
export async function uploadedForegroundProblem(
  bytes: Buffer,
  orientation: LayoutOrientation,
  slots: readonly SlotBox[],
): Promise<string | null> {
  let meta: sharp.Metadata;
  try {
    meta = await sharp(bytes).metadata();
  } catch {
    return FOREGROUND_MESSAGES.unreadable;
  }
  if (meta.format !== 'png') return FOREGROUND_MESSAGES.png;
  const size = { width: meta.width ?? 0, height: meta.height ?? 0 };
  // The size first: without slots the pixels do not matter, and a wrong size is not decoded.
  const sizeOnly = foregroundProblem(orientation, size, null, []);
  if (sizeOnly || slots.length === 0) return sizeOnly;
  let alpha: Uint8Array | null = null;
  try {
    if (meta.hasAlpha) {
      // Grey with alpha has two channels, colour four: the alpha is the last either way.
      const { data, info } = await sharp(bytes)
        .raw({ depth: 'uchar' })
        .toBuffer({ resolveWithObject: true });
      alpha = new Uint8Array(info.width * info.height);
      for (let at = 0, pixel = info.channels - 1; at < alpha.length; at++) {
        alpha[at] = data[pixel]!;
        pixel += info.channels;
      }
    }
  } catch {
    return FOREGROUND_MESSAGES.unreadable;
  }
  return foregroundProblem(orientation, size, alpha, slots);
}
