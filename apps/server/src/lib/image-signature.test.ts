import { describe, expect, it } from 'vitest';
import { hasImageSignature } from './image-signature.js';

const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00]);
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00]);

describe('hasImageSignature', () => {
  it('accepts a JPEG or PNG that starts with its own magic bytes', () => {
    expect(hasImageSignature('image/jpeg', JPEG)).toBe(true);
    expect(hasImageSignature('image/png', PNG)).toBe(true);
  });

  it('refuses a file labelled as the other type, text, a short file and other types', () => {
    expect(hasImageSignature('image/png', JPEG)).toBe(false);
    expect(hasImageSignature('image/jpeg', PNG)).toBe(false);
    expect(hasImageSignature('image/jpeg', Buffer.from('<svg/>'))).toBe(false);
    expect(hasImageSignature('image/png', PNG.subarray(0, 4))).toBe(false);
    expect(hasImageSignature('image/gif', Buffer.from('GIF89a'))).toBe(false);
  });
});
