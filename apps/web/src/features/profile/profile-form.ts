import type { Pool, ProfilePatchBody, User } from '@flashbooth/contracts';
import {
  formatDobForDisplay,
  isValidEmail,
  parseDisplayDob,
  PROFILE_MESSAGES,
} from '@flashbooth/contracts/rules';

/** Profile texts (spec: visitor.md sections 5 and 8). */
export const PROFILE_SCREEN_MESSAGES = {
  loadFailed: 'Failed to load profile.',
  noChanges: 'No changes to save.',
  fixEmail: 'Please fix email validation error.',
  fixDob: 'Please fix date of birth validation error.',
  dobAfterFormatting: 'Invalid Date of Birth format after formatting.',
  updated: 'Profile updated successfully!',
  updateFailed: 'Failed to update profile.',
  signOutConfirm: 'Are you sure you want to Sign Out?',
  signOutFailed: 'Sign out failed, but attempting to clear session.',
} as const;

export const GENDER_CHOICES = ['Male', 'Female', 'Other'] as const;
/** '' is the "—" (not set) choice. */
export type GenderChoice = '' | (typeof GENDER_CHOICES)[number];

export interface ProfileFormValues {
  name: string;
  email: string;
  /** As typed: dd/mm/yyyy or empty. */
  dob: string;
  gender: GenderChoice;
  /** The "Specify Gender" text, used when gender is Other. */
  genderCustom: string;
}

/** Spec: a stored gender other than Male or Female shows as Other with the custom text. */
export function genderToForm(stored: string | null | undefined): {
  gender: GenderChoice;
  genderCustom: string;
} {
  if (!stored) return { gender: '', genderCustom: '' };
  if (stored === 'Male' || stored === 'Female') return { gender: stored, genderCustom: '' };
  return { gender: 'Other', genderCustom: stored };
}

/** Spec: Other sends the trimmed custom text; empty text means no gender. */
export function genderFromForm(gender: GenderChoice, genderCustom: string): string | null {
  if (gender === '') return null;
  if (gender === 'Other') return genderCustom.trim() || null;
  return gender;
}

export function formFromUser(user: User): ProfileFormValues {
  return {
    name: user.name,
    email: user.email ?? '',
    dob: formatDobForDisplay(user.dob),
    ...genderToForm(user.gender),
  };
}

/** Spec: "₹" with two decimals, 0.00 when missing. */
export function formatCredits(credits: number | null | undefined): string {
  return `₹${(typeof credits === 'number' && Number.isFinite(credits) ? credits : 0).toFixed(2)}`;
}

/** The email field's message, or null. An empty email is allowed (it clears the address). */
export function emailError(value: string): string | null {
  const email = value.trim();
  return email === '' || isValidEmail(email) ? null : PROFILE_MESSAGES.email;
}

/** The date-of-birth field's message, or null; the age rule differs by pool. */
export function dobError(pool: Pool, value: string, today: Date): string | null {
  if (value.trim() === '') return null;
  return parseDisplayDob(pool, value, today).error;
}

export type ProfilePatchResult =
  | { kind: 'ok'; patch: ProfilePatchBody }
  | { kind: 'empty' }
  | { kind: 'invalid'; message: string };

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Validates the form and returns only the fields that differ from the stored user,
 * or why nothing can be sent (the save button's message).
 */
export function buildProfilePatch(
  user: User,
  form: ProfileFormValues,
  pool: Pool,
  today: Date,
): ProfilePatchResult {
  if (emailError(form.email)) return { kind: 'invalid', message: PROFILE_SCREEN_MESSAGES.fixEmail };

  let dob: string | null = null;
  if (form.dob.trim() !== '') {
    const parsed = parseDisplayDob(pool, form.dob, today);
    if (parsed.error !== null) return { kind: 'invalid', message: PROFILE_SCREEN_MESSAGES.fixDob };
    if (!ISO_DATE.test(parsed.iso)) {
      return { kind: 'invalid', message: PROFILE_SCREEN_MESSAGES.dobAfterFormatting };
    }
    dob = parsed.iso;
  }

  const patch: ProfilePatchBody = {};
  const name = form.name.trim();
  if (name !== user.name) patch.name = name;

  const email = form.email.trim() || null;
  if (email !== (user.email || null)) patch.email = email;

  const storedDob = user.dob ? user.dob.slice(0, 10) : null;
  if (dob !== storedDob) patch.dob = dob;

  const gender = genderFromForm(form.gender, form.genderCustom);
  if (gender !== (user.gender || null)) patch.gender = gender;

  return Object.keys(patch).length === 0 ? { kind: 'empty' } : { kind: 'ok', patch };
}

/**
 * Helps typing dd/mm/yyyy on a numeric keypad: adds the slashes as digits are typed and
 * formats a pasted ddmmyyyy. Deleting and unusual input are left alone for validation.
 */
export function autoFormatDob(previous: string, next: string): string {
  if (next.length <= previous.length || /[^\d/]/.test(next)) return next;
  if (/^\d{8}$/.test(next)) return `${next.slice(0, 2)}/${next.slice(2, 4)}/${next.slice(4)}`;
  if (/^\d{2}$/.test(next) || /^\d{2}\/\d{2}$/.test(next)) return `${next}/`;
  return next;
}
