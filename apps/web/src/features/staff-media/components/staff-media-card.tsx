import type { StaffMediaItem } from '@flashbooth/contracts';
import { MEDIA_LIBRARY_MESSAGES as M, repostBadgeText } from '@flashbooth/contracts/rules';
import type { QueryKey } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { type MediaFileAction, MediaFileButtons } from '@/components/media/media-file-buttons';
import { MediaPreview, MediaPreviewSkeleton } from '@/components/media/media-preview';
import { ConfirmDialog } from '@/components/ui/dialog';
import type { Status, StatusKind } from '@/components/ui/status-message';
import { Toast } from '@/components/ui/toast';
import { errorText } from '@/lib/error-text';
import { formatUtcTimestamp } from '@/lib/format-date';
import { useSetWallHidden } from '../api/set-wall-hidden';
import { ownerName, staffMessageAt, wallAction, whereLine } from '../staff-media-model';

/** What the card's file buttons ask of the screen (Hide from wall / Show on wall is the card's). */
type StaffCardAction = MediaFileAction | 'wall';

interface StaffMediaCardProps {
  item: StaffMediaItem;
  /** Share is offered only on mobile user agents. */
  canShare: boolean;
  /** All Media shows the "Repost Allowed" / "Repost Not Allowed" badge. */
  showRepostBadge: boolean;
  /** Hide from wall (public items, after a confirmation) / Show on wall, for its moderators. */
  canModerate: boolean;
  /** The page the card is on: Hide from wall / Show on wall updates it (useSetWallHidden). */
  pageKey: QueryKey;
  /** Resolves when the file action is over (the screen shows its message). */
  onFileAction: (item: StaffMediaItem, action: MediaFileAction) => Promise<void>;
  /** The screen's message; `at` places it under a card's buttons. */
  notify: (kind: StatusKind, text: string, at?: string) => void;
  /** The screen's message: the card shows it, under its buttons, when it answers them. */
  status?: Status | null;
  statusMs?: number;
}

/** One item of the staff media views (staff spec sections 2 and 3). */
export function StaffMediaCard({
  item,
  canShare,
  showRepostBadge,
  canModerate,
  pageKey,
  onFileAction,
  notify,
  status = null,
  statusMs = 0,
}: StaffMediaCardProps) {
  const headingId = useId();
  const wall = useSetWallHidden(pageKey);
  const [fileBusy, setFileBusy] = useState<MediaFileAction | null>(null);
  const busy: StaffCardAction | null = wall.isPending ? 'wall' : fileBusy;
  const [confirmHide, setConfirmHide] = useState(false);
  const moderation = canModerate ? wallAction(item) : null;
  // One action at a time (the buttons stay focusable while busy, so clicks still arrive).
  const run = async (action: MediaFileAction) => {
    if (busy) return;
    setFileBusy(action);
    try {
      await onFileAction(item, action);
    } finally {
      setFileBusy(null);
    }
  };
  /** Hide from wall / Show on wall; the message shows under the card's buttons. */
  const setOnWall = () => {
    if (busy) return;
    const say = (kind: StatusKind, text: string) => notify(kind, text, staffMessageAt(item.id));
    wall.mutate(
      { id: item.id, hidden: !item.hidden_from_wall },
      {
        onSuccess: (state) => say('success', state.hidden_from_wall ? M.hidden : M.shown),
        onError: (error) => say('error', errorText(error, M.hideFailed)),
      },
    );
  };
  const where = whereLine(item);

  return (
    <article
      className="card media-card staff-media-card"
      data-testid="staff-media-card"
      data-media-id={item.id}
      aria-labelledby={headingId}
    >
      <MediaPreview media={{ ...item, is_uploaded: true }} where={where} />
      <div className="staff-media-body">
        <div id={headingId}>
          <h2 className="staff-media-owner">{ownerName(item)}</h2>
          <p className="staff-media-where">{where}</p>
          <p className="staff-media-when">
            <time dateTime={`${item.created_at}Z`}>{formatUtcTimestamp(item.created_at)}</time>
            <span className="visually-hidden"> UTC</span>
          </p>
        </div>
        {item.caption && <p className="staff-media-caption">{item.caption}</p>}
        {(showRepostBadge || item.hidden_from_wall) && (
          <p className="staff-media-badges">
            {showRepostBadge && (
              <span
                className={`console-badge staff-media-badge-${item.is_repost_allowed ? 'yes' : 'no'}`}
                data-testid="repost-badge"
              >
                {repostBadgeText(item.is_repost_allowed)}
              </span>
            )}
            {item.hidden_from_wall && (
              <span className="console-badge console-badge-pending" data-testid="hidden-mark">
                {M.hiddenFromWall}
              </span>
            )}
          </p>
        )}
        <div className="staff-media-actions">
          <MediaFileButtons
            describedBy={headingId}
            gif={Boolean(item.gif_s3_url)}
            canShare={canShare}
            busy={(action) => busy === action}
            run={(action) => void run(action)}
          />
          {moderation && (
            <button
              type="button"
              className="btn btn-secondary"
              aria-describedby={headingId}
              aria-disabled={busy === 'wall' || undefined}
              onClick={() => {
                if (busy) return;
                // Hiding takes the photo off the wall for everyone: asked first. Showing is not.
                if (moderation === 'hide') setConfirmHide(true);
                else setOnWall();
              }}
            >
              {busy === 'wall'
                ? 'Saving…'
                : moderation === 'show'
                  ? 'Show on wall'
                  : 'Hide from wall'}
            </button>
          )}
        </div>
        <Toast status={status} ms={statusMs} at={staffMessageAt(item.id)} />
      </div>
      <ConfirmDialog
        open={confirmHide}
        title={M.hideConfirmTitle}
        message={M.hideConfirm}
        confirmLabel={M.hideConfirmLabel}
        danger
        onCancel={() => setConfirmHide(false)}
        onConfirm={() => {
          setConfirmHide(false);
          setOnWall();
        }}
      />
    </article>
  );
}

/** A placeholder card while a page loads (landscape and portrait in turn). */
export function StaffMediaCardSkeleton({ portrait }: { portrait: boolean }) {
  return (
    <div className="card media-card staff-media-card" aria-hidden="true">
      <MediaPreviewSkeleton portrait={portrait} className="staff-media-skeleton-stage" />
      <div className="staff-media-body">
        <span className="skeleton skeleton-line" style={{ width: '55%', height: 18 }} />
        <span className="skeleton skeleton-line" style={{ width: '75%' }} />
        <span className="skeleton skeleton-line" style={{ width: '40%' }} />
        <span className="skeleton staff-media-skeleton-button" />
      </div>
    </div>
  );
}
