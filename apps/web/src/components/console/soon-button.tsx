import './console.css';

/**
 * A button whose screen comes in a later release (View Media, View Statistics): shown, disabled,
 * with a visible "Coming soon" note, rather than a link that ends in "Page not found".
 */
export function SoonButton({ label }: { label: string }) {
  return (
    <button type="button" className="btn btn-secondary soon-button" disabled>
      {label}
      <span className="soon-note">Coming soon</span>
    </button>
  );
}
