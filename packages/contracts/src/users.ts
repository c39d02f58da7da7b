import { z } from 'zod';
import { PoolSchema, type Pool } from './common.js';

export const ORG_ROLES = ['member', 'admin'] as const;
export const OrgRoleSchema = z.enum(ORG_ROLES);

export const UserSchema = z.object({
  id: z.number().int(),
  phone: z.string(),
  name: z.string(),
  email: z.string().nullable(),
  /** yyyy-mm-dd */
  dob: z.string().nullable(),
  gender: z.string().nullable(),
  type: PoolSchema,
  is_super_user: z.boolean(),
  is_flashbooth_admin: z.boolean(),
  /** Visitors only. */
  credits_rupees: z.number().optional(),
  /** Staff only. */
  organizations: z.array(z.object({ org_id: z.number().int(), role: OrgRoleSchema })).optional(),
});
export type User = z.infer<typeof UserSchema>;

export const UserIdParamSchema = z.object({
  id: z.union([z.literal('self'), z.coerce.number().int().positive()]),
});

export const PROFILE_MESSAGES = {
  email: 'Please enter a valid email address',
  dobFormat: 'Please enter the date in dd/mm/yyyy format',
  dobInvalid: 'Please enter a valid date',
  regularAge: 'Age must be between 10 and 100 years',
  enterpriseTooYoung: 'You must be at least 10 years old',
  enterpriseTooOld: 'Please enter a valid date of birth',
  name: 'Please enter your full name.',
} as const;

export const MIN_AGE = 10;
export const MAX_AGE = 100;

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isValidEmail(value: string): boolean {
  return EMAIL_PATTERN.test(value) && value.length <= 254;
}

/** Whole years between a yyyy-mm-dd date of birth and today (UTC). */
export function ageOn(dobIso: string, today: Date): number {
  const [y, m, d] = dobIso.split('-').map(Number) as [number, number, number];
  let age = today.getUTCFullYear() - y;
  const beforeBirthday =
    today.getUTCMonth() + 1 < m || (today.getUTCMonth() + 1 === m && today.getUTCDate() < d);
  if (beforeBirthday) age -= 1;
  return age;
}

/** True when y-m-d names a day that exists. */
export function isRealDate(y: number, m: number, d: number): boolean {
  if (y < 1 || m < 1 || m > 12 || d < 1) return false;
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** The age rule differs by pool: one message for visitors, two for staff. */
export function ageError(pool: Pool, age: number): string | null {
  if (pool === 'regular') {
    return age < MIN_AGE || age > MAX_AGE ? PROFILE_MESSAGES.regularAge : null;
  }
  if (age < MIN_AGE) return PROFILE_MESSAGES.enterpriseTooYoung;
  if (age > MAX_AGE) return PROFILE_MESSAGES.enterpriseTooOld;
  return null;
}

/** Validates a yyyy-mm-dd date of birth as the server receives it. */
export function isoDobError(pool: Pool, iso: string, today: Date): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!match) return PROFILE_MESSAGES.dobFormat;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (!isRealDate(y, m, d)) return PROFILE_MESSAGES.dobInvalid;
  return ageError(pool, ageOn(iso, today));
}

/** Parses the screen's dd/mm/yyyy into yyyy-mm-dd, or returns the spec's message. */
export function parseDisplayDob(
  pool: Pool,
  display: string,
  today: Date,
): { iso: string; error: null } | { iso: null; error: string } {
  const match = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(display.trim());
  if (!match) return { iso: null, error: PROFILE_MESSAGES.dobFormat };
  const iso = `${match[3]}-${match[2]}-${match[1]}`;
  const error = isoDobError(pool, iso, today);
  return error ? { iso: null, error } : { iso, error: null };
}

/** yyyy-mm-dd → dd/mm/yyyy for display; empty when absent. */
export function formatDobForDisplay(iso: string | null | undefined): string {
  if (!iso) return '';
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  return match ? `${match[3]}/${match[2]}/${match[1]}` : '';
}

/** The PATCH users/{id|self} body, validated with the profile rules of the user's pool. */
export function profilePatchSchema(pool: Pool, today: () => Date = () => new Date()) {
  return z
    .object({
      name: z.string().trim().min(1, PROFILE_MESSAGES.name).max(100).optional(),
      email: z
        .string()
        .trim()
        .nullable()
        .optional()
        .transform((value) => (value === '' ? null : value))
        .refine((value) => value == null || isValidEmail(value), PROFILE_MESSAGES.email),
      dob: z
        .string()
        .trim()
        .nullable()
        .optional()
        .transform((value) => (value === '' ? null : value))
        .superRefine((value, ctx) => {
          if (value == null) return;
          const error = isoDobError(pool, value, today());
          if (error) ctx.addIssue({ code: 'custom', message: error });
        }),
      gender: z
        .string()
        .trim()
        .max(50, 'Gender must be at most 50 characters.')
        .nullable()
        .optional()
        .transform((value) => (value === '' ? null : value)),
    })
    .strict()
    .refine((body) => Object.keys(body).length > 0, 'No changes to save.');
}
export type ProfilePatch = z.infer<ReturnType<typeof profilePatchSchema>>;
