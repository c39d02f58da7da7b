import { z } from 'zod';
import { TimestampSchema } from './common.js';

/** The spec's payment transaction states; the provider's own words (PhonePe). */
export const PAYMENT_STATES = ['COMPLETED', 'PENDING', 'FAILED'] as const;
export const PaymentStateSchema = z.enum(PAYMENT_STATES);
export type PaymentState = z.infer<typeof PaymentStateSchema>;

const positiveId = (name: string) =>
  z.coerce
    .number({ error: `${name} is required.` })
    .int(`${name} must be a positive whole number.`)
    .positive(`${name} must be a positive whole number.`);

/** POST payments/create: the price of the device at this moment is recorded. */
export const PaymentCreateSchema = z.object({
  device_id: positiveId('device_id'),
  template_id: positiveId('template_id'),
});
export type PaymentCreate = z.infer<typeof PaymentCreateSchema>;
export const PaymentCreateResultSchema = z.object({ txn_id: z.number().int().positive() });
export type PaymentCreateResult = z.infer<typeof PaymentCreateResultSchema>;

/** POST payments/checkout: where the provider sends the visitor back afterwards. */
export const PaymentCheckoutSchema = z.object({
  txn_id: positiveId('txn_id'),
  redirect_url: z.url({ error: 'redirect_url must be an absolute http(s) URL.' }).max(2000),
});
export type PaymentCheckout = z.infer<typeof PaymentCheckoutSchema>;
export const PaymentCheckoutResultSchema = z.object({ payment_url: z.string() });
export type PaymentCheckoutResult = z.infer<typeof PaymentCheckoutResultSchema>;

/** GET payments/{id}/status. */
export const PaymentStatusSchema = z.object({ state: PaymentStateSchema });
export type PaymentStatus = z.infer<typeof PaymentStatusSchema>;

/**
 * An item of GET transactions (visitor spec section 3): the order id field is named after the
 * payment provider (`phonepe_order_id`; the sandbox's orders use the same field).
 */
export const TransactionSchema = z.object({
  id: z.number().int().positive(),
  phonepe_order_id: z.string().nullable(),
  amount_rupees: z.number(),
  state: z.string(),
  created_at: TimestampSchema,
  org_name: z.string().nullable(),
  device_name: z.string().nullable(),
});
export type Transaction = z.infer<typeof TransactionSchema>;

export const TransactionListSchema = z.object({
  items: z.array(TransactionSchema),
  total_count: z.number().int(),
});
export type TransactionList = z.infer<typeof TransactionListSchema>;
