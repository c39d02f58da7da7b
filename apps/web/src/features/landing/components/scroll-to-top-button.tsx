import { SCROLL_TOP_THRESHOLD_PX } from '../content';
import { useReducedMotion } from '@/hooks/use-media-query';
import { useScrolledPast } from '../hooks/use-scroll-position';
import { ArrowUpIcon } from './icons';

/** Appears after 400px of scroll (spec); sits above the bottom navigation when it is shown. */
export function ScrollToTopButton({ aboveNav }: { aboveNav: boolean }) {
  const visible = useScrolledPast(SCROLL_TOP_THRESHOLD_PX);
  const reducedMotion = useReducedMotion();
  if (!visible) return null;
  return (
    <button
      type="button"
      className={aboveNav ? 'lp-scroll-top lp-scroll-top-above-nav' : 'lp-scroll-top'}
      aria-label="Scroll to top"
      onClick={() => window.scrollTo({ top: 0, behavior: reducedMotion ? 'auto' : 'smooth' })}
    >
      <ArrowUpIcon />
    </button>
  );
}
