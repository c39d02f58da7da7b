/**
 * What the screen controllers (capture flow, payment status) share: a state that React reads
 * with useSyncExternalStore, and timers that belong to one run. Starting over or disposing calls
 * `cancel()`, which clears the run's timers and bumps `run`; async work compares the run number it
 * started with and stops when it changed. Knows nothing about React, so vitest drives it with
 * fake timers.
 */
export abstract class TimedController<State> {
  protected state: State;
  private readonly listeners = new Set<() => void>();
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  /** Bumped on start/dispose: work from an older run finds it changed and stops. */
  protected run = 0;

  protected constructor(initial: State) {
    this.state = initial;
  }

  getState = (): State => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Cancels whatever is under way; a later start works again (as React's strict mode needs). */
  dispose(): void {
    this.cancel();
  }

  /** Ends the current run and returns the number of the next one. */
  protected cancel(): number {
    this.run += 1;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    return this.run;
  }

  /** Changes the state and tells the listeners; the same state again is no change. */
  protected setState(next: State): void {
    if (next === this.state) return;
    this.state = next;
    for (const listener of this.listeners) listener();
  }

  /** Resolves after `ms`, or never when the run is cancelled meanwhile. */
  protected wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.timers.delete(timer);
        resolve();
      }, ms);
      this.timers.add(timer);
    });
  }
}
