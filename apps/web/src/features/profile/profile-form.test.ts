import type { User } from '@flashbooth/contracts';
import { describe, expect, it } from 'vitest';
import {
  autoFormatDob,
  buildProfilePatch,
  dobError,
  emailError,
  formatCredits,
  formFromUser,
  genderFromForm,
  genderToForm,
  PROFILE_SCREEN_MESSAGES,
} from './profile-form';

const today = new Date(Date.UTC(2025, 5, 15));

const user: User = {
  id: 7,
  phone: '+919876543210',
  name: 'Asha Rao',
  email: 'asha@example.com',
  dob: '1990-04-02',
  gender: 'Female',
  type: 'regular',
  is_super_user: false,
  is_flashbooth_admin: false,
  credits_rupees: 49.5,
};

describe('gender mapping', () => {
  it('shows Male and Female as themselves and nothing as —', () => {
    expect(genderToForm('Male')).toEqual({ gender: 'Male', genderCustom: '' });
    expect(genderToForm('Female')).toEqual({ gender: 'Female', genderCustom: '' });
    expect(genderToForm(null)).toEqual({ gender: '', genderCustom: '' });
  });
  it('shows any other stored gender as Other with the custom text', () => {
    expect(genderToForm('Non-binary')).toEqual({ gender: 'Other', genderCustom: 'Non-binary' });
  });
  it('sends the trimmed custom text for Other, null when empty', () => {
    expect(genderFromForm('Other', '  Agender ')).toBe('Agender');
    expect(genderFromForm('Other', '   ')).toBeNull();
    expect(genderFromForm('Male', 'ignored')).toBe('Male');
    expect(genderFromForm('', '')).toBeNull();
  });
});

describe('field rules', () => {
  it('formats credits in rupees with two decimals', () => {
    expect(formatCredits(49.5)).toBe('₹49.50');
    expect(formatCredits(undefined)).toBe('₹0.00');
  });
  it('allows an empty email and rejects a malformed one', () => {
    expect(emailError('')).toBeNull();
    expect(emailError(' a@b.co ')).toBeNull();
    expect(emailError('not-an-email')).toBe('Please enter a valid email address');
  });
  it('checks the date of birth by pool', () => {
    expect(dobError('regular', '', today)).toBeNull();
    expect(dobError('regular', '2/4/1990', today)).toBe(
      'Please enter the date in dd/mm/yyyy format',
    );
    expect(dobError('regular', '31/02/1990', today)).toBe('Please enter a valid date');
    expect(dobError('regular', '01/01/2020', today)).toBe('Age must be between 10 and 100 years');
    expect(dobError('enterprise', '01/01/2020', today)).toBe('You must be at least 10 years old');
    expect(dobError('enterprise', '01/01/1900', today)).toBe('Please enter a valid date of birth');
  });
});

describe('buildProfilePatch', () => {
  const form = formFromUser(user);

  it('fills the form from the user', () => {
    expect(form).toEqual({
      name: 'Asha Rao',
      email: 'asha@example.com',
      dob: '02/04/1990',
      gender: 'Female',
      genderCustom: '',
    });
  });
  it('reports no changes for an untouched form', () => {
    expect(buildProfilePatch(user, form, 'regular', today)).toEqual({ kind: 'empty' });
    expect(buildProfilePatch(user, { ...form, name: ' Asha Rao ' }, 'regular', today)).toEqual({
      kind: 'empty',
    });
  });
  it('sends only the changed fields', () => {
    expect(
      buildProfilePatch(user, { ...form, name: 'Asha R', dob: '03/04/1990' }, 'regular', today),
    ).toEqual({ kind: 'ok', patch: { name: 'Asha R', dob: '1990-04-03' } });
  });
  it('clears email and date of birth with null', () => {
    expect(buildProfilePatch(user, { ...form, email: ' ', dob: '' }, 'regular', today)).toEqual({
      kind: 'ok',
      patch: { email: null, dob: null },
    });
  });
  it('sends the custom gender text for Other', () => {
    expect(
      buildProfilePatch(
        user,
        { ...form, gender: 'Other', genderCustom: ' Non-binary ' },
        'regular',
        today,
      ),
    ).toEqual({ kind: 'ok', patch: { gender: 'Non-binary' } });
    expect(
      buildProfilePatch(user, { ...form, gender: 'Other', genderCustom: '' }, 'regular', today),
    ).toEqual({ kind: 'ok', patch: { gender: null } });
  });
  it('keeps an unchanged custom gender unchanged', () => {
    const custom = { ...user, gender: 'Non-binary' };
    expect(buildProfilePatch(custom, formFromUser(custom), 'regular', today)).toEqual({
      kind: 'empty',
    });
  });
  it('blocks saving with an invalid email or date of birth', () => {
    expect(buildProfilePatch(user, { ...form, email: 'bad' }, 'regular', today)).toEqual({
      kind: 'invalid',
      message: PROFILE_SCREEN_MESSAGES.fixEmail,
    });
    expect(buildProfilePatch(user, { ...form, dob: '99/99/1990' }, 'regular', today)).toEqual({
      kind: 'invalid',
      message: PROFILE_SCREEN_MESSAGES.fixDob,
    });
  });
  it('applies the pool age rule', () => {
    const staff: User = { ...user, type: 'enterprise', dob: null, credits_rupees: undefined };
    expect(
      buildProfilePatch(staff, { ...formFromUser(staff), dob: '01/01/1900' }, 'enterprise', today),
    ).toEqual({ kind: 'invalid', message: PROFILE_SCREEN_MESSAGES.fixDob });
  });
});

describe('autoFormatDob', () => {
  it('adds slashes while typing forward', () => {
    expect(autoFormatDob('0', '02')).toBe('02/');
    expect(autoFormatDob('02/0', '02/04')).toBe('02/04/');
    expect(autoFormatDob('02/04/199', '02/04/1990')).toBe('02/04/1990');
  });
  it('formats a pasted ddmmyyyy', () => {
    expect(autoFormatDob('', '02041990')).toBe('02/04/1990');
  });
  it('leaves deletions and unusual text alone', () => {
    expect(autoFormatDob('02/', '02')).toBe('02');
    expect(autoFormatDob('', '2-4-1990')).toBe('2-4-1990');
  });
});
