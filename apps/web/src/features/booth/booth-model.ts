import type { Visit, VisitorTemplate } from '@flashbooth/contracts';
import { captureRunning } from '@/api/visits/visit';
import {
  CAPTURE_KIND_LABELS,
  PAYMENT_MESSAGES,
  paymentCreditHold,
  type CaptureKind,
} from '@flashbooth/contracts/rules';

/** Booth texts (spec: visitor.md sections 2, 5 and 8). */
export const BOOTH_MESSAGES = {
  missingDeviceId: 'Missing device_id',
  deviceNotFound: "We couldn't find this photobooth. Please scan the QR code again.",
  deviceLoadFailed: "We couldn't load this photobooth. Please try again.",
  templatesFailed: 'Failed to load templates.',
  userFailed: 'Failed to load user details.',
  stillLoading: 'Data is still loading. Please wait a moment.',
  paymentFailed: PAYMENT_MESSAGES.initiateFailed,
  noTemplates: 'No templates found.',
  /** The pick could not be recorded (the network, the server): nothing was charged. */
  pickFailed: 'We could not reach Flashbooth. Please check your connection and try again.',
} as const;

/** Spec: status messages on the booth area hide after 5 s. */
export const BOOTH_STATUS_MS = 5000;

/** The route's :deviceId as a device id, or null when it is missing or not a positive integer. */
export function parseDeviceId(raw: string | undefined): number | null {
  if (!raw || !/^\d{1,15}$/.test(raw)) return null;
  const id = Number(raw);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** Spec: the rupee with two decimals. */
export function formatRupees(amount: number): string {
  return `₹${amount.toFixed(2)}`;
}

/** Rupee amounts to the paisa, so 49.5 − 0.3 is 49.2 and not 49.199999…. */
function toPaise(rupees: number): number {
  return Math.round(rupees * 100);
}

function creditsOrZero(credits: number | null | undefined): number {
  return typeof credits === 'number' && Number.isFinite(credits) && credits > 0 ? credits : 0;
}

export type PriceBadgeKind = 'free' | 'prepaid' | 'to-pay' | 'price';
export interface PriceBadge {
  kind: PriceBadgeKind;
  label: string;
}

/**
 * Spec (Booth template selection, price badge): FREE when the price is 0; FREE/PREPAID when the
 * credits cover the price; otherwise "To pay" the price minus the credits when there are some
 * credits, else the full "Price". "To pay" is what the server will ask for: the price minus the
 * credit a payment holds, which leaves at least ₹1 for the provider (`paymentCreditHold`).
 */
export function priceBadge(
  priceRupees: number,
  creditsRupees: number | null | undefined,
): PriceBadge {
  const price = toPaise(priceRupees);
  const credits = toPaise(creditsOrZero(creditsRupees));
  if (price <= 0) return { kind: 'free', label: 'FREE' };
  if (credits >= price) return { kind: 'prepaid', label: 'FREE/PREPAID' };
  if (credits > 0) {
    const held = paymentCreditHold(price, credits) ?? 0;
    return { kind: 'to-pay', label: `To pay ${formatRupees((price - held) / 100)}` };
  }
  return { kind: 'price', label: `Price ${formatRupees(price / 100)}` };
}

/** Whether the visitor can go straight to capture: a free booth, or credits that cover the price. */
export function coveredWithoutPayment(
  priceRupees: number,
  creditsRupees: number | null | undefined,
): boolean {
  return toPaise(creditsOrZero(creditsRupees)) >= toPaise(priceRupees);
}

export type PickDecision =
  /** Device or user data is not there yet: "Data is still loading. Please wait a moment." */
  | { kind: 'loading' }
  /** The user record failed and the booth is not free: credits are unknown. */
  | { kind: 'user-failed' }
  | { kind: 'capture' }
  | { kind: 'payment' };

/**
 * Spec (Template pick and payment): while the device or the user record is still loading the
 * pick waits; a free booth, or credits that cover the price, go straight to capture;
 * otherwise a payment is needed. A failed user record only matters when the booth is not free.
 */
export function decidePick(input: {
  priceRupees: number | undefined;
  creditsRupees: number | null | undefined;
  userStatus: 'pending' | 'error' | 'success';
}): PickDecision {
  const { priceRupees, creditsRupees, userStatus } = input;
  if (priceRupees === undefined || userStatus === 'pending') return { kind: 'loading' };
  if (toPaise(priceRupees) <= 0) return { kind: 'capture' };
  if (userStatus === 'error') return { kind: 'user-failed' };
  return coveredWithoutPayment(priceRupees, creditsRupees)
    ? { kind: 'capture' }
    : { kind: 'payment' };
}

/** Spec: cut templates print "2 strips" (Duplicate or Unique Sides), others "1 large print". */
export function printLabel(template: Pick<VisitorTemplate, 'is_cut' | 'is_duplicated'>): {
  title: string;
  detail: string | null;
} {
  if (!template.is_cut) return { title: '1 large print', detail: null };
  return { title: '2 strips', detail: template.is_duplicated ? 'Duplicate' : 'Unique Sides' };
}

/** Whether a motion kind's card promises a print with it (a photo's card names its print). */
export function motionPrintText(prints: boolean): string {
  return prints ? 'Print included' : 'Digital only';
}

/** Spec: previews use 3:2 for landscape and 2:3 for portrait. */
export function previewAspectRatio(orientation: VisitorTemplate['orientation']): string {
  return orientation === 'landscape' ? '3 / 2' : '2 / 3';
}

/** What a motion kind makes, in a few words for its card. */
const MOTION_DETAILS: Record<Exclude<CaptureKind, 'photo'>, string> = {
  gif: 'Stop-motion loop',
  boomerang: 'Back & forth loop',
  video: 'Short video',
};

/**
 * A template card's kind: its badge label (Photo, GIF, Boomerang, Video), whether it moves (its
 * sample gets a short looping animation of the kind) and, for a motion kind, what it makes.
 */
export function captureKindBadge(kind: CaptureKind): {
  label: string;
  motion: boolean;
  detail: string | null;
} {
  if (kind === 'photo') return { label: CAPTURE_KIND_LABELS.photo, motion: false, detail: null };
  return { label: CAPTURE_KIND_LABELS[kind], motion: true, detail: MOTION_DETAILS[kind] };
}

/**
 * What the booth page shows first from the visitor's visit here (issue 37), so a visitor who
 * comes back never pays for a second template by mistake: a capture still under way (back to
 * it), a payment made and not used (its template, Capture now), a checkout still open (back to
 * it), or a payment that became credit. Null: nothing to say.
 */
export type VisitNotice =
  | { kind: 'capturing'; templateId: number; templateName: string | null }
  | { kind: 'paid'; templateId: number; templateName: string; amountRupees: number }
  | {
      kind: 'checkout';
      templateId: number;
      templateName: string;
      amountRupees: number;
      paymentUrl: string;
    }
  | { kind: 'credited'; amountRupees: number };

export function visitNotice(visit: Visit | undefined): VisitNotice | null {
  if (!visit) return null;
  const { capture, payment, template } = visit;
  if (capture && captureRunning(capture.state)) {
    const templateId = capture.template_id ?? template?.id;
    if (templateId !== undefined) {
      return {
        kind: 'capturing',
        templateId,
        templateName: template?.id === templateId ? template.name : null,
      };
    }
  }
  if (!payment || !template) return null;
  const amountRupees = payment.amount_rupees + payment.credit_rupees;
  switch (payment.state) {
    case 'paid':
      return { kind: 'paid', templateId: template.id, templateName: template.name, amountRupees };
    case 'pending':
      return payment.payment_url
        ? {
            kind: 'checkout',
            templateId: template.id,
            templateName: template.name,
            amountRupees: payment.amount_rupees,
            paymentUrl: payment.payment_url,
          }
        : null;
    case 'credited':
      return { kind: 'credited', amountRupees };
    default:
      return null;
  }
}

export type VisitPickDecision =
  /** A capture of this visit is under way: back to it, whatever was tapped. */
  | { kind: 'resume'; templateId: number }
  /** Paid and unused (now for this template): straight to Capture. */
  | { kind: 'capture' }
  /** An open checkout for this visit: back to the provider's page, no new payment. */
  | { kind: 'checkout'; paymentUrl: string }
  /** Nothing in the visit decides: the spec's rule (free, credit, or pay). */
  | { kind: 'spec' };

/** After a pick was recorded on the visit (POST visit answered), where the pick goes. */
export function decideVisitPick(visit: Visit): VisitPickDecision {
  const { capture, payment } = visit;
  if (capture && captureRunning(capture.state)) {
    return { kind: 'resume', templateId: capture.template_id ?? visit.template?.id ?? 0 };
  }
  if (payment?.state === 'paid') return { kind: 'capture' };
  if (payment?.state === 'pending' && payment.payment_url) {
    return { kind: 'checkout', paymentUrl: payment.payment_url };
  }
  return { kind: 'spec' };
}
