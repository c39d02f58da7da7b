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

/** A list's empty state: a centred card with the screen's text (and a hint or a link). */
export function EmptyPanel({ className, children }: { className?: string; children: ReactNode }) {
  return (
    <div className={`card panel-message ${className ?? ''}`} role="status">
      {children}
    </div>
  );
}

export interface ListBodyProps<T> {
  /** The list's query. */
  query: {
    isPending: boolean;
    isError: boolean;
    isFetching: boolean;
  };
  /** The page on screen (empty when the load failed: see pagedView). */
  items: readonly T[];
  /** The list's classes ("card-grid" plus the screen's columns); the skeletons use them too. */
  listClassName: string;
  /** Names the list for screen readers. */
  listLabel: string;
  itemKey: (item: T) => string | number;
  renderItem: (item: T) => ReactNode;
  /** Announced while the skeleton cards show. */
  loadingLabel: string;
  skeletonCount: number;
  renderSkeleton: (index: number) => ReactNode;
  empty: ReactNode;
  /** Shown when the load failed; without it a failed list shows `empty` (its message is a toast). */
  error?: ReactNode;
}

/**
 * A list's body in its four states: skeleton cards while the first load runs, the error panel,
 * the empty state, or the cards (dimmed while a newer page loads).
 */
export function ListBody<T>({
  query,
  items,
  listClassName,
  listLabel,
  itemKey,
  renderItem,
  loadingLabel,
  skeletonCount,
  renderSkeleton,
  empty,
  error,
}: ListBodyProps<T>) {
  if (query.isPending) {
    return (
      <ListLoading label={loadingLabel}>
        <ul className={listClassName} aria-hidden="true">
          {Array.from({ length: skeletonCount }, (_, index) => (
            <li key={index} className="card-grid-item">
              {renderSkeleton(index)}
            </li>
          ))}
        </ul>
      </ListLoading>
    );
  }
  if (query.isError && error) return <>{error}</>;
  if (items.length === 0) return <>{empty}</>;
  return (
    <ul className={listClassName} aria-label={listLabel} aria-busy={query.isFetching || undefined}>
      {items.map((item) => (
        <li key={itemKey(item)} className="card-grid-item">
          {renderItem(item)}
        </li>
      ))}
    </ul>
  );
}
