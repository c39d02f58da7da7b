import './console.css';

interface CardSkeletonProps {
  /** The card's classes after `card console-card` (the list's own card). */
  className?: string;
  /** The title line's width (percent). */
  title?: number;
  /** The detail lines' widths (percent). */
  lines?: readonly number[];
}

/** A card's placeholder while a console list loads: a title line and lines of details. */
export function CardSkeleton({ className, title = 60, lines = [80, 50] }: CardSkeletonProps) {
  return (
    <div
      className={className ? `card console-card ${className}` : 'card console-card'}
      aria-hidden="true"
    >
      <span className="skeleton skeleton-line" style={{ width: `${title}%`, height: 18 }} />
      {lines.map((width, index) => (
        <span key={index} className="skeleton skeleton-line" style={{ width: `${width}%` }} />
      ))}
    </div>
  );
}
