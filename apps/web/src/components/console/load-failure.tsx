import { Link } from 'react-router';
import { LoadErrorPanel } from '@/components/ui/list-states';
import { ApiError } from '@/lib/api-client';
import './console.css';

/**
 * Why a console screen's record did not load. A refusal (403) or a record that is not there for
 * this person (404: the server answers so for another organization's things too, so ids do not
 * leak) will not change on a retry, so neither offers Try again; anything else may.
 */
export type LoadFailureKind = 'forbidden' | 'not-found' | 'failed';

export function loadFailureKind(error: unknown): LoadFailureKind {
  if (error instanceof ApiError && error.status === 403) return 'forbidden';
  if (error instanceof ApiError && error.status === 404) return 'not-found';
  return 'failed';
}

/** True when retrying cannot help: the person may not see it, or it is not there for them. */
export function isRefusal(error: unknown): boolean {
  return loadFailureKind(error) !== 'failed';
}

export const LOAD_FAILURE_TEXT = {
  forbidden: 'You don’t have access to this page.',
  notFound: (thing: string) =>
    `We can’t find this ${thing}. It may have been deleted, or it isn’t one of yours.`,
} as const;

interface LoadFailureProps {
  /** The query's error. */
  error: unknown;
  /** What the screen shows ("organization", "device"), for the not-found text. */
  thing: string;
  /** The screen's own text for any other failure (spec: "Failed to load …"). */
  failedMessage: string;
  /** The failed query: Try again reloads it (other failures only). */
  query: { refetch: () => Promise<unknown>; isFetching: boolean };
  /** Where to go instead: the list the record belongs to, or the record itself. */
  back: { href: string; label: string };
}

/**
 * A console screen's load failure, the same on every screen: a refusal says plainly that the
 * person has no access (with the server's reason) or that the record is not there for them, and
 * offers only the way back; any other failure keeps the screen's message and Try again.
 */
export function LoadFailure({ error, thing, failedMessage, query, back }: LoadFailureProps) {
  const kind = loadFailureKind(error);
  const backLink = (
    <Link className="console-back-link" to={back.href}>
      ← {back.label}
    </Link>
  );
  if (kind === 'failed') {
    return (
      <>
        <LoadErrorPanel
          className="card panel-message panel-message-error console-panel"
          message={failedMessage}
          query={query}
        />
        <p className="console-back">{backLink}</p>
      </>
    );
  }
  const reason = kind === 'forbidden' && error instanceof ApiError ? error.message : null;
  return (
    <div className="card panel-message console-panel console-refusal" role="alert">
      <p className="console-refusal-title">
        {kind === 'forbidden' ? LOAD_FAILURE_TEXT.forbidden : LOAD_FAILURE_TEXT.notFound(thing)}
      </p>
      {reason && <p className="console-refusal-reason">{reason}</p>}
      <Link className="btn btn-secondary" to={back.href}>
        ← {back.label}
      </Link>
    </div>
  );
}
