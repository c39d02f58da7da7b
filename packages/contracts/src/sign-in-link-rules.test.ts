import { describe, expect, it } from 'vitest';
import {
  isCodeBudgetSpent,
  isSameSitePath,
  readSignInLinkFragment,
  signInLinkPath,
} from './sign-in-link-rules.js';

const TOKEN = 'abcDEF0123456789_-abcDEF0123456789_-abcDEF0';

describe('sign-in link rules', () => {
  it('accepts only paths on this site as the page to return to', () => {
    for (const path of ['/', '/b/12', '/b/12?template=3#pay', '/regular/media?search=a%20b']) {
      expect(isSameSitePath(path)).toBe(true);
    }
    for (const path of [
      '',
      'b/12',
      '//evil.example/',
      '/\\evil.example',
      'https://evil.example/',
      'javascript:alert(1)',
      '/b/12\n',
      '/b/\u000012',
      `/${'a'.repeat(512)}`,
    ]) {
      expect(isSameSitePath(path)).toBe(false);
    }
  });

  it('puts the token (and a same-site page to return to) in the fragment of the login page', () => {
    expect(signInLinkPath('regular', TOKEN)).toBe(`/regular/login#link=${TOKEN}`);
    expect(signInLinkPath('enterprise', TOKEN, '/enterprise/devices/3?tab=errors')).toBe(
      `/enterprise/login#link=${TOKEN}&next=%2Fenterprise%2Fdevices%2F3%3Ftab%3Derrors`,
    );
    // A page elsewhere is left out rather than carried.
    expect(signInLinkPath('regular', TOKEN, '//evil.example')).toBe(`/regular/login#link=${TOKEN}`);
  });

  it('reads back what it writes, and nothing that is not a link', () => {
    const path = signInLinkPath('regular', TOKEN, '/b/12?template=3#pay');
    expect(readSignInLinkFragment(path.slice(path.indexOf('#')))).toEqual({
      token: TOKEN,
      next: '/b/12?template=3#pay',
    });
    expect(readSignInLinkFragment('')).toBeNull();
    expect(readSignInLinkFragment('#contact')).toBeNull();
    expect(readSignInLinkFragment(`#link=${TOKEN}&next=%2F%2Fevil.example`)).toEqual({
      token: TOKEN,
      next: null,
    });
    // A truncated token is still handed on: the server answers it with the clear message.
    expect(readSignInLinkFragment('#link=abc')).toEqual({ token: 'abc', next: null });
  });

  it('recognises the refusal of a spent code budget', () => {
    expect(
      isCodeBudgetSpent({
        message: 'Too many wrong codes for this number. Try again after 14:05 UTC.',
        code: 'too_many_attempts',
        reason: 'code_budget_spent',
        retry_at: '2025-05-14T14:05:00',
        link_sent: true,
      }),
    ).toBe(true);
    expect(isCodeBudgetSpent({ code: 'too_many_attempts', message: 'x' })).toBe(false);
    expect(isCodeBudgetSpent(null)).toBe(false);
    expect(isCodeBudgetSpent({ reason: 'code_budget_spent', retry_at: 5, link_sent: true })).toBe(
      false,
    );
  });
});
