import { useCallback, useEffect, useRef, useState } from 'react';

export type StatusKind = 'success' | 'error' | 'info';
export interface Status {
  kind: StatusKind;
  text: string;
}

/**
 * A status line that hides itself after `ms` (spec: 5 s on login, 2 s on profile).
 * Showing a new status replaces the old, so success and error never show together.
 */
export function useTimedStatus(ms: number) {
  const [status, setStatus] = useState<Status | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const show = useCallback(
    (kind: StatusKind, text: string) => {
      if (timer.current) clearTimeout(timer.current);
      setStatus({ kind, text });
      timer.current = setTimeout(() => setStatus(null), ms);
    },
    [ms],
  );
  const clear = useCallback(() => {
    if (timer.current) clearTimeout(timer.current);
    setStatus(null);
  }, []);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  return { status, show, clear };
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
