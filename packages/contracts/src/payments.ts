import { z } from 'zod';
import {
  hasNoNul,
  idTextSchema,
  limitSchema,
  NextCursorSchema,
  nulMessage,
  OffsetSchema,
  TimestampSchema,
} from './common.js';

/** The spec's payment transaction states; the provider's own words (PhonePe). */
export const PAYMENT_STATES = ['COMPLETED', 'PENDING', 'FAILED'] as const;
export const PaymentStateSchema = z.enum(PAYMENT_STATES);
export type PaymentState = z.infer<typeof PaymentStateSchema>;

const positiveId = (name: string) =>
  idTextSchema(`${name} must be a positive whole number.`, `${name} is required.`);

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
  redirect_url: z
    .url({ error: 'redirect_url must be an absolute http(s) URL.' })
    .max(2000)
    .refine(hasNoNul, 'redirect_url must be an absolute http(s) URL.'),
});
export type PaymentCheckout = z.infer<typeof PaymentCheckoutSchema>;
export const PaymentCheckoutResultSchema = z.object({ payment_url: z.string() });
export type PaymentCheckoutResult = z.infer<typeof PaymentCheckoutResultSchema>;

/**
 * GET payments/{id}/status. `state` is the spec's; the rest (issue 37) lets the screen say how a
 * payment ended and go on from the server's record, not from its address: `reason` why a FAILED
 * payment failed (the visitor cancelled it, the checkout expired, the provider declined it), and
 * the booth and template the payment is for now (a visit's pick moves an open payment).
 */
export const PaymentStatusSchema = z.object({
  state: PaymentStateSchema,
  reason: z.enum(['cancelled', 'expired', 'declined']).nullable().optional(),
  device_id: z.number().int().nullable().optional(),
  template_id: z.number().int().nullable().optional(),
});
export type PaymentStatus = z.infer<typeof PaymentStatusSchema>;

/**
 * An item of GET transactions (visitor spec section 3): the order id field is named after the
 * payment provider (`phonepe_order_id`; the sandbox's orders use the same field).
 */
/** What a transaction's delivery-failure notice says (the web words it). */
export const DeliveryFailureNoticeSchema = z.object({
  /** When the deadline passed without every item. */
  failed_at: TimestampSchema,
  /** How long the promise is (DELIVERY_DEADLINE_MINUTES). */
  deadline_minutes: z.number().int(),
  /** payment: to the payment method; credit: as Flashbooth credit (the method refused it). */
  refund_to: z.enum(['payment', 'credit', 'none']),
  refund_rupees: z.number(),
  /** The refund to the payment method is still on its way (the provider has not confirmed it). */
  refund_pending: z.boolean(),
  items_promised: z.number().int(),
  /** Items that had arrived by the deadline, and by now (later ones are in My Media). */
  items_delivered: z.number().int(),
  items_arrived: z.number().int(),
});
export type DeliveryFailureNotice = z.infer<typeof DeliveryFailureNoticeSchema>;

export const TransactionSchema = z.object({
  id: z.number().int().positive(),
  /**
   * payment: a payment through the provider; credit: a capture paid with credit (issue 37: every
   * use of credit is a line). Optional for older fixtures (payment).
   */
  kind: z.enum(['payment', 'credit']).optional(),
  /** Why a FAILED payment failed (cancelled, expired, declined, amount_mismatch). */
  failure_reason: z.string().nullable().optional(),
  /** Where a refunded payment's money went: the payment method, or the visitor's credit. */
  refund_to: z.enum(['payment', 'credit']).nullable().optional(),
  /** The template the payment or capture was for, as it is named now. */
  template_name: z.string().nullable().optional(),
  phonepe_order_id: z.string().nullable(),
  /** What the visitor paid (or is asked to pay) the payment provider. */
  amount_rupees: z.number(),
  /**
   * Credit the payment held on top of the amount (price minus amount; 0 when none). Optional in
   * the schema only so that older clients' fixtures still type-check; the server always sends it.
   */
  credit_rupees: z.number().optional(),
  state: z.string(),
  created_at: TimestampSchema,
  org_name: z.string().nullable(),
  device_name: z.string().nullable(),
  /**
   * Set when the capture this payment paid for failed its delivery promise (its photos did not
   * all arrive within the deadline) and was refunded automatically. Optional for older fixtures.
   */
  delivery_failure: DeliveryFailureNoticeSchema.nullable().optional(),
});
export type Transaction = z.infer<typeof TransactionSchema>;

export const TransactionListSchema = z.object({
  items: z.array(TransactionSchema),
  total_count: z.number().int(),
  next_cursor: NextCursorSchema,
});
export type TransactionList = z.infer<typeof TransactionListSchema>;

// ---- Credits (product addition, not in the spec): staff grants and the ledger behind a balance.

/** Why a visitor's credit changed: every change is one ledger entry. */
export const CREDIT_LEDGER_REASONS = [
  'capture',
  'refund',
  'grant',
  'payment_hold',
  'payment_release',
] as const;
export const CreditLedgerReasonSchema = z.enum(CREDIT_LEDGER_REASONS);
export type CreditLedgerReason = z.infer<typeof CreditLedgerReasonSchema>;

export const CREDIT_GRANT_MAX_RUPEES = 10_000;
export const CREDIT_NOTE_MAX = 200;

export const CREDIT_MESSAGES = {
  amountRequired: 'amount_rupees is required.',
  amountNumber: 'amount_rupees must be a number of rupees.',
  amountPositive: 'amount_rupees must be more than 0.',
  amountMax: `amount_rupees must be at most ${CREDIT_GRANT_MAX_RUPEES}.`,
  amountDecimals: 'amount_rupees must have at most two decimals.',
  noteText: 'note must be text.',
  noteMax: `note must be at most ${CREDIT_NOTE_MAX} characters.`,
  grantStaffOnly: 'Only super users and product admins can grant credits.',
  ledgerStaffOnly: "Only super users and product admins can see a visitor's credit ledger.",
  visitorNotFound: 'User not found.',
} as const;

/** Whether a rupee amount has at most two decimals (binary fractions tolerated: 0.1 + 0.2). */
function hasTwoDecimals(rupees: number): boolean {
  const paise = rupees * 100;
  return Math.abs(paise - Math.round(paise)) < 1e-6;
}

/** POST /api/enterprise/users/{id}/credits: rupees added to a visitor's credit, with a note. */
export const CreditGrantSchema = z.object({
  amount_rupees: z
    .number({
      error: (issue) =>
        issue.input === undefined || issue.input === null
          ? CREDIT_MESSAGES.amountRequired
          : CREDIT_MESSAGES.amountNumber,
    })
    .positive(CREDIT_MESSAGES.amountPositive)
    .max(CREDIT_GRANT_MAX_RUPEES, CREDIT_MESSAGES.amountMax)
    .refine(hasTwoDecimals, CREDIT_MESSAGES.amountDecimals)
    // Less than half a paisa (2.2e-16 passes the two checks above) would be a grant of 0 paise,
    // which the ledger refuses (found by the fuzz suite).
    .refine((rupees) => Math.round(rupees * 100) >= 1, CREDIT_MESSAGES.amountPositive),
  /** Why (shown in the ledger); trimmed, empty means none. */
  note: z
    .string({ error: CREDIT_MESSAGES.noteText })
    .trim()
    .refine(hasNoNul, nulMessage('note'))
    .max(CREDIT_NOTE_MAX, CREDIT_MESSAGES.noteMax)
    .nullable()
    .optional()
    .transform((value) => (value ? value : null)),
});
export type CreditGrant = z.infer<typeof CreditGrantSchema>;

/** GET /api/enterprise/users/{id}/credits/ledger: newest first. */
export const CreditLedgerQuerySchema = z.object({
  limit: limitSchema(10),
  offset: OffsetSchema,
});
export type CreditLedgerQuery = z.infer<typeof CreditLedgerQuerySchema>;

export const CreditLedgerEntrySchema = z.object({
  id: z.number().int().positive(),
  /** Added (positive) or taken (negative). */
  delta_rupees: z.number(),
  reason: CreditLedgerReasonSchema,
  note: z.string().nullable(),
  created_at: TimestampSchema,
  /** The payment that held, gave back or was refunded as this credit. */
  payment_transaction_id: z.number().int().nullable(),
  /** The capture charged or refunded. */
  capture_id: z.string().nullable(),
  /** Grants: the staff member, while the account exists. */
  granted_by: z.number().int().nullable(),
  granted_by_name: z.string().nullable(),
});
export type CreditLedgerEntry = z.infer<typeof CreditLedgerEntrySchema>;

export const CreditLedgerListSchema = z.object({
  items: z.array(CreditLedgerEntrySchema),
  total_count: z.number().int(),
  /** The visitor's balance now: the sum of every entry. */
  credits_rupees: z.number(),
});
export type CreditLedgerList = z.infer<typeof CreditLedgerListSchema>;
