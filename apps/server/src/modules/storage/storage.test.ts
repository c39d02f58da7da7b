import { describe, expect, it } from 'vitest';
import { attachmentDisposition, extensionFor, isValidObjectKey, newObjectKey } from './storage.js';

describe('object keys', () => {
  it('are random, typed by a whitelisted extension, and never taken from a client', () => {
    const key = newObjectKey('media', extensionFor('image/jpeg'));
    expect(key).toMatch(/^media\/[0-9a-f-]{36}\.jpg$/);
    expect(newObjectKey('media', 'jpg')).not.toBe(key);
    expect(newObjectKey('releases/', extensionFor('application/gzip'))).toMatch(/\.tar\.gz$/);
    expect(() => extensionFor('text/html')).toThrow(/cannot be stored/);
  });

  it('refuse traversal, absolute paths and odd characters', () => {
    for (const good of ['media/a.jpg', 'releases/1.2.0/agent.tar.gz', 'logos/x_y-z.png']) {
      expect(isValidObjectKey(good), good).toBe(true);
    }
    for (const bad of [
      '../etc/passwd',
      'media/../../x',
      '/media/a.jpg',
      'media//a.jpg',
      'media/a.jpg/',
      'media/.hidden',
      '.tmp/x',
      'Media/a.jpg',
      'media/a b.jpg',
      'media/a%2fb',
      'media\\a.jpg',
      'media/a.jpg.meta.json',
      'a..b',
      '',
    ]) {
      expect(isValidObjectKey(bad), bad).toBe(false);
    }
  });

  it('build a download disposition that cannot break out of the header', () => {
    expect(attachmentDisposition('Mira’s "strip"/1.jpg')).toBe(
      `attachment; filename="Mira_s _strip__1.jpg"; filename*=UTF-8''Mira%E2%80%99s%20_strip__1.jpg`,
    );
  });
});
