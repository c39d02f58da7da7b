import { useState } from 'react';
import type { Status } from './message-timer';
import './toast.css';

/**
 * A screen's fading message, floating above the bottom navigation (spec: success and error never
 * together; gone after the screen's time, `ms`, which useTimedStatus(ms) keeps). It fades in and
 * out over its life; each new message starts afresh, while the live region itself stays so
 * screen readers announce every message.
 */
export function Toast({ status, ms }: { status: Status | null; ms: number }) {
  const [shown, setShown] = useState(status);
  const [serial, setSerial] = useState(0);
  if (shown !== status) {
    setShown(status);
    if (status) setSerial((value) => value + 1);
  }
  return (
    <div
      className="toast-region"
      role="status"
      aria-live={status?.kind === 'error' ? 'assertive' : 'polite'}
    >
      {status && (
        <p
          key={serial}
          className={`status status-${status.kind} toast`}
          data-testid={`status-${status.kind}`}
          style={{ animationDuration: `${ms}ms` }}
        >
          {status.text}
        </p>
      )}
    </div>
  );
}
