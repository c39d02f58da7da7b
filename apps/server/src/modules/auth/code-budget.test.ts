import { OTP_LENGTH } from '@flashbooth/contracts';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../config.js';
import {
  budgetLookbackMs,
  codeBudget,
  type CodeBudgetPolicy,
  DAILY_WINDOW_MS,
  pauseMs,
  retryAfterSeconds,
  retryTime,
} from './code-budget.js';

const policy: CodeBudgetPolicy = {
  dailyFailures: 10,
  backoffAfterFailures: 5,
  backoffBaseSeconds: 60,
  lockoutFailures: 10,
  lockoutSeconds: 900,
};

const T0 = Date.parse('2025-05-14T10:00:00Z');
const at = (ms: number) => new Date(T0 + ms);
const MINUTE = 60_000;
const HOUR = 3_600_000;

/** `n` failures, one every `gapMs`, starting at T0. */
const failuresEvery = (n: number, gapMs: number) =>
  Array.from({ length: n }, (_, i) => at(i * gapMs));

describe('code budget', () => {
  it('is open below the pause threshold, however close together the failures are', () => {
    expect(codeBudget(failuresEvery(4, 1000), at(3001), policy)).toEqual({ kind: 'open' });
  });

  it('pauses after the threshold for a time that doubles with every further failure', () => {
    expect([4, 5, 6, 7, 8, 9].map((n) => pauseMs(n, policy) / 1000)).toEqual([
      0, 60, 120, 240, 480, 960,
    ]);
    const five = failuresEvery(5, MINUTE * 30);
    const last = five.at(-1)!.getTime() - T0;
    expect(codeBudget(five, at(last + 59_000), policy)).toEqual({
      kind: 'paused',
      until: at(last + 60_000),
    });
    expect(codeBudget(five, at(last + 60_000), policy)).toEqual({ kind: 'open' });
    const six = failuresEvery(6, MINUTE * 30);
    expect(codeBudget(six, at(last + 30 * MINUTE + 119_000), policy).kind).toBe('paused');
    expect(codeBudget(six, at(last + 30 * MINUTE + 120_000), policy).kind).toBe('open');
  });

  it('is spent at the daily limit until the oldest failure is 24 hours old', () => {
    const ten = failuresEvery(10, HOUR);
    expect(codeBudget(ten, at(9 * HOUR + 1), policy)).toEqual({
      kind: 'spent',
      until: at(DAILY_WINDOW_MS),
    });
    expect(codeBudget(ten, at(DAILY_WINDOW_MS - 1), policy).kind).toBe('spent');
    // The first failure has left the window: nine remain, the last pause (16 min) is long over.
    expect(codeBudget(ten, at(DAILY_WINDOW_MS), policy)).toEqual({ kind: 'open' });
  });

  it('counts the rolling window, not calendar days', () => {
    // Five at 23:00 and five at 01:00 the next day: ten within 24 hours.
    const evening = failuresEvery(5, 20 * MINUTE).map((d) => new Date(d.getTime() + 13 * HOUR));
    const night = failuresEvery(5, 20 * MINUTE).map((d) => new Date(d.getTime() + 15 * HOUR));
    const budget = codeBudget([...evening, ...night], at(17 * HOUR), policy);
    expect(budget).toEqual({ kind: 'spent', until: at(13 * HOUR + DAILY_WINDOW_MS) });
  });

  it('keeps the short lockout (OTP_LOCKOUT_FAILURES in OTP_LOCKOUT_SECONDS) when it is stricter', () => {
    const strict = { ...policy, lockoutFailures: 4, backoffAfterFailures: 10 };
    const four = failuresEvery(4, 1000);
    expect(codeBudget(four, at(4000), strict)).toEqual({
      kind: 'spent',
      until: at(900_000),
    });
    expect(codeBudget(four, at(900_000), strict)).toEqual({ kind: 'open' });
    expect(budgetLookbackMs({ ...strict, lockoutSeconds: 2 * 86_400 })).toBe(2 * DAILY_WINDOW_MS);
  });

  it('says when in words (rounded up to the minute) and in seconds', () => {
    const now = new Date('2025-05-14T10:00:10Z');
    expect(retryTime(new Date('2025-05-14T14:04:01Z'), now)).toBe('14:05 UTC');
    expect(retryTime(new Date('2025-05-14T14:05:00Z'), now)).toBe('14:05 UTC');
    expect(retryTime(new Date('2025-05-15T09:59:30Z'), now)).toBe('10:00 UTC tomorrow');
    const late = new Date('2025-05-14T23:59:40Z');
    expect(retryTime(new Date('2025-05-15T23:59:40Z'), late)).toBe('00:00 UTC on 2025-05-16');
    expect(retryAfterSeconds(new Date('2025-05-14T10:01:00.500Z'), now)).toBe(51);
    expect(retryAfterSeconds(now, now)).toBe(1);
  });

  it('keeps the default limits at or under a 1-in-1,000 chance per phone per day', () => {
    const config = loadConfig({ NODE_ENV: 'test', AUTH_SECRET: 'x'.repeat(32), DATA_DIR: '/tmp' });
    const n = config.auth.dailyFailures;
    const perGuess = 1 / 10 ** OTP_LENGTH;
    // Each wrong code checked is at most one guess; at most n are checked in any 24 hours.
    expect(n).toBe(10);
    expect(1 - (1 - perGuess) ** n).toBeLessThan(1 / 1000);
    // Even the union bound (guesses never repeat within a code) stays at 1 in 1,000.
    expect(n * perGuess).toBeLessThanOrEqual(1 / 1000);
    expect(() =>
      loadConfig({
        NODE_ENV: 'test',
        AUTH_SECRET: 'x'.repeat(32),
        DATA_DIR: '/tmp',
        OTP_DAILY_FAILURES: '11',
      }),
    ).toThrow(/OTP_DAILY_FAILURES: must be at most 10/);
  });
});

describe('sign-in limits in the configuration', () => {
  const load = (env: Record<string, string>) =>
    loadConfig({ NODE_ENV: 'test', AUTH_SECRET: 'x'.repeat(32), DATA_DIR: '/tmp', ...env });

  it('has the documented defaults', () => {
    expect(load({}).auth).toMatchObject({
      dailyFailures: 10,
      backoffAfterFailures: 5,
      backoffBaseSeconds: 60,
      allowedCountryCodes: ['+91'],
      globalHourlySendLimit: 1000,
    });
    expect(load({ OTP_ALLOWED_COUNTRY_CODES: ' +91, +94 ,+977' }).auth.allowedCountryCodes).toEqual(
      ['+91', '+94', '+977'],
    );
  });

  it('names a bad value', () => {
    expect(() => load({ OTP_ALLOWED_COUNTRY_CODES: '91' })).toThrow(
      /OTP_ALLOWED_COUNTRY_CODES: must be comma-separated country calling codes/,
    );
    expect(() => load({ OTP_ALLOWED_COUNTRY_CODES: ',' })).toThrow(/OTP_ALLOWED_COUNTRY_CODES/);
    expect(() => load({ OTP_GLOBAL_HOURLY_LIMIT: '0' })).toThrow(/OTP_GLOBAL_HOURLY_LIMIT/);
    expect(() => load({ OTP_BACKOFF_BASE_SECONDS: '-1' })).toThrow(/OTP_BACKOFF_BASE_SECONDS/);
    expect(() => load({ SUPER_USER_PHONES: '+14155550100' })).toThrow(
      /SUPER_USER_PHONES: \+14155550100 is outside OTP_ALLOWED_COUNTRY_CODES/,
    );
    expect(
      load({ SUPER_USER_PHONES: '+14155550100', OTP_ALLOWED_COUNTRY_CODES: '+1' }).auth,
    ).toBeDefined();
  });
});
