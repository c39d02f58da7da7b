import { z } from 'zod';
import { CaptureKindSchema } from './capture-kind.js';
import { idSchema, TimestampSchema } from './common.js';

/**
 * A visitor's visit at a booth (issue 37): where they are at this booth now, drawn from one
 * server-side record. Every visitor screen (the booth page, the capture screen, the payment
 * status screen) starts from it after a reload, Back, an app switch or on a second phone.
 */

/** The payment of the visit's current round. */
export const VISIT_PAYMENT_STATES = [
  /** Created, the checkout may still be paid. */
  'pending',
  /** Paid and not used yet: Capture uses it. */
  'paid',
  /** A capture used it. */
  'used',
  /** The visitor cancelled it at the provider. */
  'cancelled',
  /** The provider declined it (or it was refused for a wrong amount). */
  'failed',
  /** Left open until the checkout expired. */
  'expired',
  /** Paid but never used in time: the amount was added to the visitor's credit. */
  'credited',
  /** Refunded to the payment method (or being refunded). */
  'refunded',
] as const;
export const VisitPaymentStateSchema = z.enum(VISIT_PAYMENT_STATES);
export type VisitPaymentState = z.infer<typeof VisitPaymentStateSchema>;

/** The capture of the visit's current round, as the visitor's screen follows it. */
export const VISIT_CAPTURE_STATES = [
  /** Sent to the booth, not yet accepted. */
  'requested',
  /** The booth counts down before a photo (or before a motion kind's recording). */
  'counting_down',
  /** A motion kind records. */
  'taking_photos',
  /** The photos are taken; the booth composes, prints and uploads. */
  'processing',
  /** Every item arrived. */
  'delivered',
  /** Nothing (or not everything) arrived: given back or refunded. */
  'failed',
] as const;
export const VisitCaptureStateSchema = z.enum(VISIT_CAPTURE_STATES);
export type VisitCaptureState = z.infer<typeof VisitCaptureStateSchema>;

export const VisitPaymentSchema = z.object({
  txn_id: z.number().int().positive(),
  state: VisitPaymentStateSchema,
  /** Paid (or to pay) to the provider. */
  amount_rupees: z.number(),
  /** Credit the payment held on top of the amount. */
  credit_rupees: z.number(),
  /** The provider's page while the payment is pending and its checkout open; null otherwise. */
  payment_url: z.string().nullable(),
  /** When an open checkout expires. */
  expires_at: TimestampSchema,
  updated_at: TimestampSchema,
});
export type VisitPayment = z.infer<typeof VisitPaymentSchema>;

export const VisitCaptureSchema = z.object({
  capture_id: z.string(),
  state: VisitCaptureStateSchema,
  template_id: z.number().int().nullable(),
  capture_kind: CaptureKindSchema,
  media_ids: z.array(z.number().int()),
  /** Items that have arrived so far. */
  uploaded_count: z.number().int(),
  /** The photos the booth counts down for (1 for a motion kind: one countdown, then it records). */
  total_captures: z.number().int(),
  record_seconds: z.number(),
  requested_at: TimestampSchema,
  accepted_at: TimestampSchema.nullable(),
  finished_at: TimestampSchema.nullable(),
  /**
   * Milliseconds since the booth accepted the capture, as of this answer (null before): the
   * screen's countdown starts from it, whatever the phone's clock says.
   */
  since_accepted_ms: z.number().int().nullable(),
  /** Credit the capture took (0: free, or paid by a payment). */
  credit_used_rupees: z.number(),
});
export type VisitCapture = z.infer<typeof VisitCaptureSchema>;

export const VisitSchema = z.object({
  device_id: z.number().int(),
  /** The template picked for this round (null before a pick). */
  template: z
    .object({ id: z.number().int(), name: z.string(), capture_kind: CaptureKindSchema })
    .nullable(),
  /** Yes, I'm Here was answered at this booth lately: the dialog is not asked again. */
  location_confirmed: z.boolean(),
  payment: VisitPaymentSchema.nullable(),
  capture: VisitCaptureSchema.nullable(),
  updated_at: TimestampSchema.nullable(),
});
export type Visit = z.infer<typeof VisitSchema>;

/**
 * POST devices/{id}/visit: Yes, I'm Here, and (with `template_id`) a template pick. An open
 * payment of the visit (pending or paid, not used) moves to the picked template: the price is
 * the booth's, so nothing is asked twice.
 */
export const VisitUpdateSchema = z.object({
  template_id: idSchema('template_id must be a positive whole number.').optional(),
});
export type VisitUpdate = z.infer<typeof VisitUpdateSchema>;
