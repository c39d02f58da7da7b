import type { Media } from '@flashbooth/contracts';

/** Spec: previews use 3:2 for landscape and 2:3 for portrait. */
export function mediaAspectRatio(orientation: Media['orientation']): string {
  return orientation === 'landscape' ? '3 / 2' : '2 / 3';
}

/** A picture's size in pixels. */
export interface PictureSize {
  width: number;
  height: number;
}

/**
 * The box of a card's preview: a photo's is the print's ratio (3:2 or 2:3, by orientation); a
 * motion clip's is the clip's own shape once known, read from its poster (the booth makes the
 * poster at the MP4's exact size, framed by the template's slot), so the clip fills its box
 * without bars; the print's ratio until then. `portrait` picks the tall box's sizing.
 */
export function previewBox(
  orientation: Media['orientation'],
  clip: PictureSize | null,
): { ratio: string; portrait: boolean; squareInset: string | null } {
  if (clip && clip.width > 0 && clip.height > 0) {
    const portrait = clip.height > clip.width;
    // Where the box sits in a square stage (My Media's grid places it by percentages).
    const margin =
      Math.round(
        ((1 - Math.min(clip.width, clip.height) / Math.max(clip.width, clip.height)) / 2) * 100_000,
      ) / 1000;
    return {
      ratio: `${clip.width} / ${clip.height}`,
      portrait,
      squareInset: portrait ? `0 ${margin}%` : `${margin}% 0`,
    };
  }
  return {
    ratio: mediaAspectRatio(orientation),
    portrait: orientation === 'portrait',
    squareInset: null,
  };
}

/**
 * What a card shows as its preview: the low-resolution copy (a JPEG for a photo, a short clip
 * for a video), or the HD file when there is no low-resolution one.
 */
export function previewUrl(
  media: Pick<Media, 'lowres_s3_url' | 's3_url' | 'is_uploaded'>,
): string | null {
  if (!media.is_uploaded) return null;
  return media.lowres_s3_url ?? media.s3_url;
}
