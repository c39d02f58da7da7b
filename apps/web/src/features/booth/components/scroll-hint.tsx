import { useEffect, useRef, useState } from 'react';

/** Room for the fixed bottom navigation: content behind it does not count as seen. */
const BOTTOM_OFFSET_PX = 72;

/**
 * A subtle "Scroll for more templates" pill while the end of the list is still below the fold.
 * It is decorative (screen readers get the list and its items), so it ignores pointer events
 * and never covers a tap on a card.
 */
export function ScrollHint({ hidden = false }: { hidden?: boolean }) {
  const sentinelRef = useRef<HTMLDivElement>(null);
  const [moreBelow, setMoreBelow] = useState(false);

  useEffect(() => {
    const sentinel = sentinelRef.current;
    if (!sentinel || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      ([entry]) => {
        if (!entry) return;
        setMoreBelow(!entry.isIntersecting && entry.boundingClientRect.top > 0);
      },
      { rootMargin: `0px 0px -${BOTTOM_OFFSET_PX}px 0px` },
    );
    observer.observe(sentinel);
    return () => observer.disconnect();
  }, []);

  return (
    <>
      <div ref={sentinelRef} className="booth-scroll-sentinel" />
      {moreBelow && !hidden && (
        <div className="booth-scroll-hint" aria-hidden="true" data-testid="scroll-hint">
          Scroll for more templates <span className="booth-scroll-arrow">↓</span>
        </div>
      )}
    </>
  );
}
