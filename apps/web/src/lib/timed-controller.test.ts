import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TimedController } from './timed-controller';

/** Counts up once a second until cancelled. */
class Ticker extends TimedController<number> {
  constructor() {
    super(0);
  }

  start(): void {
    const run = this.cancel();
    this.setState(0);
    void this.tick(run);
  }

  private async tick(run: number): Promise<void> {
    for (;;) {
      await this.wait(1000);
      if (run !== this.run) return;
      this.setState(this.state + 1);
    }
  }
}

describe('TimedController', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('tells subscribers about each new state until they unsubscribe', async () => {
    const ticker = new Ticker();
    const listener = vi.fn();
    const unsubscribe = ticker.subscribe(listener);
    ticker.start();
    expect(listener).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(2000);
    expect(ticker.getState()).toBe(2);
    expect(listener).toHaveBeenCalledTimes(2);
    unsubscribe();
    await vi.advanceTimersByTimeAsync(1000);
    expect(ticker.getState()).toBe(3);
    expect(listener).toHaveBeenCalledTimes(2);
    ticker.dispose();
  });

  it('stops the run on dispose and starts afresh on a later start', async () => {
    const ticker = new Ticker();
    ticker.start();
    await vi.advanceTimersByTimeAsync(1000);
    ticker.dispose();
    expect(vi.getTimerCount()).toBe(0);
    await vi.advanceTimersByTimeAsync(5000);
    expect(ticker.getState()).toBe(1);
    ticker.start();
    expect(ticker.getState()).toBe(0);
    await vi.advanceTimersByTimeAsync(1000);
    expect(ticker.getState()).toBe(1);
    ticker.dispose();
  });
});
