import type { ReactNode } from 'react';

interface LineIconProps {
  /** Width and height in CSS pixels (the drawing is on a 24 × 24 grid). */
  size: number;
  strokeWidth?: number;
  className?: string;
  /** The icon's lines: paths, circles and rects on the 24 × 24 grid. */
  children: ReactNode;
}

/**
 * A line icon as inline SVG (no icon font), drawn in the text colour with round ends. Always
 * decorative: the button or text beside it names what it is for.
 */
export function LineIcon({ size, strokeWidth = 2, className, children }: LineIconProps) {
  return (
    <svg
      className={className}
      viewBox="0 0 24 24"
      width={size}
      height={size}
      fill="none"
      stroke="currentColor"
      strokeWidth={strokeWidth}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {children}
    </svg>
  );
}
