import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  attachmentDisposition,
  DownloadLinkMemo,
  downloadWindow,
  extensionFor,
  isValidObjectKey,
  MAX_URL_LIFETIME_SECONDS,
  newObjectKey,
} from './storage.js';

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

describe('download windows', () => {
  it('give a link at least its lifetime and at most one window (a tenth, 5 min at most) more', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 4_000_000_000 }),
        fc.integer({ min: 1, max: MAX_URL_LIFETIME_SECONDS }),
        (now, lifetime) => {
          const { signedAt, expires } = downloadWindow(now, lifetime);
          const width = Math.max(1, Math.min(300, Math.floor(lifetime / 10)));
          expect(signedAt).toBeLessThanOrEqual(now);
          expect(now - signedAt).toBeLessThan(width);
          expect(expires - signedAt).toBeLessThanOrEqual(MAX_URL_LIFETIME_SECONDS);
          if (lifetime + width <= MAX_URL_LIFETIME_SECONDS) {
            expect(expires).toBeGreaterThanOrEqual(now + lifetime);
          }
          expect(expires).toBeLessThanOrEqual(now + lifetime + width);
        },
      ),
    );
  });

  it('are the same within a window and move on at its end', () => {
    expect(downloadWindow(1_000_000, 3600)).toEqual({ signedAt: 999_900, expires: 1_003_800 });
    expect(downloadWindow(1_000_199, 3600)).toEqual(downloadWindow(1_000_000, 3600));
    expect(downloadWindow(1_000_200, 3600)).toEqual({ signedAt: 1_000_200, expires: 1_004_100 });
    expect(downloadWindow(1_000_000, 60)).toEqual({ signedAt: 999_996, expires: 1_000_062 });
  });

  it('sign a link once per window, key and file name, and forget the oldest beyond capacity', async () => {
    const memo = new DownloadLinkMemo(2);
    let signed = 0;
    const sign = (name: string) => () => `${name}#${(signed += 1)}`;
    const a = { key: 'media/a.jpg', signedAt: 0, expires: 3900, fileName: undefined };
    expect(await memo.get(a, sign('a'))).toBe('a#1');
    expect(await memo.get(a, sign('a'))).toBe('a#1');
    expect(await memo.get({ ...a, fileName: 'x.jpg' }, sign('a-x'))).toBe('a-x#2');
    expect(await memo.get({ ...a, signedAt: 300, expires: 4200 }, sign('a'))).toBe('a#3');
    // Capacity 2: the first link was forgotten, so it is signed again.
    expect(await memo.get(a, sign('a'))).toBe('a#4');
  });
});
