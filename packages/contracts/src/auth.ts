import { z } from 'zod';
import { hasNoNul, nulMessage } from './common.js';
import { PhoneSchema } from './phone.js';
import { OTP_LENGTH } from './rules.js';
import {
  isSameSitePath,
  SIGN_IN_LINK_MESSAGES,
  SIGN_IN_LINK_TOKEN_PATTERN,
} from './sign-in-link-rules.js';
import { UserSchema } from './users.js';

/**
 * A page on this site to return to after sign-in (the stored redirect-after-login path); the
 * SMS's sign-in link carries it, so a link opened in another tab still returns there.
 */
export const ReturnPathSchema = z
  .string()
  .refine(isSameSitePath, SIGN_IN_LINK_MESSAGES.returnPath)
  .optional();
export type ReturnPath = z.infer<typeof ReturnPathSchema>;

export const SignInRequestSchema = z.object({ phone: PhoneSchema, next: ReturnPathSchema });
export type SignInRequest = z.infer<typeof SignInRequestSchema>;
export const SignInResponseSchema = z.object({ status: z.literal('code_sent') });
export type SignInResponse = z.infer<typeof SignInResponseSchema>;

export const SignUpRequestSchema = z.object({
  phone: PhoneSchema,
  name: z
    .string()
    .trim()
    .min(1, 'Please enter your full name.')
    .refine(hasNoNul, nulMessage('Name'))
    .max(100, 'Name must be at most 100 characters.'),
  next: ReturnPathSchema,
});
export type SignUpRequest = z.infer<typeof SignUpRequestSchema>;
export const SignUpResponseSchema = z.object({ status: z.literal('code_sent') });
export type SignUpResponse = z.infer<typeof SignUpResponseSchema>;

export const VerifyRequestSchema = z.object({
  phone: PhoneSchema,
  code: z.string().regex(new RegExp(`^\\d{${OTP_LENGTH}}$`), 'Please enter the 4-digit OTP.'),
});
export type VerifyRequest = z.infer<typeof VerifyRequestSchema>;
export const VerifyResponseSchema = z.object({
  access_token: z.string(),
  expires_in: z.number().int(),
  user: UserSchema,
});
export type VerifyResponse = z.infer<typeof VerifyResponseSchema>;

/** POST auth/link: the token of a one-tap sign-in link; answered exactly like auth/verify. */
export const SignInLinkRequestSchema = z.object({
  token: z
    .string({ error: SIGN_IN_LINK_MESSAGES.invalid })
    .regex(SIGN_IN_LINK_TOKEN_PATTERN, SIGN_IN_LINK_MESSAGES.invalid),
});
export type SignInLinkRequest = z.infer<typeof SignInLinkRequestSchema>;

export const RefreshResponseSchema = z.object({
  access_token: z.string(),
  expires_in: z.number().int(),
});
export type RefreshResponse = z.infer<typeof RefreshResponseSchema>;

export const SignOutResponseSchema = z.object({ status: z.literal('signed_out') });
export type SignOutResponse = z.infer<typeof SignOutResponseSchema>;

export const DevSmsQuerySchema = z.object({ phone: PhoneSchema });
export type DevSmsQuery = z.infer<typeof DevSmsQuerySchema>;
export const DevSmsItemSchema = z.object({
  phone: z.string(),
  text: z.string(),
  code: z.string().nullable(),
  created_at: z.string(),
});
export type DevSmsItem = z.infer<typeof DevSmsItemSchema>;
export const DevSmsResponseSchema = z.object({ items: z.array(DevSmsItemSchema) });
export type DevSmsResponse = z.infer<typeof DevSmsResponseSchema>;
