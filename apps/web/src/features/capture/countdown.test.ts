import { describe, expect, it } from 'vitest';
import { countdownLabel, secondsLeftUntil } from './countdown';

describe('capture countdown', () => {
  it('counts whole seconds up, never below 0', () => {
    expect(secondsLeftUntil(40_000, 0)).toBe(40);
    expect(secondsLeftUntil(40_000, 1)).toBe(40);
    expect(secondsLeftUntil(40_000, 1000)).toBe(39);
    expect(secondsLeftUntil(40_000, 39_001)).toBe(1);
    expect(secondsLeftUntil(40_000, 40_000)).toBe(0);
    expect(secondsLeftUntil(40_000, 45_000)).toBe(0);
  });

  it('says "1 second left" and "N seconds left"', () => {
    expect(countdownLabel(1)).toBe('second left');
    expect(countdownLabel(0)).toBe('seconds left');
    expect(countdownLabel(40)).toBe('seconds left');
  });
});
