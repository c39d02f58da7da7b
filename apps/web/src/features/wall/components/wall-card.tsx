import type { Media } from '@flashbooth/contracts';
import type { QueryKey } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { MediaPreview, MediaPreviewSkeleton } from '@/components/media/media-preview';
import { LineIcon } from '@/components/ui/line-icon';
import type { Status, StatusKind } from '@/components/ui/status-message';
import { Toast } from '@/components/ui/toast';
import { formatUtcTimestamp } from '@/lib/format-date';
import { useToggleLike } from '../api/toggle-like';
import { WALL_MESSAGES, displayName, likeLabel, mediaWhere, wallMessageAt } from '../wall-model';
import { wallItemAnchor } from '../wall-intent';
import { CommentsPanel } from './comments-panel';

interface WallCardProps {
  media: Media;
  /** The wall page the card is on: its like toggles there at once (useToggleLike). */
  pageKey: QueryKey;
  /** A signed-out visitor taps Like: keep it and go to sign in. */
  onSignInToLike?: (media: Media) => void;
  /** The screen's message, shown by the card where `at` says (wallMessageAt). */
  notify: (kind: StatusKind, text: string, at: string) => void;
  status?: Status | null;
  statusMs?: number;
  /** Signed out: the like asks to sign in, comments are read-only until then. */
  signedIn?: boolean;
  /** A signed-out visitor posts a comment: keep it and go to sign in. */
  onSignInToComment?: (media: Media, text: string) => void;
  /** Open the comments at once (the visitor comes back from signing in to comment). */
  commentsOpenAtStart?: boolean;
}

/** One public photo or clip: who, where and when, the caption, likes and the comments toggle. */
export function WallCard({
  media,
  pageKey,
  onSignInToLike,
  notify,
  status = null,
  statusMs = 0,
  signedIn = true,
  onSignInToComment,
  commentsOpenAtStart = false,
}: WallCardProps) {
  const headingId = useId();
  const panelId = useId();
  const toggleLike = useToggleLike(pageKey);
  const liking = toggleLike.isPending;
  const [commentsOpen, setCommentsOpen] = useState(commentsOpenAtStart);
  // Asked to open after the card was first drawn (the comment posted on coming back).
  const [openedFor, setOpenedFor] = useState(commentsOpenAtStart);
  if (commentsOpenAtStart !== openedFor) {
    setOpenedFor(commentsOpenAtStart);
    if (commentsOpenAtStart) setCommentsOpen(true);
  }
  const where = mediaWhere(media);

  /** Spec: a like toggles at once with its count and reverts when the call fails. */
  const like = () => {
    if (!signedIn) {
      onSignInToLike?.(media);
      return;
    }
    // One toggle at a time: the button keeps its focus (aria-disabled), so taps still arrive.
    if (liking) return;
    toggleLike.mutate(media, {
      onError: () => notify('error', WALL_MESSAGES.likeFailed, wallMessageAt.card(media.id)),
    });
  };

  return (
    <article
      className="card wall-card"
      data-testid="wall-card"
      data-media-id={media.id}
      // The address fragment sign-in returns to, and a focus target for coming back.
      id={wallItemAnchor(media.id)}
      tabIndex={-1}
      aria-labelledby={headingId}
    >
      <MediaPreview media={media} where={where} />
      <div className="wall-card-body">
        <div id={headingId}>
          <h2 className="wall-card-user">{displayName(media.user_name)}</h2>
          <p className="wall-card-meta">
            <span className="wall-card-where">{where}</span>
            <time dateTime={`${media.created_at}Z`}>
              {formatUtcTimestamp(media.created_at)}
              <span className="visually-hidden"> UTC</span>
            </time>
          </p>
        </div>
        {media.caption && <p className="wall-card-caption">{media.caption}</p>}
        <div className="wall-card-actions">
          <button
            type="button"
            className="wall-action wall-like"
            aria-pressed={media.is_liked_by_caller}
            aria-label={
              signedIn
                ? likeLabel(media.likes_count)
                : `${likeLabel(media.likes_count)}. Sign in to like`
            }
            aria-describedby={headingId}
            aria-disabled={liking || undefined}
            onClick={like}
          >
            <LineIcon size={22} className="wall-like-icon">
              <path d="M12 20.5s-7.5-4.6-9.3-9.4C1.5 7.9 3.6 4.5 7 4.5c2.1 0 3.6 1.2 5 3 1.4-1.8 2.9-3 5-3 3.4 0 5.5 3.4 4.3 6.6-1.8 4.8-9.3 9.4-9.3 9.4z" />
            </LineIcon>
            <span className="wall-like-count" data-testid="like-count">
              {media.likes_count}
            </span>
          </button>
          <button
            type="button"
            className="wall-action wall-comments-toggle"
            aria-expanded={commentsOpen}
            aria-controls={commentsOpen ? panelId : undefined}
            aria-describedby={headingId}
            onClick={() => setCommentsOpen((open) => !open)}
          >
            <LineIcon size={22}>
              <path d="M4 5.5h16v10H9l-5 4z" />
            </LineIcon>
            <span>{commentsOpen ? 'Hide comments' : 'Comments'}</span>
          </button>
        </div>
        <Toast status={status} ms={statusMs} at={wallMessageAt.card(media.id)} />
        {commentsOpen && (
          <CommentsPanel
            id={panelId}
            mediaId={media.id}
            notify={(kind, text) => notify(kind, text, wallMessageAt.comments(media.id))}
            signedIn={signedIn}
            onSignInToPost={(text) => onSignInToComment?.(media, text)}
          />
        )}
        {/* Under the comment box, the last thing of the open panel. */}
        <Toast status={status} ms={statusMs} at={wallMessageAt.comments(media.id)} />
      </div>
    </article>
  );
}

/** A placeholder card while the wall loads. */
export function WallCardSkeleton({ portrait = false }: { portrait?: boolean }) {
  return (
    <div className="card wall-card" data-testid="wall-skeleton" aria-hidden="true">
      <MediaPreviewSkeleton portrait={portrait} />
      <div className="wall-card-body">
        <div className="skeleton wall-skeleton-line" style={{ width: '45%' }} />
        <div className="skeleton wall-skeleton-line" style={{ width: '70%' }} />
        <div className="skeleton wall-skeleton-line" style={{ width: '30%' }} />
      </div>
    </div>
  );
}
