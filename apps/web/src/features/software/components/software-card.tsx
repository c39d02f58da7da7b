import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { CardSkeleton } from '@/components/console/card-skeleton';
import { formatUtcTimestamp } from '@/lib/format-date';
import { yesNo } from '../software-model';

interface SoftwareCardProps {
  href: string;
  testId: string;
  title: ReactNode;
  /** The title's classes after `console-card-title`. */
  titleClassName?: string;
  /** The description or notes, cut; `muted` when it is the "(No …)" placeholder. */
  text: string;
  muted: boolean;
  /** The record's own fact, before Created. */
  fact: { label: string; value: ReactNode };
  createdAt: string;
}

/** A software list's card: title, text, one fact and Created; the whole card opens the detail. */
export function SoftwareCard({
  href,
  testId,
  title,
  titleClassName,
  text,
  muted,
  fact,
  createdAt,
}: SoftwareCardProps) {
  return (
    <Link to={href} className="card console-card software-card" data-testid={testId}>
      <span
        className={titleClassName ? `console-card-title ${titleClassName}` : 'console-card-title'}
      >
        {title}
      </span>
      <span className={muted ? 'software-card-text muted' : 'software-card-text'}>{text}</span>
      <dl className="console-facts software-card-facts">
        <dt>{fact.label}</dt>
        <dd>{fact.value}</dd>
        <dt>Created</dt>
        <dd>{formatUtcTimestamp(createdAt)}</dd>
      </dl>
    </Link>
  );
}

/** File Uploaded: a Yes or No badge. */
export function UploadedBadge({ uploaded }: { uploaded: boolean }) {
  return (
    <span className={`console-badge ${uploaded ? 'software-badge-yes' : 'software-badge-no'}`}>
      {yesNo(uploaded)}
    </span>
  );
}

export function SoftwareCardSkeleton() {
  return <CardSkeleton className="software-card" title={55} lines={[90, 70, 45]} />;
}
