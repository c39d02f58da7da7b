import { useEffect, useRef, useState } from 'react';
import { useNearScreen } from '@/hooks/use-near-screen';
import { useReducedMotion } from '@/hooks/use-media-query';
import { motionPlan, type MotionChoice } from './motion-player-model';

/** How far from the screen a card's clip starts to load, so it plays as it scrolls in. */
const NEAR_MARGIN = '300px 0px';

/**
 * React sets `muted` as a property only; the attribute (and `defaultMuted`) is what some mobile
 * browsers read before they allow a video to play on its own.
 */
function keepMuted(video: HTMLVideoElement | null) {
  if (!video) return;
  video.defaultMuted = true;
  video.muted = true;
  video.setAttribute('muted', '');
}

interface MotionPlayerProps {
  /** The MP4. */
  src: string;
  /** The still shown first (and only, for reduced motion until Play). */
  poster: string | null;
  /** The video's accessible name. */
  label: string;
  onError?: () => void;
}

/**
 * A media card's motion item: a muted, looping, inline video with its poster shown first. Nothing
 * is fetched until the card comes near the screen (`preload="none"` and no source before), it
 * pauses when scrolled away, and people who asked for reduced motion see the still poster with a
 * Play button. The Pause/Play button lets anyone stop the movement (WCAG 2.2.2).
 */
export function MotionPlayer({ src, poster, label, onError }: MotionPlayerProps) {
  const ref = useRef<HTMLVideoElement | null>(null);
  const near = useNearScreen(ref, NEAR_MARGIN);
  const visible = useNearScreen(ref, '0px');
  const reduced = useReducedMotion();
  const [choice, setChoice] = useState<MotionChoice>('none');
  const [loaded, setLoaded] = useState(false);
  const [playing, setPlaying] = useState(false);
  const plan = motionPlan({ near, visible, reduced, choice, loaded });
  if (plan.load && !loaded) setLoaded(true);

  // What the latest render decided, for the play event (autoplay may start a clip loaded ahead
  // while it is still below the screen; it waits there until it scrolls in).
  const shouldPlay = useRef(plan.play);
  useEffect(() => {
    shouldPlay.current = plan.play;
    const video = ref.current;
    if (!video || !plan.load) return;
    if (plan.play) {
      // Refused autoplay (a browser's saving mode) leaves the poster and the Play button.
      video.play().catch(() => undefined);
    } else if (!video.paused) {
      video.pause();
    }
  }, [plan.load, plan.play, src]);

  const toggle = () => {
    const video = ref.current;
    const paused = !video || video.paused;
    setChoice(paused ? 'play' : 'pause');
    // The button is on the screen: a Play press plays now, before the next render says so.
    shouldPlay.current = paused;
    // Straight from the press (a user gesture) where the clip is there already.
    if (video && plan.load) {
      if (paused) video.play().catch(() => undefined);
      else video.pause();
    }
  };
  const startButton = !playing && reduced && choice !== 'play';

  return (
    <>
      <video
        ref={(video) => {
          ref.current = video;
          keepMuted(video);
        }}
        className="motion-video"
        src={plan.load ? src : undefined}
        poster={poster ?? undefined}
        preload={plan.load ? 'auto' : 'none'}
        autoPlay={!reduced}
        muted
        loop
        playsInline
        aria-label={label}
        data-testid="motion-video"
        onPlay={(event) => {
          if (shouldPlay.current) setPlaying(true);
          else event.currentTarget.pause();
        }}
        onPause={() => setPlaying(false)}
        onError={onError}
      />
      <button
        type="button"
        className={startButton ? 'media-video-toggle media-video-start' : 'media-video-toggle'}
        aria-label={playing ? 'Pause video' : 'Play video'}
        onClick={toggle}
      >
        <svg
          viewBox="0 0 24 24"
          width={startButton ? 28 : 18}
          height={startButton ? 28 : 18}
          aria-hidden="true"
          focusable="false"
        >
          {playing ? (
            <path d="M7 5h4v14H7zm6 0h4v14h-4z" fill="currentColor" />
          ) : (
            <path d="M8 5v14l11-7z" fill="currentColor" />
          )}
        </svg>
      </button>
    </>
  );
}
