import type { CharacterLimit } from '@/lib/character-limit';
import './character-counter.css';

/**
 * A text box's counter near its limit ("423/500"), and over it the refusal (`tooLong`, the
 * server's own message). A polite live region that is always there, so a screen reader hears the
 * count as it appears; the box points at it with `aria-describedby={id}`.
 */
export function CharacterCounter({
  id,
  limit,
  tooLong,
}: {
  id: string;
  limit: CharacterLimit;
  tooLong: string;
}) {
  return (
    <p
      id={id}
      className={`character-counter${limit.over ? ' character-counter-over' : ''}`}
      aria-live="polite"
      data-testid="character-counter"
    >
      {limit.over && <span className="character-counter-message">{tooLong}</span>}
      {limit.shown && (
        <span className="character-counter-count">
          {limit.label}
          <span className="visually-hidden"> characters</span>
        </span>
      )}
    </p>
  );
}
