import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api-client';
import {
  budgetNoticeOf,
  hasErrorCode,
  homeAfterSignIn,
  isCompleteOtp,
  phoneToSend,
  returnPathToSend,
  sanitizeOtp,
} from './login-model';

describe('phoneToSend', () => {
  it('joins the country code and number, keeping only digits and plus', () => {
    expect(phoneToSend('+91', '98765 43210')).toBe('+919876543210');
    expect(phoneToSend('+91', '(987) 654-3210')).toBe('+919876543210');
  });
  it('refuses fewer than 10 characters', () => {
    expect(phoneToSend('+91', '123456')).toBeNull();
    expect(phoneToSend('+91', '')).toBeNull();
    expect(phoneToSend('+1', '2345678')).toBeNull();
    expect(phoneToSend('+1', '234567890')).toBe('+1234567890');
  });
  it('refuses letters and other signs, even beside enough digits (issue 20 item 9)', () => {
    expect(phoneToSend('+91', 'abc')).toBeNull();
    expect(phoneToSend('+91', '98765abc43210')).toBeNull();
    expect(phoneToSend('+91', '9876543210#')).toBeNull();
    expect(phoneToSend('+9a', '9876543210')).toBeNull();
    expect(phoneToSend('91', '9876543210')).toBeNull();
  });
});

describe('homeAfterSignIn (issue 20 item 8)', () => {
  it('sends staff to the console and visitors home, unless a page was stored', () => {
    expect(homeAfterSignIn('regular', null)).toBe('/');
    expect(homeAfterSignIn('enterprise', null)).toBe('/enterprise/organizations');
    expect(homeAfterSignIn('enterprise', '/enterprise/devices/3')).toBe('/enterprise/devices/3');
    expect(homeAfterSignIn('regular', '/b/12?x=1')).toBe('/b/12?x=1');
  });
  it('does not follow a stored page of the other pool', () => {
    expect(homeAfterSignIn('enterprise', '/regular/media')).toBe('/enterprise/organizations');
    expect(homeAfterSignIn('enterprise', '/b/3')).toBe('/enterprise/organizations');
    expect(homeAfterSignIn('regular', '/enterprise/devices')).toBe('/');
  });
});

describe('sanitizeOtp', () => {
  it('keeps at most four digits', () => {
    expect(sanitizeOtp('12a3 4 5')).toBe('1234');
    expect(sanitizeOtp('abc')).toBe('');
  });
  it('knows a complete code', () => {
    expect(isCompleteOtp('1234')).toBe(true);
    expect(isCompleteOtp('123')).toBe(false);
    expect(isCompleteOtp('12a4')).toBe(false);
  });
});

describe('error helpers', () => {
  const error = new ApiError('Wrong code', 401, 'code_mismatch');
  it('reads the error code', () => {
    expect(hasErrorCode(error, 'code_mismatch')).toBe(true);
    expect(hasErrorCode(error, 'code_expired')).toBe(false);
    expect(hasErrorCode(new Error('x'), 'code_mismatch')).toBe(false);
  });
});

describe('budgetNoticeOf', () => {
  const spent = (linkSent: boolean) =>
    new ApiError(
      'Too many wrong codes for this number. Try again after 14:05 UTC.',
      429,
      'too_many_attempts',
      {
        message: 'Too many wrong codes for this number. Try again after 14:05 UTC.',
        code: 'too_many_attempts',
        reason: 'code_budget_spent',
        retry_at: '2025-05-14T14:05:00',
        link_sent: linkSent,
      },
    );
  it('reads when codes work again and whether a link was just sent', () => {
    expect(budgetNoticeOf(spent(true))).toEqual({
      retryAt: '14/05/2025 14:05 UTC',
      linkSent: true,
    });
    expect(budgetNoticeOf(spent(false))).toEqual({
      retryAt: '14/05/2025 14:05 UTC',
      linkSent: false,
    });
  });
  it('is null for every other refusal', () => {
    expect(budgetNoticeOf(new ApiError('Too many attempts.', 429, 'too_many_attempts'))).toBeNull();
    expect(budgetNoticeOf(new Error('offline'))).toBeNull();
  });
});

describe('returnPathToSend', () => {
  it('sends only a path on this site', () => {
    expect(returnPathToSend('/b/12?template=3')).toBe('/b/12?template=3');
    expect(returnPathToSend(null)).toBeUndefined();
    expect(returnPathToSend('//evil.example')).toBeUndefined();
    expect(returnPathToSend('/\\evil.example')).toBeUndefined();
  });
});
