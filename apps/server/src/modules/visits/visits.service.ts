import {
  CAPTURE_COUNTDOWN_SECONDS,
  type CaptureKind,
  DEVICE_MESSAGES,
  isCaptureKind,
  MEDIA_MESSAGES,
  TEMPLATE_MESSAGES,
  type Visit,
  type VisitCaptureState,
  type VisitPaymentState,
  VISIT_MESSAGES,
  type VisitUpdate,
} from '@flashbooth/contracts';
import { AppError, notFound } from '../../errors.js';
import { paiseToRupees, toApiTimestamp } from '../../lib/time.js';
import type { AccessClaims } from '../../security/access-tokens.js';
import type { VisitRecord, VisitsRepository } from './visits.repository.js';

/** How long a Yes, I'm Here holds: a visitor back from the payment page is not asked again. */
export const LOCATION_CONFIRMED_MINUTES = 60;

export interface VisitsServiceOptions {
  repository: VisitsRepository;
  /** The booth (linked to an organization) a visitor may visit. */
  devices: { findById(id: number): Promise<{ id: number; orgId: number | null } | undefined> };
  /** Whether the organization offers the template (the capture asks the same). */
  templates: {
    exists(templateId: number): Promise<boolean>;
    offeredBy(templateId: number, orgId: number): Promise<boolean>;
  };
  now: () => Date;
}

/** A payment row in the words of a visit. */
export function visitPaymentState(
  payment: NonNullable<VisitRecord['payment']>,
  now: Date,
): VisitPaymentState {
  switch (payment.state) {
    case 'PENDING':
      return payment.paymentUrl !== null && payment.expiresAt.getTime() <= now.getTime()
        ? 'expired'
        : 'pending';
    case 'COMPLETED':
      return payment.consumed ? 'used' : 'paid';
    case 'FAILED':
      if (payment.failureReason === 'cancelled') return 'cancelled';
      if (payment.failureReason === 'expired') return 'expired';
      return 'failed';
    case 'REFUNDED':
      return payment.refundedToCredit ? 'credited' : 'refunded';
    default:
      return 'refunded';
  }
}

/**
 * Where a capture is, from its row, its items and the time since the booth accepted it: the
 * booth counts down 10 s before each photo (a motion kind: once, then records), then composes,
 * prints and uploads; every item arrived is delivered whatever the row says yet.
 */
export function visitCaptureState(
  capture: NonNullable<VisitRecord['capture']>,
  now: Date,
): VisitCaptureState {
  const promised = capture.mediaIds.length;
  if (promised > 0 && capture.uploaded >= promised) return 'delivered';
  if (capture.state === 'failed') return 'failed';
  if (capture.state === 'delivered') return 'delivered';
  if (capture.state === 'requested' || capture.acceptedAt === null) return 'requested';
  const since = now.getTime() - capture.acceptedAt.getTime();
  const countdownMs = CAPTURE_COUNTDOWN_SECONDS * 1000;
  const kind = captureKindOf(capture);
  if (kind === 'photo') {
    return since < Math.max(1, capture.totalCaptures ?? 1) * countdownMs
      ? 'counting_down'
      : 'processing';
  }
  if (since < countdownMs) return 'counting_down';
  if (since < countdownMs + (capture.recordSeconds ?? 0) * 1000) return 'taking_photos';
  return 'processing';
}

function captureKindOf(capture: NonNullable<VisitRecord['capture']>): CaptureKind {
  return capture.captureKind && isCaptureKind(capture.captureKind) ? capture.captureKind : 'photo';
}

/** The visit as its screens read it (GET devices/{id}/visit). */
export function toVisit(deviceId: number, record: VisitRecord | null, now: Date): Visit {
  if (!record) {
    return {
      device_id: deviceId,
      template: null,
      location_confirmed: false,
      payment: null,
      capture: null,
      updated_at: null,
    };
  }
  const { payment, capture } = record;
  const confirmed =
    record.locationConfirmedAt !== null &&
    now.getTime() - record.locationConfirmedAt.getTime() < LOCATION_CONFIRMED_MINUTES * 60_000;
  const paymentState = payment ? visitPaymentState(payment, now) : null;
  const kind = capture ? captureKindOf(capture) : null;
  return {
    device_id: deviceId,
    template:
      record.templateId !== null && record.templateName !== null
        ? {
            id: record.templateId,
            name: record.templateName,
            capture_kind:
              record.templateKind && isCaptureKind(record.templateKind)
                ? record.templateKind
                : 'photo',
          }
        : null,
    location_confirmed: confirmed,
    payment:
      payment && paymentState
        ? {
            txn_id: payment.id,
            state: paymentState,
            amount_rupees: paiseToRupees(payment.amountPaise),
            credit_rupees: paiseToRupees(payment.creditPaise),
            payment_url: paymentState === 'pending' ? payment.paymentUrl : null,
            expires_at: toApiTimestamp(payment.expiresAt),
            updated_at: toApiTimestamp(payment.updatedAt),
          }
        : null,
    capture:
      capture && kind
        ? {
            capture_id: capture.captureId,
            state: visitCaptureState(capture, now),
            template_id: capture.templateId,
            capture_kind: kind,
            media_ids: capture.mediaIds,
            uploaded_count: capture.uploaded,
            // One countdown for a motion kind, as the capture's own answer says.
            total_captures: kind === 'photo' ? (capture.totalCaptures ?? 1) : 1,
            record_seconds: capture.recordSeconds ?? 0,
            requested_at: toApiTimestamp(capture.createdAt),
            accepted_at: capture.acceptedAt ? toApiTimestamp(capture.acceptedAt) : null,
            finished_at: capture.finishedAt ? toApiTimestamp(capture.finishedAt) : null,
            since_accepted_ms: capture.acceptedAt
              ? Math.max(0, Math.round(now.getTime() - capture.acceptedAt.getTime()))
              : null,
            credit_used_rupees: paiseToRupees(capture.chargedPaise),
          }
        : null,
    updated_at: record.updatedAt ? toApiTimestamp(record.updatedAt) : null,
  };
}

/**
 * A visitor's visit at a booth (issue 37; DESIGN.md 4 "The server holds the visitor's place"):
 * one read answers where the visitor is at this booth now, and a pick moves the visit on.
 * Payments and captures write their links to it in their own transactions (visit-links.ts).
 */
export class VisitsService {
  constructor(private readonly options: VisitsServiceOptions) {}

  async current(claims: AccessClaims, deviceId: number): Promise<Visit> {
    await this.booth(deviceId);
    const { repository, now } = this.options;
    return toVisit(deviceId, await repository.current(claims.userId, deviceId), now());
  }

  /** POST devices/{id}/visit: Yes, I'm Here, and a template pick when `template_id` is given. */
  async pick(claims: AccessClaims, deviceId: number, input: VisitUpdate): Promise<Visit> {
    const device = await this.booth(deviceId);
    const { repository, templates, now } = this.options;
    if (input.template_id !== undefined) {
      if (!(await templates.exists(input.template_id))) throw notFound(TEMPLATE_MESSAGES.notFound);
      if (!(await templates.offeredBy(input.template_id, device.orgId))) {
        throw new AppError('bad_request', MEDIA_MESSAGES.templateNotOffered);
      }
    }
    const outcome = await repository.pick({
      userId: claims.userId,
      deviceId,
      templateId: input.template_id,
      at: now(),
    });
    if (outcome === 'capture_in_progress') {
      throw new AppError('capture_in_progress', VISIT_MESSAGES.captureInProgress);
    }
    return toVisit(deviceId, await repository.current(claims.userId, deviceId), now());
  }

  private async booth(deviceId: number) {
    const device = await this.options.devices.findById(deviceId);
    if (!device || device.orgId === null) throw notFound(DEVICE_MESSAGES.notFound);
    return { id: device.id, orgId: device.orgId };
  }
}
