import type { ReactNode } from 'react';

/** A list's placeholders while it loads, announced once to screen readers as `label`. */
export function ListLoading({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div aria-busy="true">
      <span className="visually-hidden" role="status">
        {label}
      </span>
      {children}
    </div>
  );
}

interface LoadErrorPanelProps {
  /** The panel's classes (a card, a banner). */
  className: string;
  message: string;
  /** The query that failed: Try again reloads it, and is disabled while it loads. */
  query: { refetch: () => Promise<unknown>; isFetching: boolean };
  buttonClassName?: string;
}

/** Why something did not load, with Try again. */
export function LoadErrorPanel({
  className,
  message,
  query,
  buttonClassName = 'btn btn-secondary',
}: LoadErrorPanelProps) {
  return (
    <div className={className} role="alert">
      <p>{message}</p>
      <button
        type="button"
        className={buttonClassName}
        onClick={() => void query.refetch()}
        disabled={query.isFetching}
      >
        Try again
      </button>
    </div>
  );
}
