import type { Media } from '@flashbooth/contracts';
import { useId, useState, type FormEvent } from 'react';
import { Spinner } from '@/components/ui/spinner';
import {
  MEDIA_CAPTION_MAX,
  formatUtcTimestamp,
  mediaAspectRatio,
  previewUrl,
} from '../media-model';

export type CardAction = 'download' | 'share' | 'public' | 'repost' | 'caption';

interface MediaCardProps {
  media: Media;
  /** Share is offered only on mobile user agents. */
  canShare: boolean;
  /** Resolves when the action is over (the screen shows its message). */
  onAction: (media: Media, action: CardAction, caption?: string) => Promise<void>;
}

function Switch({
  label,
  checked,
  busy,
  onToggle,
}: {
  label: string;
  checked: boolean;
  busy: boolean;
  onToggle: () => void;
}) {
  const labelId = useId();
  return (
    <div className="media-switch-row">
      <span id={labelId} className="media-switch-label">
        {label}
      </span>
      <button
        type="button"
        role="switch"
        className="media-switch"
        aria-checked={checked}
        aria-labelledby={labelId}
        aria-busy={busy || undefined}
        disabled={busy}
        onClick={onToggle}
      >
        <span className="media-switch-thumb" aria-hidden="true" />
      </button>
    </div>
  );
}

function Preview({ media }: { media: Media }) {
  const [failed, setFailed] = useState(false);
  const url = previewUrl(media);
  const ratio = mediaAspectRatio(media.orientation);
  return (
    <div className="media-card-stage">
      <div
        className={`media-card-preview media-card-preview-${media.orientation}`}
        style={{ aspectRatio: ratio }}
      >
        {!url ? (
          <div className="media-card-processing" role="status">
            <Spinner small label="Processing" />
            <span>Processing…</span>
          </div>
        ) : failed ? (
          <div className="media-card-processing">Preview unavailable</div>
        ) : media.media_type === 'video' ? (
          <video
            src={url}
            autoPlay
            muted
            loop
            playsInline
            preload="metadata"
            aria-label="Your photobooth video"
            onError={() => setFailed(true)}
          />
        ) : (
          <img
            src={url}
            alt={media.caption ? `Photo: ${media.caption}` : 'Your photobooth photo'}
            loading="lazy"
            decoding="async"
            onError={() => setFailed(true)}
          />
        )}
      </div>
    </div>
  );
}

function CaptionBox({
  media,
  onSave,
}: {
  media: Media;
  onSave: (caption: string) => Promise<void>;
}) {
  const inputId = useId();
  const [draft, setDraft] = useState(media.caption ?? '');
  const [saving, setSaving] = useState(false);
  // Follow the saved caption when it changes (after a save or a refetch).
  const [shown, setShown] = useState(media.caption);
  if (shown !== media.caption) {
    setShown(media.caption);
    setDraft(media.caption ?? '');
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaving(true);
    try {
      await onSave(draft);
    } finally {
      setSaving(false);
    }
  };

  return (
    <form className="media-caption" onSubmit={(event) => void submit(event)}>
      <label htmlFor={inputId} className="media-caption-label">
        Caption
      </label>
      <div className="media-caption-row">
        <input
          id={inputId}
          className="input media-caption-input"
          type="text"
          placeholder="Add a caption for the wall"
          maxLength={MEDIA_CAPTION_MAX}
          enterKeyHint="done"
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
        />
        <button type="submit" className="btn btn-secondary media-caption-save" disabled={saving}>
          {saving ? 'Saving…' : 'Save'}
        </button>
      </div>
    </form>
  );
}

/** One of the visitor's media: preview, where and when, caption, actions and the two toggles. */
export function MediaCard({ media, canShare, onAction }: MediaCardProps) {
  const [busy, setBusy] = useState<ReadonlySet<CardAction>>(new Set());
  const run = async (action: CardAction, caption?: string) => {
    setBusy((current) => new Set(current).add(action));
    try {
      await onAction(media, action, caption);
    } finally {
      setBusy((current) => {
        const next = new Set(current);
        next.delete(action);
        return next;
      });
    }
  };
  const where = [media.org_name, media.device_name].filter(Boolean).join(' · ');

  return (
    <article className="card media-card" data-testid="media-card" data-media-id={media.id}>
      <Preview media={media} />
      <div className="media-card-body">
        <p className="media-card-where">{where || 'Photobooth'}</p>
        <p className="media-card-when">
          <time dateTime={`${media.created_at}Z`}>{formatUtcTimestamp(media.created_at)}</time>
          <span className="visually-hidden"> UTC</span>
        </p>

        {media.is_public && (
          <CaptionBox media={media} onSave={(caption) => run('caption', caption)} />
        )}

        <div className="media-card-actions">
          <button
            type="button"
            className="btn btn-primary media-action"
            onClick={() => void run('download')}
            disabled={busy.has('download')}
          >
            {busy.has('download') ? 'Downloading…' : 'Download HD'}
          </button>
          {canShare && (
            <button
              type="button"
              className="btn btn-secondary media-action"
              onClick={() => void run('share')}
              disabled={busy.has('share')}
            >
              {busy.has('share') ? 'Sharing…' : 'Share'}
            </button>
          )}
        </div>

        <div className="media-card-switches">
          <Switch
            label="Public Wall"
            checked={media.is_public}
            busy={busy.has('public')}
            onToggle={() => void run('public')}
          />
          <Switch
            label="Allow Repost"
            checked={media.is_repost_allowed}
            busy={busy.has('repost')}
            onToggle={() => void run('repost')}
          />
        </div>
      </div>
    </article>
  );
}

/** A placeholder card while a page loads. */
export function MediaCardSkeleton({ portrait = false }: { portrait?: boolean }) {
  return (
    <div className="card media-card media-card-skeleton" aria-hidden="true">
      <div className="media-card-stage">
        <div
          className="skeleton media-card-preview"
          style={{ aspectRatio: mediaAspectRatio(portrait ? 'portrait' : 'landscape') }}
        />
      </div>
      <div className="media-card-body">
        <div className="skeleton media-skeleton-line" style={{ width: '65%' }} />
        <div className="skeleton media-skeleton-line" style={{ width: '40%' }} />
        <div className="skeleton media-skeleton-button" />
      </div>
    </div>
  );
}
