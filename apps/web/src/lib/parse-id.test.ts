import { describe, expect, it } from 'vitest';
import { parseId } from './parse-id';

describe('parseId', () => {
  it('reads a positive whole number', () => {
    expect(parseId('1')).toBe(1);
    expect(parseId('41')).toBe(41);
    expect(parseId('999999999999999')).toBe(999_999_999_999_999);
  });

  it('refuses anything else', () => {
    for (const raw of [
      null,
      undefined,
      '',
      '0',
      '-3',
      '1.5',
      'x',
      ' 4',
      '1e3',
      '1234567890123456',
    ]) {
      expect(parseId(raw), String(raw)).toBeNull();
    }
  });
});
