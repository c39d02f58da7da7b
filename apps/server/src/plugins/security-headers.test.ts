import { describe, expect, it } from 'vitest';
import { storeOrigins } from './security-headers.js';

describe('storeOrigins', () => {
  it("lists AWS's regional origin and the bucket's virtual host", () => {
    expect(storeOrigins({ bucket: 'fb-media', region: 'ap-south-1', endpoint: undefined })).toEqual(
      ['https://s3.ap-south-1.amazonaws.com', 'https://fb-media.s3.ap-south-1.amazonaws.com'],
    );
  });

  it('uses a configured endpoint with its port (a self-hosted store)', () => {
    expect(
      storeOrigins({ bucket: 'media', region: 'garage', endpoint: 'http://store.lan:3900/' }),
    ).toEqual(['http://store.lan:3900', 'http://media.store.lan:3900']);
  });
});
