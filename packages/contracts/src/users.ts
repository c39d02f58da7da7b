import { z } from 'zod';
import { hasNoNul, idTextSchema, nulMessage, PoolSchema, type Pool } from './common.js';
import { isoDobError, isValidEmail, PROFILE_MESSAGES } from './rules.js';

export const ORG_ROLES = ['member', 'admin'] as const;
export const OrgRoleSchema = z.enum(ORG_ROLES);
export type OrgRole = z.infer<typeof OrgRoleSchema>;

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
  id: z.union([z.literal('self'), idTextSchema('id must be self or a positive whole number.')]),
});
export type UserIdParam = z.infer<typeof UserIdParamSchema>;

/** The PATCH users/{id|self} body, validated with the profile rules of the user's pool. */
export function profilePatchSchema(pool: Pool, today: () => Date = () => new Date()) {
  return z
    .object({
      name: z
        .string()
        .trim()
        .min(1, PROFILE_MESSAGES.name)
        .refine(hasNoNul, nulMessage('Full name'))
        .max(100)
        .optional(),
      email: z
        .string()
        .trim()
        .refine(hasNoNul, PROFILE_MESSAGES.email)
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
        .refine(hasNoNul, nulMessage('Gender'))
        .max(50, 'Gender must be at most 50 characters.')
        .nullable()
        .optional()
        .transform((value) => (value === '' ? null : value)),
    })
    .strict()
    .refine((body) => Object.keys(body).length > 0, 'No changes to save.');
}
export type ProfilePatch = z.infer<ReturnType<typeof profilePatchSchema>>;
/** What a client sends (the schema's input): only the changed fields, '' or null to clear. */
export type ProfilePatchBody = z.input<ReturnType<typeof profilePatchSchema>>;
