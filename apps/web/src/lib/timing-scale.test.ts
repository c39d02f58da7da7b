import { describe, expect, it } from 'vitest';
import { parseTimingScale, scaleDurations } from './timing-scale';

describe('parseTimingScale', () => {
  it('is honoured only when allowed and between 0.01 and 1', () => {
    expect(parseTimingScale('0.1', true)).toBe(0.1);
    expect(parseTimingScale('0.01', true)).toBe(0.01);
    expect(parseTimingScale('1', true)).toBe(1);
    expect(parseTimingScale('0.1', false)).toBe(1);
    expect(parseTimingScale(null, true)).toBe(1);
    expect(parseTimingScale('0', true)).toBe(1);
    expect(parseTimingScale('5', true)).toBe(1);
    expect(parseTimingScale('abc', true)).toBe(1);
  });
});

describe('scaleDurations', () => {
  it('scales and rounds every duration and leaves counts and the original alone', () => {
    const timings = { firstCheckMs: 5000, pollMs: 2555, maxChecks: 4 };
    expect(scaleDurations(timings, 0.1)).toEqual({ firstCheckMs: 500, pollMs: 256, maxChecks: 4 });
    expect(timings).toEqual({ firstCheckMs: 5000, pollMs: 2555, maxChecks: 4 });
  });
});
