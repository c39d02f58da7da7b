import { describe, expect, it } from 'vitest';
import {
  formatMonthLabel,
  formatRate,
  formatWeekLabel,
  GAP_FILL_MAX_STEPS,
  gapFill,
  hasPositiveCount,
  utcMonthStart,
  utcWeekStart,
} from './stats-rules.js';

describe('period starts (UTC)', () => {
  it('moves a day to the Monday of its week, Sundays included', () => {
    expect(utcWeekStart(new Date('2025-01-08T12:00:00Z')).toISOString()).toBe(
      '2025-01-06T00:00:00.000Z',
    );
    expect(utcWeekStart(new Date('2025-01-12T23:59:59Z')).toISOString()).toBe(
      '2025-01-06T00:00:00.000Z',
    );
    expect(utcWeekStart(new Date('2025-01-06T00:00:00Z')).toISOString()).toBe(
      '2025-01-06T00:00:00.000Z',
    );
  });

  it('moves a day to the first of its month', () => {
    expect(utcMonthStart(new Date('2024-02-29T23:00:00Z')).toISOString()).toBe(
      '2024-02-01T00:00:00.000Z',
    );
  });
});

describe('gapFill', () => {
  it('fills missing weeks with 0 between the first and last point', () => {
    expect(
      gapFill(
        [
          { date: '2025-01-20', count: 2 },
          { date: '2025-01-06', count: 3 },
        ],
        'week',
      ),
    ).toEqual([
      { date: '2025-01-06', count: 3 },
      { date: '2025-01-13', count: 0 },
      { date: '2025-01-20', count: 2 },
    ]);
  });

  it('fills missing months across a year end', () => {
    expect(
      gapFill(
        [
          { date: '2024-11-01', count: 1 },
          { date: '2025-02-01', count: 4 },
        ],
        'month',
      ).map((p) => `${p.date}:${p.count}`),
    ).toEqual(['2024-11-01:1', '2024-12-01:0', '2025-01-01:0', '2025-02-01:4']);
  });

  it('moves points to their period start and adds counts of one period', () => {
    expect(
      gapFill(
        [
          { date: '2025-03-05', count: 1 },
          { date: '2025-03-31', count: 2 },
          { date: '2025-04-02', count: 5 },
        ],
        'month',
      ),
    ).toEqual([
      { date: '2025-03-01', count: 3 },
      { date: '2025-04-01', count: 5 },
    ]);
  });

  it('pads a single point with a zero one step before and after', () => {
    expect(gapFill([{ date: '2025-01-06', count: 7 }], 'week')).toEqual([
      { date: '2024-12-30', count: 0 },
      { date: '2025-01-06', count: 7 },
      { date: '2025-01-13', count: 0 },
    ]);
    expect(gapFill([{ date: '2025-01-01', count: 7 }], 'month')).toEqual([
      { date: '2024-12-01', count: 0 },
      { date: '2025-01-01', count: 7 },
      { date: '2025-02-01', count: 0 },
    ]);
  });

  it('caps the series at 1000 steps from the first point', () => {
    const filled = gapFill(
      [
        { date: '2000-01-03', count: 1 },
        { date: '2099-12-28', count: 1 },
      ],
      'week',
    );
    expect(GAP_FILL_MAX_STEPS).toBe(1000);
    expect(filled).toHaveLength(1000);
    expect(filled[0]).toEqual({ date: '2000-01-03', count: 1 });
    expect(filled[999]!.date).toBe('2019-02-25');
  });

  it('keeps to UTC whatever the local zone (no daylight-saving drift across months)', () => {
    const months = gapFill(
      [
        { date: '2025-01-01', count: 1 },
        { date: '2025-12-01', count: 1 },
      ],
      'month',
    );
    expect(months).toHaveLength(12);
    expect(months.every((p) => p.date.endsWith('-01'))).toBe(true);
  });

  it('answers nothing for no points', () => {
    expect(gapFill([], 'week')).toEqual([]);
  });
});

describe('chart texts', () => {
  it('formats dates en-US in UTC', () => {
    expect(formatWeekLabel('2025-01-06')).toBe('Jan 6');
    expect(formatMonthLabel('2025-01-01')).toBe('January 2025');
  });

  it('formats rates as percentages with one decimal', () => {
    expect(formatRate(3 / 7)).toBe('42.9%');
    expect(formatRate(0)).toBe('0.0%');
    expect(formatRate(1)).toBe('100.0%');
  });

  it('knows when a chart has something to draw', () => {
    expect(hasPositiveCount([{ date: '2025-01-06', count: 0 }])).toBe(false);
    expect(hasPositiveCount([{ date: '2025-01-06', count: 1 }])).toBe(true);
  });
});
