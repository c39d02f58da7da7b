import { describe, expect, it } from 'vitest';
import { filenameFromDisposition } from './api-download';

describe('filenameFromDisposition', () => {
  it('reads the plain and the quoted file name', () => {
    expect(filenameFromDisposition('attachment; filename=guests.csv')).toBe('guests.csv');
    expect(filenameFromDisposition('attachment; filename="demo org guests.csv"')).toBe(
      'demo org guests.csv',
    );
  });

  it('prefers the encoded name', () => {
    expect(
      filenameFromDisposition(
        `attachment; filename="guests.csv"; filename*=UTF-8''caf%C3%A9%20guests.csv`,
      ),
    ).toBe('café guests.csv');
  });

  it('is null without a header or a name', () => {
    expect(filenameFromDisposition(null)).toBeNull();
    expect(filenameFromDisposition('attachment')).toBeNull();
  });
});
