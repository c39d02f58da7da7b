import { useEffect, useState } from 'react';

/** Copies `text` to the clipboard; says "Copied!" for a moment, or asks to copy by hand. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 2000);
    return () => clearTimeout(timer);
  }, [state]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState('copied');
    } catch {
      setState('failed');
    }
  };
  return (
    <button
      type="button"
      className="btn btn-secondary device-copy"
      onClick={() => void copy()}
      aria-label={state === 'idle' ? label : undefined}
    >
      <span aria-live="polite">
        {state === 'copied' ? 'Copied!' : state === 'failed' ? 'Select and copy' : 'Copy'}
      </span>
    </button>
  );
}
