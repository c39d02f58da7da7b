import { useCallback, useEffect, useState } from 'react';

/** Runs `measure` now and on every scroll/resize, at most once per animation frame. */
function useOnScroll(measure: () => void) {
  useEffect(() => {
    let frame = 0;
    const schedule = () => {
      if (frame) return;
      frame = window.requestAnimationFrame(() => {
        frame = 0;
        measure();
      });
    };
    measure();
    window.addEventListener('scroll', schedule, { passive: true });
    window.addEventListener('resize', schedule);
    return () => {
      window.removeEventListener('scroll', schedule);
      window.removeEventListener('resize', schedule);
      if (frame) window.cancelAnimationFrame(frame);
    };
  }, [measure]);
}

/** True once the window has scrolled more than `threshold` pixels. */
export function useScrolledPast(threshold: number): boolean {
  const [past, setPast] = useState(false);
  const measure = useCallback(() => setPast(window.scrollY > threshold), [threshold]);
  useOnScroll(measure);
  return past;
}

/**
 * The id of the section that crosses a reading line a third of the way down the viewport
 * (or the last section once the page is scrolled to the bottom). `ids` must be stable.
 */
export function useActiveSection(ids: readonly string[]): string | null {
  const [active, setActive] = useState<string | null>(null);
  const measure = useCallback(() => {
    const line = window.innerHeight * 0.33;
    const atBottom =
      window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 2;
    let current: string | null = null;
    for (const id of ids) {
      const element = document.getElementById(id);
      if (!element) continue;
      if (element.getBoundingClientRect().top <= line) current = id;
    }
    if (atBottom && window.scrollY > 0) current = ids[ids.length - 1] ?? current;
    setActive(current);
  }, [ids]);
  useOnScroll(measure);
  return active;
}
