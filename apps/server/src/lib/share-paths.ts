/**
 * The addresses of a public item's share page and of what it shows, served by the share module
 * (`modules/share/share.routes.ts`). The media and wall modules (My Media's `share_path`, the
 * kiosk wall's images) build them too, so the shapes live here, below every module.
 */

/** What a public id looks like: 22 base64url characters (migration 0020). */
export const PUBLIC_ID_PATTERN = /^[A-Za-z0-9_-]{22}$/;

/** The widths the share image is made in: 1200 for link previews (og:image), 600 for phones. */
export const SHARE_IMAGE_WIDTHS = [600, 1200] as const;
export type ShareImageWidth = (typeof SHARE_IMAGE_WIDTHS)[number];

export const sharePagePath = (publicId: string) => `/p/${publicId}`;
export const shareImagePath = (publicId: string, width: ShareImageWidth = 1200) =>
  `/p/${publicId}/image.jpg${width === 1200 ? '' : `?w=${width}`}`;
export const shareVideoPath = (publicId: string) => `/p/${publicId}/video.mp4`;
/** A motion item's animated WebP preview. */
export const sharePreviewPath = (publicId: string) => `/p/${publicId}/preview.webp`;
/** A gif item's `.gif`. */
export const shareGifPath = (publicId: string) => `/p/${publicId}/animation.gif`;
