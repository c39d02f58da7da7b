import { describe, expect, it } from 'vitest';
import { sharePageUrl } from './share-page';

describe('share page link', () => {
  it('is absolute on PUBLIC_URL when set, else on this origin', () => {
    expect(sharePageUrl('/p/abc', 'https://photos.example/', 'http://10.0.0.5:8080')).toBe(
      'https://photos.example/p/abc',
    );
    expect(sharePageUrl('/p/abc', undefined, 'http://10.0.0.5:8080')).toBe(
      'http://10.0.0.5:8080/p/abc',
    );
    expect(sharePageUrl('/p/abc', '  ', 'https://a.test')).toBe('https://a.test/p/abc');
  });
});
