import { describe, expect, it } from 'vitest';
import { PhoneSchema } from './phone.js';
import {
  ageOn,
  formatDobForDisplay,
  isPhoneText,
  isValidEmail,
  normalizePhoneInput,
  phoneFromText,
  parseDisplayDob,
} from './rules.js';
import { profilePatchSchema } from './users.js';

const today = new Date(Date.UTC(2026, 10, 21));

describe('profile validators', () => {
  it('accepts emails that look like name@domain.tld', () => {
    expect(isValidEmail('a@b.co')).toBe(true);
    expect(isValidEmail('a@b')).toBe(false);
    expect(isValidEmail('a b@c.de')).toBe(false);
  });

  it('counts whole years, before and after the birthday', () => {
    expect(ageOn('2016-11-21', today)).toBe(10);
    expect(ageOn('2016-11-22', today)).toBe(9);
  });

  it('parses dd/mm/yyyy with the spec messages', () => {
    expect(parseDisplayDob('regular', '14/05/1995', today)).toEqual({
      iso: '1995-05-14',
      error: null,
    });
    expect(parseDisplayDob('regular', '1995-05-14', today).error).toBe(
      'Please enter the date in dd/mm/yyyy format',
    );
    expect(parseDisplayDob('regular', '31/02/1995', today).error).toBe('Please enter a valid date');
    expect(parseDisplayDob('regular', '22/11/2016', today).error).toBe(
      'Age must be between 10 and 100 years',
    );
    expect(parseDisplayDob('regular', '20/11/1925', today).error).toBe(
      'Age must be between 10 and 100 years',
    );
    expect(parseDisplayDob('enterprise', '22/11/2016', today).error).toBe(
      'You must be at least 10 years old',
    );
    expect(parseDisplayDob('enterprise', '20/11/1925', today).error).toBe(
      'Please enter a valid date of birth',
    );
    expect(parseDisplayDob('enterprise', '21/11/2016', today).error).toBeNull();
  });

  it('formats stored dates for display', () => {
    expect(formatDobForDisplay('1995-05-14')).toBe('14/05/1995');
    expect(formatDobForDisplay(null)).toBe('');
  });

  it('validates a profile patch by pool', () => {
    const schema = profilePatchSchema('regular', () => today);
    expect(schema.safeParse({ email: '' }).data).toEqual({ email: null });
    expect(schema.safeParse({ gender: '  Other text ' }).data).toEqual({ gender: 'Other text' });
    expect(schema.safeParse({}).error?.issues[0]?.message).toBe('No changes to save.');
    expect(schema.safeParse({ phone: '+91' }).success).toBe(false);
  });
});

describe('phone input', () => {
  it('keeps only digits and plus, as the login screen sends it', () => {
    expect(normalizePhoneInput('+91', '98765 43210')).toBe('+919876543210');
    expect(normalizePhoneInput('+1', '(415) 555-0100')).toBe('+14155550100');
  });
  it('accepts E.164 only', () => {
    expect(PhoneSchema.safeParse('+919876543210').data).toBe('+919876543210');
    expect(PhoneSchema.safeParse('919876543210').success).toBe(false);
    expect(PhoneSchema.safeParse('+0919876543').success).toBe(false);
  });
  it('refuses letters and other signs, even beside enough digits (issue 20 item 9)', () => {
    for (const text of ['abc', '+9198765abc43210', '+91 98765 43210 x', '+91#9876543210']) {
      expect(PhoneSchema.safeParse(text).error?.issues.map((issue) => issue.message)).toEqual([
        'Please enter a valid phone number.',
      ]);
    }
    expect(PhoneSchema.safeParse(' +91 (98765) 432-10 ').data).toBe('+919876543210');
  });
  it('reads a phone as written, or says it is none', () => {
    expect(phoneFromText('+91 80 4000 1234')).toBe('+918040001234');
    expect(phoneFromText('+1 (415) 555-0100')).toBe('+14155550100');
    expect(phoneFromText('+91 80 4000 abcd')).toBeNull();
    expect(phoneFromText('080 4000 1234')).toBeNull();
    expect(isPhoneText('+91-98765 43210')).toBe(true);
    expect(isPhoneText('98765abc')).toBe(false);
  });
});
