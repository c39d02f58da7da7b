import { describe, expect, it } from 'vitest';
import { characterLimit } from './character-limit';

describe('characterLimit', () => {
  it('stays out of sight far from the limit', () => {
    expect(characterLimit('Lovely light!', 500)).toMatchObject({
      count: 13,
      shown: false,
      over: false,
    });
    expect(characterLimit('x'.repeat(399), 500).shown).toBe(false);
  });

  it('counts from 400 of 500 on, as "423/500"', () => {
    expect(characterLimit('x'.repeat(400), 500)).toMatchObject({
      shown: true,
      over: false,
      label: '400/500',
    });
    expect(characterLimit('x'.repeat(423), 500).label).toBe('423/500');
    expect(characterLimit('x'.repeat(500), 500)).toMatchObject({ shown: true, over: false });
  });

  it('refuses one character more, as the server does', () => {
    expect(characterLimit('x'.repeat(501), 500)).toMatchObject({ over: true, label: '501/500' });
  });

  it('counts the trimmed text, as the server does', () => {
    expect(characterLimit(`  ${'x'.repeat(500)}  `, 500)).toMatchObject({
      count: 500,
      over: false,
    });
  });

  it('counts an emoji as one character, as the server does', () => {
    expect(characterLimit('🎉'.repeat(500), 500)).toMatchObject({ count: 500, over: false });
    expect(characterLimit('🎉'.repeat(501), 500)).toMatchObject({ count: 501, over: true });
  });
});
