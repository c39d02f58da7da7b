import { describe, expect, it } from 'vitest';

import { ApiError, NETWORK_FAILURE_MESSAGE, fetchOrNetworkError } from './api-client';
import { errorText } from './error-text';

describe('errorText', () => {
  it("shows the server's message, else the screen's fallback", () => {
    expect(errorText(new ApiError('Booth is offline.', 409, 'offline'), 'Fallback')).toBe(
      'Booth is offline.',
    );
    expect(errorText(new ApiError('', 500, 'error'), 'Fallback')).toBe('Fallback');
    expect(errorText(new TypeError('Failed to fetch'), 'Fallback')).toBe('Fallback');
    expect(errorText('nothing', 'Fallback')).toBe('Fallback');
  });
});

describe('fetchOrNetworkError', () => {
  it('turns a network failure into an ApiError that says what to do, and keeps a cancel a cancel', async () => {
    const real = globalThis.fetch;
    try {
      globalThis.fetch = () => Promise.reject(new TypeError('Failed to fetch'));
      const failure = await fetchOrNetworkError('/api/regular/x', {}).catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(ApiError);
      expect(failure).toMatchObject({ status: 0, code: 'network' });
      expect(errorText(failure, 'Fallback')).toBe(NETWORK_FAILURE_MESSAGE);

      globalThis.fetch = () => Promise.reject(new DOMException('cancelled', 'AbortError'));
      const cancelled = await fetchOrNetworkError('/api/regular/x', {}).catch((e: unknown) => e);
      expect(cancelled).toBeInstanceOf(DOMException);
      expect((cancelled as DOMException).name).toBe('AbortError');
    } finally {
      globalThis.fetch = real;
    }
  });
});
