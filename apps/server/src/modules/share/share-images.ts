import sharp from 'sharp';
import type { ObjectStorage } from '../storage/storage.js';
import type { ShareImageWidth } from '../../lib/share-paths.js';

/** A share image: its JPEG bytes and size in pixels. */
export interface ShareImage {
  body: Buffer;
  width: number;
  height: number;
}

/** What a share image is made from: the item's id and the stored picture to scale. */
export interface ShareImageSource {
  id: number;
  /** The photo (HD) or a motion item's poster; null when the item has no picture. */
  pictureKey: string | null;
}

/** How many share images one instance makes at once; the others wait their turn. */
const CONCURRENT_RENDERS = 2;
/** Sizes of images made or read here remembered per instance (the page needs them). */
const SIZE_MEMO_LIMIT = 5000;

/** The stored copy of an item's share image in one width. */
export const shareImageKey = (mediaId: number, width: ShareImageWidth) =>
  `share/${mediaId}/w${width}.jpg`;

/**
 * The share page's images (`og:image` and the page's own photo): the item's picture scaled to
 * 1200 (link previews ask for 1200 px wide) or 600 px wide with sharp, JPEG q80 (mozjpeg),
 * made on first request and kept in the object store beside the media (`share/{id}/w{width}.jpg`),
 * so each is made once for all instances. Whether the item may be shown is the caller's to
 * decide before asking (the route checks the item is on the wall on every request).
 */
export class ShareImages {
  private readonly inFlight = new Map<string, Promise<ShareImage | null>>();
  private readonly sizes = new Map<string, { width: number; height: number }>();
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly storage: Pick<ObjectStorage, 'get' | 'put'>) {}

  /** The image's bytes (made now when not stored yet); null when the item has no picture. */
  async image(source: ShareImageSource, width: ShareImageWidth): Promise<ShareImage | null> {
    if (!source.pictureKey) return null;
    const key = shareImageKey(source.id, width);
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = this.load(key, source.pictureKey, width).finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    return pending;
  }

  /** The image's size, from memory when this instance knew it already. */
  async size(
    source: ShareImageSource,
    width: ShareImageWidth,
  ): Promise<{ width: number; height: number } | null> {
    const known = this.sizes.get(shareImageKey(source.id, width));
    if (known) return known;
    const image = await this.image(source, width);
    return image && { width: image.width, height: image.height };
  }

  /**
   * The stored picture's own size (a motion item's poster: the booth makes it at the MP4's exact
   * size, so this is the video's size), read from its header once per instance; null when the
   * item has no picture or it cannot be read.
   */
  async sourceSize(source: ShareImageSource): Promise<{ width: number; height: number } | null> {
    if (!source.pictureKey) return null;
    const key = `source/${source.pictureKey}`;
    const known = this.sizes.get(key);
    if (known) return known;
    const picture = await this.storage.get(source.pictureKey);
    if (!picture) return null;
    const meta = await sharp(picture.body)
      .metadata()
      .catch(() => null);
    if (!meta?.width || !meta.height) return null;
    const size = { width: meta.width, height: meta.height };
    this.remember(key, { body: Buffer.alloc(0), ...size });
    return size;
  }

  private async load(
    key: string,
    pictureKey: string,
    width: ShareImageWidth,
  ): Promise<ShareImage | null> {
    const stored = await this.storage.get(key);
    if (stored) {
      const meta = await sharp(stored.body).metadata();
      return this.remember(key, { body: stored.body, width: meta.width, height: meta.height });
    }
    const picture = await this.storage.get(pictureKey);
    if (!picture) return null;
    const made = await this.limited(() =>
      sharp(picture.body)
        // The camera's orientation flag applied, so the preview stands the way the photo does.
        .rotate()
        .resize({ width })
        .jpeg({ quality: 80, mozjpeg: true, progressive: true })
        .toBuffer({ resolveWithObject: true }),
    );
    await this.storage.put(key, made.data, 'image/jpeg');
    return this.remember(key, {
      body: made.data,
      width: made.info.width,
      height: made.info.height,
    });
  }

  private remember(key: string, image: ShareImage): ShareImage {
    if (this.sizes.size >= SIZE_MEMO_LIMIT) {
      const oldest = this.sizes.keys().next().value;
      if (oldest !== undefined) this.sizes.delete(oldest);
    }
    this.sizes.set(key, { width: image.width, height: image.height });
    return image;
  }

  /** Runs `work` when fewer than CONCURRENT_RENDERS renders are running. */
  private async limited<T>(work: () => Promise<T>): Promise<T> {
    if (this.running >= CONCURRENT_RENDERS) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    this.running += 1;
    try {
      return await work();
    } finally {
      this.running -= 1;
      this.waiting.shift()?.();
    }
  }
}
