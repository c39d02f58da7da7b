import { createContext, useContext, useEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import type { Status } from './message-timer';
import './toast.css';

/**
 * The spot under a page's heading and actions where the page's own messages go (ListPage and
 * ConsolePage provide it; `null` until it is mounted, `undefined` outside such a page).
 */
export const MessageSlotContext = createContext<HTMLElement | null | undefined>(undefined);

/**
 * A screen's fading message (spec: success and error never together; gone after the screen's
 * time, `ms`, which useTimedStatus(ms) keeps). It sits in the page's flow, never floating: a
 * message of the screen as a whole under the page's heading and actions (ListPage and
 * ConsolePage's slot, wherever the screen renders its Toast), one that answers a card's action
 * (`at`, the key the screen passed to `show`) where that card renders its Toast, under the
 * control. It takes its own room, so it covers nothing; it is scrolled into sight (above the
 * bottom navigation) when it would appear out of view. The live region stays, so screen readers
 * announce every message.
 */
export function Toast({ status, ms, at }: { status: Status | null; ms: number; at?: string }) {
  const slot = useContext(MessageSlotContext);
  const mine = status && status.at === at ? status : null;
  const [shown, setShown] = useState(mine);
  const [serial, setSerial] = useState(0);
  if (shown !== mine) {
    setShown(mine);
    if (mine) setSerial((value) => value + 1);
  }
  const region = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (serial > 0) region.current?.scrollIntoView?.({ block: 'nearest' });
  }, [serial]);

  const live = (
    <div
      ref={region}
      className="toast-region"
      role="status"
      aria-live={mine?.kind === 'error' ? 'assertive' : 'polite'}
    >
      {mine && (
        <p
          key={serial}
          className={`status status-${mine.kind} toast`}
          data-testid={`status-${mine.kind}`}
          style={{ animationDuration: `${ms}ms` }}
        >
          {mine.text}
        </p>
      )}
    </div>
  );
  // Beside its card's action, or where the screen put it when there is no page slot.
  if (at !== undefined || slot === undefined) return live;
  return slot ? createPortal(live, slot) : null;
}
