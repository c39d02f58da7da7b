import type { Media } from '@flashbooth/contracts';
import { useRef, useState } from 'react';
import { formatUtcTimestamp } from '@/lib/format-date';
import { mediaAspectRatio, previewUrl } from './media-preview-model';
import './media-preview.css';

/**
 * React sets `muted` as a property only; the attribute (and `defaultMuted`) is what some mobile
 * browsers read before they allow a video to play on its own.
 */
function keepMuted(video: HTMLVideoElement | null) {
  if (!video) return;
  video.defaultMuted = true;
  video.muted = true;
  video.setAttribute('muted', '');
}

/** A card's looping clip, with a pause button (WCAG 2.2.2: moving content can be stopped). */
function PreviewVideo({
  url,
  label,
  onError,
}: {
  url: string;
  label: string;
  onError: () => void;
}) {
  const ref = useRef<HTMLVideoElement | null>(null);
  const [paused, setPaused] = useState(false);
  const toggle = () => {
    const video = ref.current;
    if (!video) return;
    if (video.paused) {
      video.play().catch(() => undefined);
    } else {
      video.pause();
    }
  };
  return (
    <>
      <video
        ref={(video) => {
          ref.current = video;
          keepMuted(video);
        }}
        src={url}
        autoPlay
        muted
        loop
        playsInline
        aria-label={label}
        onPlay={() => setPaused(false)}
        onPause={() => setPaused(true)}
        onError={onError}
      />
      <button
        type="button"
        className="media-video-toggle"
        aria-label={paused ? 'Play video' : 'Pause video'}
        onClick={toggle}
      >
        <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
          {paused ? (
            <path d="M8 5v14l11-7z" fill="currentColor" />
          ) : (
            <path d="M7 5h4v14H7zm6 0h4v14h-4z" fill="currentColor" />
          )}
        </svg>
      </button>
    </>
  );
}

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
 * A media card's preview (My Media, the wall): the photo, or the autoplaying muted looping clip,
 * at the print's own ratio on a dark stage; "On its way from the booth" until uploaded (the
 * booth's delivery queue may hold it a while when its network is down).
 */
export function MediaPreview({ media, where }: { media: PreviewMedia; where: string }) {
  const [failed, setFailed] = useState(false);
  const url = previewUrl(media);
  const ratio = mediaAspectRatio(media.orientation);
  const when = formatUtcTimestamp(media.created_at);
  return (
    <div className="media-card-stage">
      <div
        className={`media-card-preview media-card-preview-${media.orientation}`}
        style={{ aspectRatio: ratio }}
      >
        {!url ? (
          <div className="media-card-processing">
            <span className="spinner spinner-sm" aria-hidden="true" />
            <span>{MEDIA_ON_ITS_WAY}</span>
            <span className="media-card-processing-note">{MEDIA_ON_ITS_WAY_NOTE}</span>
          </div>
        ) : failed ? (
          <div className="media-card-processing">Preview unavailable</div>
        ) : media.media_type === 'video' ? (
          <PreviewVideo
            url={url}
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
