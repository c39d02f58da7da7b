import type { Comment } from '@flashbooth/contracts';
import {
  COMMENTS_PAGE_SIZE,
  commentEditOutcome,
  isPostableComment,
} from '@flashbooth/contracts/rules';
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { CharacterCounter } from '@/components/ui/character-counter';
import { Pagination } from '@/components/ui/pagination';
import { pageCount } from '@/components/ui/pagination-model';
import type { StatusKind } from '@/components/ui/status-message';
import { characterLimit } from '@/lib/character-limit';
import { formatUtcTimestamp } from '@/lib/format-date';
import { useAddComment } from '../api/add-comment';
import { useDeleteComment } from '../api/delete-comment';
import { useComments } from '../api/get-comments';
import { useUpdateComment } from '../api/update-comment';
import { COMMENT_MAX_LENGTH, WALL_MESSAGES, displayName, pageAfterDelete } from '../wall-model';

export type Notify = (kind: StatusKind, text: string) => void;

interface CommentItemProps {
  comment: Comment;
  mediaId: number;
  notify: Notify;
  /** Deleted: runs before the comments reload (the message, the page, the focus). */
  onDeleted: () => void;
}

/** One comment: author, time and text; its author may edit it in place or delete it. */
function CommentItem({ comment, mediaId, notify, onDeleted }: CommentItemProps) {
  const inputId = useId();
  const counterId = useId();
  const [editing, setEditing] = useState(false);
  const [draft, setDraft] = useState(comment.comment_text);
  // Over the limit the text is kept as typed (no silent cut) and Save refused, with the message.
  const limit = characterLimit(draft, COMMENT_MAX_LENGTH);
  const saving = useUpdateComment(mediaId, {
    beforeReload: () => notify('success', WALL_MESSAGES.commentUpdated),
  });
  const deleting = useDeleteComment(mediaId, { beforeReload: onDeleted });
  // Each lasts until the comments have reloaded.
  const busy = saving.isPending ? 'save' : deleting.isPending ? 'delete' : null;
  const editButton = useRef<HTMLButtonElement>(null);

  const close = () => {
    setEditing(false);
    // Back to where the edit started, so a keyboard user keeps their place.
    requestAnimationFrame(() => editButton.current?.focus());
  };

  /** Spec: unchanged or empty text just cancels; otherwise save the trimmed text. */
  const save = () => {
    if (busy || limit.over) return;
    const outcome = commentEditOutcome(comment.comment_text, draft);
    if (outcome.kind === 'cancel') {
      close();
      return;
    }
    // A failed save keeps the editor open.
    saving.mutate(
      { commentId: comment.id, text: outcome.text },
      { onSuccess: close, onError: () => notify('error', WALL_MESSAGES.commentUpdateFailed) },
    );
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Escape') {
      // Esc cancels the edit only, not a dialog or anything around it.
      event.preventDefault();
      event.stopPropagation();
      close();
    }
  };

  const remove = () => {
    if (busy) return;
    deleting.mutate(comment.id, {
      onError: () => notify('error', WALL_MESSAGES.commentDeleteFailed),
    });
  };

  return (
    <li className="wall-comment" data-testid="wall-comment" data-comment-id={comment.id}>
      <p className="wall-comment-meta">
        <span className="wall-comment-author">{displayName(comment.user_name)}</span>
        <time className="wall-comment-time" dateTime={`${comment.created_at}Z`}>
          {formatUtcTimestamp(comment.created_at)}
        </time>
      </p>
      {editing ? (
        <form
          className="wall-comment-edit"
          onSubmit={(event) => {
            event.preventDefault();
            save();
          }}
        >
          <label htmlFor={inputId} className="visually-hidden">
            Edit comment
          </label>
          <input
            id={inputId}
            className="input wall-comment-input"
            type="text"
            value={draft}
            enterKeyHint="done"
            autoComplete="off"
            autoFocus
            aria-describedby={`${inputId}-hint ${counterId}`}
            aria-invalid={limit.over || undefined}
            onChange={(event) => setDraft(event.target.value)}
            onKeyDown={onKeyDown}
          />
          <span id={`${inputId}-hint`} className="visually-hidden">
            Enter saves, Escape cancels.
          </span>
          <CharacterCounter id={counterId} limit={limit} tooLong={WALL_MESSAGES.commentTooLong} />
          <div className="wall-comment-buttons">
            <button
              type="submit"
              className="btn btn-primary wall-comment-button"
              aria-disabled={busy !== null || limit.over || undefined}
            >
              {busy === 'save' ? 'Saving…' : 'Save'}
            </button>
            <button type="button" className="btn btn-secondary wall-comment-button" onClick={close}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <>
          <p className="wall-comment-text">{comment.comment_text}</p>
          {comment.can_edit && (
            <div className="wall-comment-buttons">
              <button
                ref={editButton}
                type="button"
                className="btn-link wall-comment-action"
                onClick={() => {
                  setDraft(comment.comment_text);
                  setEditing(true);
                }}
              >
                Edit
              </button>
              <button
                type="button"
                className="btn-link wall-comment-action wall-comment-delete"
                aria-disabled={busy !== null || undefined}
                onClick={remove}
              >
                {busy === 'delete' ? 'Deleting…' : 'Delete'}
              </button>
            </div>
          )}
        </>
      )}
    </li>
  );
}

/** The new comment's form: Post is enabled only while the trimmed text is not empty. */
function NewComment({
  mediaId,
  notify,
  onPosted,
  inputRef,
  signedIn,
  onSignInToPost,
}: {
  mediaId: number;
  notify: Notify;
  /** Posted: runs before the comments reload (back to page 1). */
  onPosted: () => void;
  inputRef: React.RefObject<HTMLInputElement | null>;
  /** Signed out, Post first asks to sign in; the comment is posted on the way back. */
  signedIn: boolean;
  onSignInToPost?: (text: string) => void;
}) {
  const inputId = useId();
  const hintId = useId();
  const counterId = useId();
  const [text, setText] = useState('');
  // Over the limit the text is kept as typed or pasted (no silent cut); Post stays off.
  const limit = characterLimit(text, COMMENT_MAX_LENGTH);
  // Lasts until the comments have reloaded.
  const adding = useAddComment({ beforeReload: onPosted });
  const posting = adding.isPending;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (posting || !isPostableComment(text)) return;
    if (!signedIn) {
      onSignInToPost?.(text.trim());
      return;
    }
    adding.mutate(
      { mediaId, text: text.trim() },
      {
        // Said once the comment is there, so the message (under the comment box) is placed,
        // and scrolled into sight, after the list grew.
        onSuccess: () => {
          notify('success', WALL_MESSAGES.commentAdded);
          setText('');
        },
        onError: () => notify('error', WALL_MESSAGES.commentAddFailed),
      },
    );
  };
  return (
    <form className="wall-comment-new" onSubmit={submit}>
      <label htmlFor={inputId} className="visually-hidden">
        Add a comment
      </label>
      <input
        ref={inputRef}
        id={inputId}
        className="input wall-comment-input"
        type="text"
        placeholder="Add a comment…"
        value={text}
        enterKeyHint="send"
        autoComplete="off"
        aria-describedby={signedIn ? counterId : `${counterId} ${hintId}`}
        aria-invalid={limit.over || undefined}
        onChange={(event) => setText(event.target.value)}
      />
      <button
        type="submit"
        className="btn btn-primary wall-comment-post"
        disabled={posting || !isPostableComment(text)}
      >
        {posting ? 'Posting…' : 'Post'}
      </button>
      <CharacterCounter id={counterId} limit={limit} tooLong={WALL_MESSAGES.commentTooLong} />
      {!signedIn && (
        <p id={hintId} className="wall-comments-note wall-comment-sign-in-hint">
          Post asks you to sign in first; your comment is posted when you are back.
        </p>
      )}
    </form>
  );
}

interface CommentsPanelProps {
  id: string;
  mediaId: number;
  notify: Notify;
  /** Signed out: comments are read without a session and Post asks to sign in. */
  signedIn?: boolean;
  /** A signed-out visitor posts `text`: keep it and go to sign in. */
  onSignInToPost?: (text: string) => void;
}

/**
 * An item's comments (spec: opening loads page 1, 5 a page; a failed load empties the list with
 * "Failed to load comments."). Mounted when the panel opens, so every opening starts on page 1.
 */
export function CommentsPanel({
  id,
  mediaId,
  notify,
  signedIn = true,
  onSignInToPost,
}: CommentsPanelProps) {
  const [page, setPage] = useState(1);
  const comments = useComments(mediaId, page, signedIn);
  const newCommentInput = useRef<HTMLInputElement>(null);

  const failed = comments.isError;
  const failedAt = failed ? comments.errorUpdatedAt : 0;
  if (failed && page !== 1) setPage(1);
  useEffect(() => {
    if (failedAt) notify('error', WALL_MESSAGES.commentsLoadFailed);
  }, [failedAt, notify]);

  const items = failed ? [] : (comments.data?.items ?? []);
  const totalPages = failed ? 1 : pageCount(comments.data?.total_count ?? 0, COMMENTS_PAGE_SIZE);
  const onDeleted = () => {
    notify('success', WALL_MESSAGES.commentDeleted);
    setPage(pageAfterDelete(page, items.length));
    newCommentInput.current?.focus();
  };

  return (
    <section id={id} className="wall-comments" aria-label="Comments">
      {comments.isPending ? (
        <p className="wall-comments-note" role="status">
          <span className="spinner spinner-sm" aria-hidden="true" /> Loading comments…
        </p>
      ) : failed ? null : items.length === 0 ? (
        <p className="wall-comments-note">No comments yet.</p>
      ) : (
        <ol
          className="wall-comment-list"
          aria-label="Comments"
          aria-busy={comments.isFetching || undefined}
        >
          {items.map((comment) => (
            <CommentItem
              key={comment.id}
              comment={comment}
              mediaId={mediaId}
              notify={notify}
              onDeleted={onDeleted}
            />
          ))}
        </ol>
      )}
      <Pagination
        page={page}
        totalPages={totalPages}
        onChange={setPage}
        label="Comment pages"
        disabled={comments.isFetching}
      />
      <NewComment
        mediaId={mediaId}
        notify={notify}
        // Newest first: the new comment is at the top of page 1.
        onPosted={() => setPage(1)}
        inputRef={newCommentInput}
        signedIn={signedIn}
        onSignInToPost={onSignInToPost}
      />
    </section>
  );
}
