import { z } from 'zod';
import { PHONE_INVALID_MESSAGE, phoneFromText } from './rules.js';

/**
 * A phone as typed or sent ("+91 98765-43210"): only a phone's characters, then E.164 once
 * everything but digits and plus is removed. Answers the E.164 form.
 */
export const PhoneSchema = z
  .string({ error: PHONE_INVALID_MESSAGE })
  .trim()
  .transform((value, ctx) => {
    const phone = phoneFromText(value);
    if (phone === null) {
      ctx.addIssue({ code: 'custom', message: PHONE_INVALID_MESSAGE });
      return z.NEVER;
    }
    return phone;
  });
export type Phone = z.infer<typeof PhoneSchema>;
