import { describe, expect, it } from 'vitest';
import { searchWords, wordQuery } from './media-search.js';

describe('searchWords', () => {
  it('splits on anything but letters, marks and digits, lower-cased', () => {
    expect(searchWords("Priya's  BIRTHDAY!")).toEqual(['priya', 's', 'birthday']);
    expect(searchWords('100% fun')).toEqual(['100', 'fun']);
    expect(searchWords('tag-xyz_12')).toEqual(['tag', 'xyz', '12']);
  });

  it('keeps words of any script whole, with their combining marks', () => {
    // Devanagari vowel signs are combining marks (\p{M}), not letters.
    expect(searchWords('जन्मदिन मुबारक')).toEqual(['जन्मदिन', 'मुबारक']);
    expect(searchWords('Café Zürich')).toEqual(['café', 'zürich']);
    // Decomposed é (e + U+0301) is composed first, as it would be typed on a phone.
    expect(searchWords('cafe\u0301')).toEqual(['café']);
  });

  it('finds the words in markup, links and addresses (punctuation is a space)', () => {
    expect(searchWords('<script>alert(1)</script>')).toEqual(['script', 'alert', '1', 'script']);
    expect(searchWords('priya.k@example.org')).toEqual(['priya', 'k', 'example', 'org']);
  });

  it('makes each emoji a word of its own, as the index does (migration 0030)', () => {
    expect(searchWords('🎉')).toEqual(['emoji1f389']);
    expect(searchWords('Cake🎂and 🎉🎉')).toEqual([
      'cake',
      'emoji1f382',
      'and',
      'emoji1f389',
      'emoji1f389',
    ]);
    // The presentation selector is no part of it; a skin tone is an emoji of its own.
    expect(searchWords('❤️')).toEqual(['emoji2764']);
    expect(searchWords('👍🏽')).toEqual(['emoji1f44d', 'emoji1f3fd']);
    // A dingbat digit is an emoji, not part of the word beside it.
    expect(searchWords('a❶')).toEqual(['a', 'emoji2776']);
  });

  it('finds no words in punctuation alone', () => {
    expect(searchWords('%')).toEqual([]);
    expect(searchWords(" '\\:*&|!() ")).toEqual([]);
  });
});

describe('wordQuery', () => {
  it('asks for every word, the last also as a prefix', () => {
    expect(wordQuery('Caption 12')).toBe("'caption' & '12':*");
    expect(wordQuery('pri')).toBe("'pri':*");
  });

  it('cannot carry query syntax through: quotes, operators and weights are separators', () => {
    expect(wordQuery("a' | b:* & !c")).toBe("'a' & 'b' & 'c':*");
  });

  it('asks for an emoji whole, even last', () => {
    expect(wordQuery('party 🎉')).toBe("'party' & 'emoji1f389'");
    expect(wordQuery('🎉 par')).toBe("'emoji1f389' & 'par':*");
  });

  it('is undefined without words', () => {
    expect(wordQuery('')).toBeUndefined();
    expect(wordQuery('!!')).toBeUndefined();
  });
});
