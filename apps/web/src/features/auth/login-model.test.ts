import { describe, expect, it } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { hasErrorCode, isCompleteOtp, messageOf, phoneToSend, sanitizeOtp } from './login-model';

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
  it('prefers the server message and falls back otherwise', () => {
    expect(messageOf(error, 'Fallback')).toBe('Wrong code');
    expect(messageOf(new TypeError('Failed to fetch'), 'Fallback')).toBe('Fallback');
  });
});
