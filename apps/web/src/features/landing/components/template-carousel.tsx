import { useEffect, useId, useState } from 'react';
import { CAROUSEL_INTERVAL_MS, TEMPLATE_SAMPLES } from '../content';
import { useReducedMotion } from '@/hooks/use-media-query';
import { usePageVisible } from '../hooks/use-page-visible';
import { ChevronIcon, PauseIcon, PlayIcon } from './icons';

/**
 * Sample print templates, advancing every 3.5 s. Auto-advance stops while the tab is hidden,
 * while the pointer rests on the picture, when the visitor pauses it, and by default for
 * people who prefer reduced motion (they can still press Play).
 */
export function TemplateCarousel() {
  const count = TEMPLATE_SAMPLES.length;
  const [index, setIndex] = useState(0);
  const [userPlaying, setUserPlaying] = useState<boolean | null>(null);
  const [hovered, setHovered] = useState(false);
  const reducedMotion = useReducedMotion();
  const pageVisible = usePageVisible();
  const slidesId = useId();

  const playing = userPlaying ?? !reducedMotion;
  const advancing = playing && pageVisible && !hovered;

  useEffect(() => {
    if (!advancing) return;
    const timer = window.setTimeout(() => setIndex((index + 1) % count), CAROUSEL_INTERVAL_MS);
    return () => window.clearTimeout(timer);
  }, [advancing, index, count]);

  const go = (next: number) => setIndex((next + count) % count);
  const current = TEMPLATE_SAMPLES[index]!;

  return (
    <section
      className="lp-carousel"
      aria-roledescription="carousel"
      aria-label="Sample print templates"
    >
      <div
        className="lp-carousel-stage"
        id={slidesId}
        aria-live={advancing ? 'off' : 'polite'}
        onMouseEnter={() => setHovered(true)}
        onMouseLeave={() => setHovered(false)}
      >
        {TEMPLATE_SAMPLES.map((sample, i) => {
          const active = i === index;
          return (
            <figure
              key={sample.src}
              className={active ? 'lp-slide is-active' : 'lp-slide'}
              role="group"
              aria-roledescription="slide"
              aria-label={`${i + 1} of ${count}: ${sample.title}`}
              aria-hidden={!active}
            >
              <img
                src={sample.src}
                alt={sample.alt}
                width={sample.width}
                height={sample.height}
                loading="lazy"
                decoding="async"
              />
            </figure>
          );
        })}
      </div>

      <div className="lp-carousel-caption">
        <p className="lp-carousel-title">{current.title}</p>
        <p className="lp-carousel-text">{current.caption}</p>
      </div>

      <div className="lp-carousel-controls">
        <button
          type="button"
          className="lp-icon-btn"
          onClick={() => setUserPlaying(!playing)}
          aria-label={playing ? 'Pause slideshow' : 'Play slideshow'}
        >
          {playing ? <PauseIcon /> : <PlayIcon />}
        </button>
        <button
          type="button"
          className="lp-icon-btn"
          onClick={() => go(index - 1)}
          aria-controls={slidesId}
          aria-label="Previous template"
        >
          <ChevronIcon direction="left" />
        </button>
        <div className="lp-dots">
          {TEMPLATE_SAMPLES.map((sample, i) => (
            <button
              key={sample.src}
              type="button"
              className={i === index ? 'lp-dot is-active' : 'lp-dot'}
              onClick={() => go(i)}
              aria-controls={slidesId}
              aria-label={`Show template ${i + 1} of ${count}: ${sample.title}`}
              aria-current={i === index ? 'true' : undefined}
            />
          ))}
        </div>
        <button
          type="button"
          className="lp-icon-btn"
          onClick={() => go(index + 1)}
          aria-controls={slidesId}
          aria-label="Next template"
        >
          <ChevronIcon direction="right" />
        </button>
      </div>
    </section>
  );
}
