import { z } from 'zod';
import { PhoneSchema } from './phone.js';
import { OTP_LENGTH } from './rules.js';
import { UserSchema } from './users.js';

export const SignInRequestSchema = z.object({ phone: PhoneSchema });
export const SignInResponseSchema = z.object({ status: z.literal('code_sent') });

export const SignUpRequestSchema = z.object({
  phone: PhoneSchema,
  name: z
    .string()
    .trim()
    .min(1, 'Please enter your full name.')
    .max(100, 'Name must be at most 100 characters.'),
});
export const SignUpResponseSchema = z.object({ status: z.literal('code_sent') });

export const VerifyRequestSchema = z.object({
  phone: PhoneSchema,
  code: z.string().regex(new RegExp(`^\\d{${OTP_LENGTH}}$`), 'Please enter the 4-digit OTP.'),
});
export const VerifyResponseSchema = z.object({
  access_token: z.string(),
  expires_in: z.number().int(),
  user: UserSchema,
});
export type VerifyResponse = z.infer<typeof VerifyResponseSchema>;

export const RefreshResponseSchema = z.object({
  access_token: z.string(),
  expires_in: z.number().int(),
});
export type RefreshResponse = z.infer<typeof RefreshResponseSchema>;

export const SignOutResponseSchema = z.object({ status: z.literal('signed_out') });

export const DevSmsQuerySchema = z.object({ phone: PhoneSchema });
export const DevSmsItemSchema = z.object({
  phone: z.string(),
  text: z.string(),
  code: z.string().nullable(),
  created_at: z.string(),
});
export const DevSmsResponseSchema = z.object({ items: z.array(DevSmsItemSchema) });
export type DevSmsItem = z.infer<typeof DevSmsItemSchema>;
