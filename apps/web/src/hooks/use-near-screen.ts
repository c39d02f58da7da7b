import { useEffect, useState, type RefObject } from 'react';

/** Browsers without IntersectionObserver (and the server) get no observer. */
const observable = typeof IntersectionObserver !== 'undefined';

/**
 * Whether the element is on the screen or within `margin` of it (an IntersectionObserver with
 * that root margin), following scrolls. False until the first observation; true at once where
 * the browser has no IntersectionObserver, so content still appears there.
 */
export function useNearScreen(ref: RefObject<Element | null>, margin = '200px'): boolean {
  const [near, setNear] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element || !observable) return;
    const observer = new IntersectionObserver(
      (entries) => {
        const entry = entries.at(-1);
        if (entry) setNear(entry.isIntersecting);
      },
      { rootMargin: margin },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref, margin]);
  return near || (!observable && typeof window !== 'undefined');
}
