import type { Media } from '@flashbooth/contracts';

/** Spec: previews use 3:2 for landscape and 2:3 for portrait. */
export function mediaAspectRatio(orientation: Media['orientation']): string {
  return orientation === 'landscape' ? '3 / 2' : '2 / 3';
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
