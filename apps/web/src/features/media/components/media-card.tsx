import type { Media } from '@flashbooth/contracts';
import type { QueryKey } from '@tanstack/react-query';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { useToggleRepost } from '@/api/media/update-repost-allowed';
import { formatUtcTimestamp } from '@/lib/format-date';
import { type MediaFileAction, MediaFileButtons } from '@/components/media/media-file-buttons';
import { MediaPreview, MediaPreviewSkeleton } from '@/components/media/media-preview';
import type { Status, StatusKind } from '@/components/ui/status-message';
import { CharacterCounter } from '@/components/ui/character-counter';
import { Toast } from '@/components/ui/toast';
import { characterLimit } from '@/lib/character-limit';
import { useSaveCaption, useSetPublic } from '../api/update-media';
import {
  MEDIA_CAPTION_MAX,
  MEDIA_HIDDEN_FROM_WALL,
  MEDIA_SCREEN_MESSAGES as M,
  captionChange,
  messageAt,
} from '../media-model';

/** What the card's file buttons ask of the screen (the switches and caption are the card's). */

interface MediaCardProps {
  media: Media;
  /** Share is offered only on mobile user agents. */
  canShare: boolean;
  /** The My Media page the card is on: its switches change there at once (the hooks'). */
  pageKey: QueryKey;
  /** Resolves when the file action is over (the screen shows its message). */
  onFileAction: (media: Media, action: MediaFileAction) => Promise<void>;
  /** The screen's message, shown by the card where `at` says (messageAt). */
  notify: (kind: StatusKind, text: string, at: string) => void;
  /** The screen's message: the card shows it when it answers one of the card's controls. */
  status?: Status | null;
  statusMs?: number;
}

function Switch({
  label,
  checked,
  busy,
  describedBy,
  onToggle,
}: {
  label: string;
  checked: boolean;
  busy: boolean;
  /** The card's heading, so a screen reader says which photo the switch belongs to. */
  describedBy: string;
  onToggle: () => void;
}) {
  const id = useId();
  return (
    <div className="media-switch-row">
      {/* A real label: it names the switch, and tapping it flips the switch too. */}
      <label htmlFor={id} className="media-switch-label">
        {label}
      </label>
      <button
        id={id}
        type="button"
        role="switch"
        className="media-switch"
        aria-checked={checked}
        aria-describedby={describedBy}
        aria-busy={busy || undefined}
        // Not `disabled`: a disabled button drops the keyboard focus in the middle of a toggle.
        aria-disabled={busy || undefined}
        onClick={() => {
          if (!busy) onToggle();
        }}
      >
        <span className="media-switch-thumb" aria-hidden="true" />
      </button>
    </div>
  );
}

function CaptionBox({
  media,
  onSave,
  saving,
  message,
}: {
  media: Media;
  onSave: (caption: string) => void;
  saving: boolean;
  /** The caption's message, under the box. */
  message: ReactNode;
}) {
  const inputId = useId();
  const counterId = useId();
  const [draft, setDraft] = useState(media.caption ?? '');
  // Follow the saved caption when it changes (after a save or a refetch).
  const [shown, setShown] = useState(media.caption);
  if (shown !== media.caption) {
    setShown(media.caption);
    setDraft(media.caption ?? '');
  }

  // Over the limit the box keeps every character typed or pasted (no silent cut) and Save is
  // refused, with the server's message under the box.
  const limit = characterLimit(draft, MEDIA_CAPTION_MAX);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!saving && !limit.over) onSave(draft);
  };

  return (
    <form className="media-caption" onSubmit={submit}>
      <label htmlFor={inputId} className="media-caption-label">
        Caption
      </label>
      <div className="media-caption-row">
        <input
          id={inputId}
          className="input media-caption-input"
          type="text"
          placeholder="Add a caption"
          enterKeyHint="done"
          aria-describedby={counterId}
          aria-invalid={limit.over || undefined}
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
        />
        <button
          type="submit"
          className="btn btn-secondary media-caption-save"
          aria-disabled={saving || limit.over || undefined}
        >
          {saving ? 'Saving…' : 'Save'}
        </button>
      </div>
      <CharacterCounter id={counterId} limit={limit} tooLong={M.captionTooLong} />
      {message}
    </form>
  );
}

/** One of the visitor's media: preview, where and when, caption, actions and the two toggles. */
export function MediaCard({
  media,
  canShare,
  pageKey,
  onFileAction,
  notify,
  status = null,
  statusMs = 0,
}: MediaCardProps) {
  const headingId = useId();
  const hiddenNoteId = useId();
  // Each message shows under the control it answers: the caption's, or the card's buttons.
  const sayOnCard = (kind: StatusKind, text: string) =>
    notify(kind, text, messageAt.card(media.id));
  const sayOnCaption = (kind: StatusKind, text: string) =>
    notify(kind, text, messageAt.caption(media.id));
  // The switches show their change at once and revert when the call fails (the hooks').
  const setPublic = useSetPublic(pageKey);
  const toggleRepost = useToggleRepost(pageKey);
  const saveCaption = useSaveCaption(pageKey);
  const togglePublic = () =>
    setPublic.mutate(media, { onError: () => sayOnCard('error', M.publicFailed) });
  const toggleRepostAllowed = () =>
    toggleRepost.mutate(media, { onError: () => sayOnCard('error', M.repostFailed) });
  const save = (draft: string) => {
    const change = captionChange(media.caption, draft);
    if (change.kind === 'unchanged') {
      sayOnCaption('info', M.captionUnchanged);
      return;
    }
    saveCaption.mutate(
      { id: media.id, caption: change.caption },
      {
        onSuccess: (saved) =>
          sayOnCaption('success', saved.caption === null ? M.captionRemoved : M.captionSaved),
        onError: () => sayOnCaption('error', M.captionFailed),
      },
    );
  };

  const [busy, setBusy] = useState<ReadonlySet<MediaFileAction>>(new Set());
  const run = async (action: MediaFileAction) => {
    // One at a time per action (the buttons stay focusable while busy, so clicks still arrive).
    if (busy.has(action)) return;
    setBusy((current) => new Set(current).add(action));
    try {
      await onFileAction(media, action);
    } finally {
      setBusy((current) => {
        const next = new Set(current);
        next.delete(action);
        return next;
      });
    }
  };
  const where = [media.org_name, media.device_name].filter(Boolean).join(' · ') || 'Photobooth';

  return (
    <article
      className="card media-card"
      data-testid="media-card"
      data-media-id={media.id}
      aria-labelledby={headingId}
    >
      <MediaPreview media={media} where={where} />
      <div className="media-card-body">
        <div id={headingId}>
          <h2 className="media-card-where">{where}</h2>
          <p className="media-card-when">
            <time dateTime={`${media.created_at}Z`}>{formatUtcTimestamp(media.created_at)}</time>
            <span className="visually-hidden"> UTC</span>
          </p>
        </div>

        {media.is_public && (
          <CaptionBox
            media={media}
            onSave={save}
            saving={saveCaption.isPending}
            message={<Toast status={status} ms={statusMs} at={messageAt.caption(media.id)} />}
          />
        )}

        {media.is_uploaded && (
          <div className="media-card-actions">
            <MediaFileButtons
              describedBy={headingId}
              gif={Boolean(media.gif_s3_url)}
              canShare={canShare}
              busy={(action) => busy.has(action)}
              run={(action) => void run(action)}
              className="media-action"
            />
          </div>
        )}

        <div className="media-card-switches">
          <Switch
            label="Public Wall"
            checked={media.is_public}
            busy={setPublic.isPending}
            describedBy={media.hidden_from_wall ? `${headingId} ${hiddenNoteId}` : headingId}
            onToggle={togglePublic}
          />
          {media.hidden_from_wall && (
            // Moderation (beyond the spec): the venue took it off the wall; the owner keeps it.
            <p id={hiddenNoteId} className="media-hidden-note" data-testid="media-hidden-note">
              {MEDIA_HIDDEN_FROM_WALL}
            </p>
          )}
          <Switch
            label="Allow Repost"
            checked={media.is_repost_allowed}
            busy={toggleRepost.isPending}
            describedBy={headingId}
            onToggle={toggleRepostAllowed}
          />
        </div>
        <Toast status={status} ms={statusMs} at={messageAt.card(media.id)} />
      </div>
    </article>
  );
}

/** A placeholder card while a page loads. */
export function MediaCardSkeleton({ portrait = false }: { portrait?: boolean }) {
  return (
    <div
      className="card media-card media-card-skeleton"
      data-testid="media-skeleton"
      aria-hidden="true"
    >
      <MediaPreviewSkeleton portrait={portrait} />
      <div className="media-card-body">
        <div className="skeleton media-skeleton-line" style={{ width: '65%' }} />
        <div className="skeleton media-skeleton-line" style={{ width: '40%' }} />
        <div className="skeleton media-skeleton-button" />
      </div>
    </div>
  );
}
