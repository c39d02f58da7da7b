import type { Media } from '@flashbooth/contracts';
import { type CSSProperties, useEffect, useState } from 'react';
import { formatUtcTimestamp } from '@/lib/format-date';
import { mediaAspectRatio, type PictureSize, previewBox, previewUrl } from './media-preview-model';
import { MotionPlayer } from './motion-player';
import { motionSources } from './motion-player-model';
import './media-preview.css';

/** A waiting item's preview (issue 22): the photos are taken; the booth has not sent them yet. */
export const MEDIA_ON_ITS_WAY = 'On its way from the booth';
export const MEDIA_ON_ITS_WAY_NOTE = 'It appears here by itself as soon as the booth sends it.';

export type PreviewMedia = Pick<
  Media,
  | 'media_type'
  | 'lowres_s3_url'
  | 's3_url'
  | 'is_uploaded'
  | 'orientation'
  | 'caption'
  | 'created_at'
>;

/**
 * The natural size of the picture at `url` (null until it loads, or without a url). The browser
 * fetches it once: the video shows the same poster.
 */
function usePictureSize(url: string | null): PictureSize | null {
  const [size, setSize] = useState<{ url: string; size: PictureSize } | null>(null);
  useEffect(() => {
    if (!url) return;
    let live = true;
    const image = new Image();
    image.onload = () => {
      if (live) setSize({ url, size: { width: image.naturalWidth, height: image.naturalHeight } });
    };
    image.src = url;
    return () => {
      live = false;
      image.onload = null;
    };
  }, [url]);
  return size && size.url === url ? size.size : null;
}

/**
 * A media card's preview (My Media, the wall, the staff media views): the photo at the print's
 * own ratio, or the motion item's MP4 playing muted on a loop from its poster (MotionPlayer) in
 * a box of the clip's own shape (its poster's size: `previewBox`), on a dark stage; "On its way
 * from the booth" until uploaded (the booth's delivery queue may hold it a while when its
 * network is down).
 */
export function MediaPreview({ media, where }: { media: PreviewMedia; where: string }) {
  const [failed, setFailed] = useState(false);
  const url = previewUrl(media);
  const motion = media.media_type === 'video' ? motionSources(media) : null;
  const clip = usePictureSize(motion?.poster ?? null);
  const box = previewBox(media.orientation, motion ? clip : null);
  const when = formatUtcTimestamp(media.created_at);
  return (
    <div className="media-card-stage">
      <div
        className={`media-card-preview media-card-preview-${box.portrait ? 'portrait' : 'landscape'}`}
        style={
          {
            aspectRatio: box.ratio,
            ...(box.squareInset ? { '--square-inset': box.squareInset } : {}),
          } as CSSProperties
        }
        data-testid="media-preview-box"
      >
        {!url ? (
          <div className="media-card-processing">
            <span className="spinner spinner-sm" aria-hidden="true" />
            <span>{MEDIA_ON_ITS_WAY}</span>
            <span className="media-card-processing-note">{MEDIA_ON_ITS_WAY_NOTE}</span>
          </div>
        ) : failed && motion?.poster ? (
          // The clip would not play here: its still instead.
          <img src={motion.poster} alt={`Video from ${where}, ${when}`} decoding="async" />
        ) : failed ? (
          <div className="media-card-processing">Preview unavailable</div>
        ) : motion ? (
          <MotionPlayer
            src={motion.video}
            poster={motion.poster}
            label={`Video from ${where}, ${when}`}
            onError={() => setFailed(true)}
          />
        ) : (
          <img
            src={url}
            alt={media.caption ? `Photo: ${media.caption}` : `Photo from ${where}, ${when}`}
            loading="lazy"
            decoding="async"
            onError={() => setFailed(true)}
          />
        )}
      </div>
    </div>
  );
}

/** The preview's placeholder while a card loads: a skeleton in the orientation's shape. */
export function MediaPreviewSkeleton({
  portrait,
  className,
}: {
  portrait: boolean;
  /** Added to the stage's classes. */
  className?: string;
}) {
  const orientation = portrait ? 'portrait' : 'landscape';
  return (
    <div className={className ? `media-card-stage ${className}` : 'media-card-stage'}>
      <div
        className={`skeleton media-card-preview media-card-preview-${orientation}`}
        style={{ aspectRatio: mediaAspectRatio(orientation) }}
      />
    </div>
  );
}
