import './console.css';

/** A card's placeholder while a console list loads: a title line and two lines of details. */
export function CardSkeleton() {
  return (
    <div className="card console-card" aria-hidden="true">
      <span className="skeleton skeleton-line" style={{ width: '60%', height: 18 }} />
      <span className="skeleton skeleton-line" style={{ width: '80%' }} />
      <span className="skeleton skeleton-line" style={{ width: '50%' }} />
    </div>
  );
}
