import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MessageTimer, type Status } from './message-timer';

describe('MessageTimer', () => {
  let seen: (Status | null)[];
  let timer: MessageTimer;
  beforeEach(() => {
    vi.useFakeTimers();
    seen = [];
    timer = new MessageTimer(5000, (status) => seen.push(status));
  });
  afterEach(() => {
    timer.dispose();
    vi.useRealTimers();
  });

  it('shows a message and hides it after the screen’s time', () => {
    timer.show('success', 'Saved.');
    expect(timer.status).toEqual({ kind: 'success', text: 'Saved.' });
    vi.advanceTimersByTime(4999);
    expect(timer.status).not.toBeNull();
    vi.advanceTimersByTime(1);
    expect(timer.status).toBeNull();
    expect(seen).toEqual([{ kind: 'success', text: 'Saved.' }, null]);
  });

  it('replaces a success with an error, so the two never show together, and restarts the time', () => {
    timer.show('success', 'Saved.');
    vi.advanceTimersByTime(3000);
    timer.show('error', 'Failed.');
    expect(timer.status).toEqual({ kind: 'error', text: 'Failed.' });
    vi.advanceTimersByTime(3000);
    expect(timer.status?.kind).toBe('error');
    vi.advanceTimersByTime(2000);
    expect(timer.status).toBeNull();
    expect(seen).toEqual([
      { kind: 'success', text: 'Saved.' },
      { kind: 'error', text: 'Failed.' },
      null,
    ]);
  });

  it('keeps its own time (3 s on template pages and for the ping result)', () => {
    const short = new MessageTimer(3000, () => undefined);
    short.show('info', 'Ping successful!');
    vi.advanceTimersByTime(3000);
    expect(short.status).toBeNull();
  });

  it('clears at once, and a dispose stops the timer without a change', () => {
    timer.show('error', 'Failed.');
    timer.clear();
    expect(timer.status).toBeNull();
    timer.show('error', 'Again.');
    timer.dispose();
    vi.advanceTimersByTime(10_000);
    expect(seen).toEqual([
      { kind: 'error', text: 'Failed.' },
      null,
      { kind: 'error', text: 'Again.' },
    ]);
  });

  it('keeps one message a screen even when they belong to different cards', () => {
    timer.show('info', 'No changes detected.', '7:caption');
    timer.show('success', 'Caption saved.', '8:caption');
    expect(timer.status).toEqual({ kind: 'success', text: 'Caption saved.', at: '8:caption' });
    vi.advanceTimersByTime(5000);
    expect(timer.status).toBeNull();
  });
});
