import { z } from 'zod';
import { E164_PATTERN } from './rules.js';

export const PhoneSchema = z
  .string()
  .trim()
  .transform((value) => value.replace(/[^\d+]/g, ''))
  .refine((value) => E164_PATTERN.test(value), {
    message: 'Please enter a valid phone number.',
  });
export type Phone = z.infer<typeof PhoneSchema>;
