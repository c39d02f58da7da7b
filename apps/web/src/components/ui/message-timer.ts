export type StatusKind = 'success' | 'error' | 'info';
export interface Status {
  kind: StatusKind;
  text: string;
  /**
   * Where the message belongs when not on the screen as a whole: the key of the card or panel
   * whose action it answers, which shows it beside that action (a Toast with the same `at`).
   */
  at?: string;
}

/**
 * A screen's one message and its life (spec: messages hide after 5 s, or the screen's own time;
 * success and error are never shown together). Showing a message replaces the one on screen and
 * starts its time afresh. Knows nothing about React, so vitest drives it with fake timers.
 */
export class MessageTimer {
  private current: Status | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly ms: number,
    private readonly onChange: (status: Status | null) => void,
  ) {}

  get status(): Status | null {
    return this.current;
  }

  // Arrow properties: screens pass them around and list them as effect dependencies.
  show = (kind: StatusKind, text: string, at?: string): void => {
    this.stop();
    this.set(at === undefined ? { kind, text } : { kind, text, at });
    this.timer = setTimeout(() => {
      this.timer = null;
      this.set(null);
    }, this.ms);
  };

  clear = (): void => {
    this.stop();
    this.set(null);
  };

  /** Stops the timer without a change (the screen is going away). */
  dispose = (): void => {
    this.stop();
  };

  private stop(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private set(status: Status | null): void {
    if (status === this.current) return;
    this.current = status;
    this.onChange(status);
  }
}
