import { Link } from 'react-router';
import { paths } from '@/config/paths';

/** The Flashbooth camera mark (same drawing as the favicon). */
export function BrandMark({ size = 32 }: { size?: number }) {
  return (
    <svg
      viewBox="0 0 64 64"
      width={size}
      height={size}
      aria-hidden="true"
      focusable="false"
      className="brand-mark"
    >
      <rect width="64" height="64" rx="14" fill="#16121f" />
      <circle cx="32" cy="34" r="14" fill="none" stroke="#ffb547" strokeWidth="6" />
      <rect x="20" y="12" width="24" height="8" rx="3" fill="#ff5a7a" />
      <circle cx="32" cy="34" r="5" fill="#ff5a7a" />
    </svg>
  );
}

/** Logo linking home; the wordmark can be hidden where space is short (the link keeps its name). */
export function BrandLogo({
  size = 32,
  showWordmark = true,
  className,
}: {
  size?: number;
  showWordmark?: boolean;
  className?: string;
}) {
  return (
    <Link
      to={paths.home.getHref()}
      className={`brand-logo ${className ?? ''}`}
      aria-label="Flashbooth home"
    >
      <BrandMark size={size} />
      {showWordmark && (
        <span className="brand-wordmark" aria-hidden="true">
          Flashbooth
        </span>
      )}
    </Link>
  );
}
