import { useEffect, useState } from 'react';
import { MessageTimer, type Status } from './message-timer';

export type { Status, StatusKind } from './message-timer';

/**
 * A status line that hides itself after `ms` (spec: 5 s on login, 2 s on profile, 5 s on most
 * staff screens, 3 s on template pages). Showing a new status replaces the old, so success and
 * error never show together (the rules are MessageTimer's).
 */
export function useTimedStatus(ms: number) {
  const [status, setStatus] = useState<Status | null>(null);
  const [timer] = useState(() => new MessageTimer(ms, setStatus));
  useEffect(() => () => timer.dispose(), [timer]);
  return { status, show: timer.show, clear: timer.clear } as const;
}

export function StatusMessage({ status }: { status: Status | null }) {
  return (
    <div aria-live={status?.kind === 'error' ? 'assertive' : 'polite'} role="status">
      {status && (
        <p className={`status status-${status.kind}`} data-testid={`status-${status.kind}`}>
          {status.text}
        </p>
      )}
    </div>
  );
}
