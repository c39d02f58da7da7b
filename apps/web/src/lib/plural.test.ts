import { describe, expect, it } from 'vitest';
import { plural } from './plural';

describe('plural', () => {
  it('uses the singular for exactly one and the plural otherwise', () => {
    expect(plural(1, 'payment')).toBe('1 payment');
    expect(plural(0, 'payment')).toBe('0 payments');
    expect(plural(2, 'booth')).toBe('2 booths');
    expect(plural(1500, 'use')).toBe('1,500 uses');
  });

  it('takes an irregular plural', () => {
    expect(plural(1, 'entry', 'entries')).toBe('1 entry');
    expect(plural(3, 'entry', 'entries')).toBe('3 entries');
  });
});
