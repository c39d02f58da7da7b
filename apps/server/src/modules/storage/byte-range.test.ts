import { describe, expect, it } from 'vitest';
import { byteRange } from './byte-range.js';

describe('byteRange', () => {
  it.each([
    ['bytes=0-99', { kind: 'partial', start: 0, end: 99 }],
    ['bytes=100-', { kind: 'partial', start: 100, end: 999 }],
    ['bytes=-100', { kind: 'partial', start: 900, end: 999 }],
    ['bytes=900-5000', { kind: 'partial', start: 900, end: 999 }],
    ['bytes=-5000', { kind: 'partial', start: 0, end: 999 }],
    ['bytes=999-999', { kind: 'partial', start: 999, end: 999 }],
  ])('answers %s of a 1000-byte file with its bytes', (header, expected) => {
    expect(byteRange(header, 1000)).toEqual(expected);
  });

  it.each(['bytes=1000-', 'bytes=5000-6000', 'bytes=-0'])(
    'cannot satisfy %s of a 1000-byte file',
    (header) => {
      expect(byteRange(header, 1000)).toEqual({ kind: 'unsatisfiable' });
    },
  );

  it.each([undefined, '', 'items=0-1', 'bytes=0-1,5-9', 'bytes=5-1', 'bytes=-', 'bytes=a-b'])(
    'sends the whole file for %j',
    (header) => {
      expect(byteRange(header, 1000)).toEqual({ kind: 'whole' });
    },
  );
});
