import type { ReactNode } from 'react';
import { Link } from 'react-router';

/** A detail page's placeholder while the record loads. */
export function DetailSkeleton({ label }: { label: string }) {
  return (
    <div className="card software-detail" aria-busy="true">
      <span className="visually-hidden" role="status">
        {label}
      </span>
      <div aria-hidden="true" className="software-detail-skeleton">
        {Array.from({ length: 6 }, (_, index) => (
          <span
            key={index}
            className="skeleton skeleton-line"
            style={{ width: `${85 - index * 9}%` }}
          />
        ))}
      </div>
    </div>
  );
}

/** "← Back to …" under a detail that failed to load. */
export function BackLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <p className="software-back">
      <Link to={to}>← {children}</Link>
    </p>
  );
}
