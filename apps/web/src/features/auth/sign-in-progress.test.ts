import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  clearSignInProgress,
  readSignInProgress,
  SIGN_IN_PROGRESS_KEY,
  SIGN_IN_PROGRESS_MS,
  type SignInProgress,
  writeSignInProgress,
} from './sign-in-progress';

/** The tab's session storage, as a browser keeps it (strings by key). */
function memoryStorage(): Storage {
  const items = new Map<string, string>();
  return {
    get length() {
      return items.size;
    },
    clear: () => items.clear(),
    getItem: (key) => items.get(key) ?? null,
    key: (index) => [...items.keys()][index] ?? null,
    removeItem: (key) => void items.delete(key),
    setItem: (key, value) => void items.set(key, String(value)),
  };
}

const NOW = Date.UTC(2026, 11, 6, 10, 0, 0);
const otpStep: SignInProgress = {
  pool: 'regular',
  step: 'otp',
  countryCode: '+91',
  number: '9876543210',
  phone: '+919876543210',
  at: NOW,
};

beforeEach(() => vi.stubGlobal('sessionStorage', memoryStorage()));
afterEach(() => vi.unstubAllGlobals());

describe('sign-in progress', () => {
  it('reads back the step this tab wrote, for the same pool only', () => {
    writeSignInProgress(otpStep);
    expect(readSignInProgress('regular', NOW + 60_000)).toEqual(otpStep);
    expect(readSignInProgress('enterprise', NOW + 60_000)).toBeNull();
  });

  it('forgets a step older than its lifetime, or one from the future', () => {
    writeSignInProgress(otpStep);
    expect(readSignInProgress('regular', NOW + SIGN_IN_PROGRESS_MS)).toEqual(otpStep);
    expect(readSignInProgress('regular', NOW + SIGN_IN_PROGRESS_MS + 1)).toBeNull();
    expect(readSignInProgress('regular', NOW - 120_000)).toBeNull();
  });

  it('ignores what is not a step (another shape, bad JSON, an unknown step)', () => {
    sessionStorage.setItem(SIGN_IN_PROGRESS_KEY, '{"pool":"regular"');
    expect(readSignInProgress('regular', NOW)).toBeNull();
    sessionStorage.setItem(SIGN_IN_PROGRESS_KEY, JSON.stringify({ ...otpStep, step: 'done' }));
    expect(readSignInProgress('regular', NOW)).toBeNull();
    sessionStorage.setItem(SIGN_IN_PROGRESS_KEY, JSON.stringify({ ...otpStep, at: 'now' }));
    expect(readSignInProgress('regular', NOW)).toBeNull();
  });

  it('falls back to phone entry for a later step without its phone', () => {
    writeSignInProgress({ ...otpStep, step: 'signup', phone: '' });
    expect(readSignInProgress('regular', NOW)?.step).toBe('phone');
  });

  it('is cleared, and storage that refuses is no error', () => {
    writeSignInProgress(otpStep);
    clearSignInProgress();
    expect(sessionStorage.getItem(SIGN_IN_PROGRESS_KEY)).toBeNull();
    const refusing = memoryStorage();
    refusing.setItem = () => {
      throw new DOMException('full', 'QuotaExceededError');
    };
    vi.stubGlobal('sessionStorage', refusing);
    expect(() => writeSignInProgress(otpStep)).not.toThrow();
    expect(readSignInProgress('regular', NOW)).toBeNull();
  });
});
