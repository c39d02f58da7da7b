import { describe, expect, it } from 'vitest';
import { formatUtcTimestamp, utcTimestampParts } from './format-date';

describe('formatUtcTimestamp', () => {
  it('shows a zone-less UTC timestamp as dd/mm/yyyy hh:mm without shifting it', () => {
    expect(formatUtcTimestamp('2025-05-14T09:05:59')).toBe('14/05/2025 09:05');
    expect(formatUtcTimestamp('2025-05-14T10:20:30')).toBe('14/05/2025 10:20');
    expect(formatUtcTimestamp('2025-12-31T23:59:00')).toBe('31/12/2025 23:59');
    expect(formatUtcTimestamp('2025-01-02 00:00:00.123')).toBe('02/01/2025 00:00');
  });

  it('converts a timestamp with a zone to UTC', () => {
    expect(formatUtcTimestamp('2025-05-14T05:30:00+05:30')).toBe('14/05/2025 00:00');
    expect(formatUtcTimestamp('2025-05-14T23:10:00Z')).toBe('14/05/2025 23:10');
  });

  it('shows unreadable text as it came', () => {
    expect(formatUtcTimestamp('yesterday')).toBe('yesterday');
  });
});

describe('utcTimestampParts', () => {
  it('splits the UTC time into dd/mm/yyyy and hh:mm (24 h), whatever the local zone', () => {
    expect(utcTimestampParts('2025-05-14T21:05:09')).toEqual({ date: '14/05/2025', time: '21:05' });
    expect(utcTimestampParts('2025-01-02T03:04:05+05:30')).toEqual({
      date: '01/01/2025',
      time: '21:34',
    });
  });

  it('is null for an unreadable value', () => {
    expect(utcTimestampParts('yesterday')).toBeNull();
  });
});
