import { and, asc, eq, inArray, isNull, lte, sql, type SQL } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client.js';
import {
  captures,
  type CaptureRow,
  deliveryFailures,
  type DeliveryFailureRow,
  deviceErrors,
  media,
} from '../../db/schema.js';
import { creditBalance, debitBalance } from '../payments/credit-ledger.js';
import { startDeliveryRefund } from '../payments/delivery-refund.js';
import type { ProviderName } from '../payments/payment-provider.js';
import { linkVisitCapture, lockVisitForCapture } from '../visits/visit-links.js';
import {
  consumePaidEntitlement,
  hasPaidEntitlement,
  releasePaidEntitlement,
} from '../payments/entitlement.js';

/** A media row a capture creates, one per item the booth will deliver. */
export interface NewMedia {
  userId: number;
  deviceId: number;
  orgId: number;
  templateId: number;
  captureId: string;
  mediaType: 'image' | 'video';
  s3Key: string;
  /** A video's poster JPEG (the booth uploads it with the MP4); an image's is made later. */
  lowresKey?: string | null;
  /** A video's animated WebP preview. */
  previewKey?: string | null;
  /** A gif video's `.gif`. */
  gifKey?: string | null;
  orientation: 'portrait' | 'landscape';
  createdAt: Date;
}

/** Thrown inside a capture transaction when the visit's capture is still running (issue 37). */
export class CaptureRunning extends Error {
  constructor() {
    super('the visit has a capture running');
  }
}

/** Thrown inside a capture transaction when the credit does not cover the price (rolls it back). */
export class CreditTooLow extends Error {
  constructor() {
    super('credit does not cover the price');
  }
}

export interface NewCapture {
  captureId: string;
  userId: number;
  deviceId: number;
  templateId: number;
  /** The booth's price; taken from the visitor's credit when above 0. */
  pricePaise: number;
  createdAt: Date;
  /** When the capture counts as never delivered if the booth never answers either. */
  deadlineAt: Date;
  items: NewMedia[];
  /** What the visit's screens need to resume it: the kind, the photos counted down, recording. */
  captureKind: CaptureRow['captureKind'];
  totalCaptures: number;
  recordSeconds: number;
}

/** States in which a capture may still deliver (and may still be given back). */
const OPEN_STATES: CaptureRow['state'][] = ['requested', 'accepted'];

export type ReleaseOutcome =
  /** Nothing had arrived: the capture is now `failed` and its entitlement was given back. */
  | { outcome: 'released'; capture: CaptureRow; refundedPaise: number }
  /** Something had arrived: the entitlement is used; the capture is now `delivered`. */
  | { outcome: 'delivered' }
  /**
   * Nothing to do: unknown, already delivered or failed, another device's, not yet due, or
   * (sweep) being handled by another server instance right now.
   */
  | { outcome: 'closed' };

export interface ReleaseOptions {
  /** Kept on the capture (failure_reason). */
  reason: string;
  at: Date;
  /** Only a capture of this device (an error report names its own captures only). */
  deviceId?: number;
  /**
   * The sweep: only when the deadline is at or before this, and skipping a capture another
   * instance has locked (it is releasing it).
   */
  dueBy?: Date;
  /** Written to the device's error log in the same transaction when the capture is released. */
  logMessage?: (capture: CaptureRow, refundedPaise: number) => string;
}

/** The failure reason of a capture the sweep gave back because nothing arrived by its deadline. */
export const NEVER_DELIVERED_REASON = 'never delivered';

/** What the deadline sweep did with one capture (`CapturesRepository.closeDue`). */
export type DeadlineClose =
  | { outcome: 'delivered' }
  | { outcome: 'given_back'; refundedPaise: number }
  | { outcome: 'delivery_failure'; failure: DeliveryFailureRow }
  /** Not due, already closed, or being closed by another instance right now. */
  | { outcome: 'closed' };

export interface DeadlineCloseOptions {
  at: Date;
  /** The payment provider configured now (a payment made with another is refunded as credit). */
  provider: ProviderName;
  /** Decides from the capture's items (delivery-policy.ts `deadlineOutcome`). */
  decide: (capture: {
    accepted: boolean;
    promised: number;
    delivered: number;
  }) => 'delivered' | 'given_back' | 'delivery_failure';
  reasons: { givenBack: string; deliveryFailure: string };
  refundIds: (captureId: string) => { refundId: string; creditRefundId: string };
  /** The device error log's entry, written in the same transaction. */
  logMessage: (
    capture: CaptureRow,
    outcome:
      | { kind: 'given_back'; refundedPaise: number }
      | { kind: 'delivery_failure'; failure: DeliveryFailureRow },
  ) => string;
}

/**
 * My Media shows an item once it has arrived, or while its capture may still deliver it; an
 * item of a capture that is over (delivered otherwise, or failed and given back) and never came
 * is left out. Media from before the captures table have no row and always show.
 */
export function mediaVisibleToOwner(): SQL {
  return sql`(${media.isUploaded} or not exists (select 1 from ${captures} c where c.capture_id = ${media.captureId} and c.state in ('delivered', 'failed')))`;
}

/**
 * The visitor's entitlement for a capture session: taken when the capture starts, given back at
 * most once when nothing was delivered (DESIGN.md 2b step 4).
 */
export class CapturesRepository {
  constructor(private readonly db: Database) {}

  /** An unused paid transaction for this visitor, booth and template exists (nothing taken). */
  hasUnusedPayment(userId: number, deviceId: number, templateId: number): Promise<boolean> {
    return hasPaidEntitlement(this.db, { userId, deviceId, templateId });
  }

  /**
   * One transaction: charges `pricePaise` (when above 0) from the visitor's credit with a
   * conditional update, so concurrent captures can never drive it below zero, writes the ledger
   * row, records the capture (`requested`) and creates its media rows. Throws `CreditTooLow`
   * (nothing written) when the credit does not cover the price.
   */
  async start(capture: NewCapture): Promise<number[]> {
    if (capture.items.length === 0) throw new Error('a capture needs at least one media item');
    return this.db.transaction(async (tx) => {
      const { userId, captureId, pricePaise } = capture;
      // One capture at a time per visit: a second tab's Capture waits here and is refused.
      const visit = await lockVisitForCapture(tx, userId, capture.deviceId, capture.createdAt);
      if (visit.captureRunning) throw new CaptureRunning();
      let paidWith: number | null = null;
      // The entitlement, in order: a free booth; an unused paid transaction for this booth and
      // template; the visitor's credit. A capture a payment covers takes no credit
      // (charged_paise 0), so giving it back returns the payment, not credit.
      let chargedPaise = 0;
      if (pricePaise > 0) {
        const paid = await consumePaidEntitlement(tx, {
          userId,
          deviceId: capture.deviceId,
          templateId: capture.templateId,
          captureId,
          at: capture.createdAt,
        });
        if (paid) paidWith = paid.transactionId;
        if (!paid) {
          // Conditional update and ledger row together; the unique (media_capture_id, reason)
          // index keeps a capture from being charged twice.
          const charged = await debitBalance(tx, {
            userId,
            amountPaise: pricePaise,
            reason: 'capture',
            mediaCaptureId: captureId,
            // The capture's time: My Transactions orders this line among the payments by it.
            at: capture.createdAt,
          });
          if (!charged) throw new CreditTooLow();
          chargedPaise = pricePaise;
        }
      }
      await tx.insert(captures).values({
        captureId,
        userId,
        deviceId: capture.deviceId,
        templateId: capture.templateId,
        chargedPaise,
        state: 'requested',
        createdAt: capture.createdAt,
        deadlineAt: capture.deadlineAt,
        captureKind: capture.captureKind,
        totalCaptures: capture.totalCaptures,
        recordSeconds: capture.recordSeconds,
      });
      await linkVisitCapture(tx, {
        userId,
        deviceId: capture.deviceId,
        templateId: capture.templateId,
        captureId,
        paymentTransactionId: paidWith,
        at: capture.createdAt,
      });
      const rows = await tx
        .insert(media)
        .values(capture.items.map((item) => ({ ...item, updatedAt: item.createdAt })))
        .returning({ id: media.id, s3Key: media.s3Key });
      // In the items' order (the booth's uploads are matched to them by position).
      const idByKey = new Map(rows.map((row) => [row.s3Key, row.id]));
      return capture.items.map((item) => idByKey.get(item.s3Key)!);
    });
  }

  /**
   * The booth took the capture: from now on it has until `deadlineAt` to deliver. False when
   * the capture is no longer `requested` (released meanwhile, e.g. the booth reported a failure
   * before its acceptance arrived).
   */
  async markAccepted(captureId: string, acceptedAt: Date, deadlineAt: Date): Promise<boolean> {
    const rows = await this.db
      .update(captures)
      .set({ state: 'accepted', acceptedAt, deadlineAt })
      .where(and(eq(captures.captureId, captureId), eq(captures.state, 'requested')))
      .returning({ captureId: captures.captureId });
    return rows.length > 0;
  }

  async findById(captureId: string): Promise<CaptureRow | undefined> {
    const [row] = await this.db.select().from(captures).where(eq(captures.captureId, captureId));
    return row;
  }

  /** Open captures whose deadline has passed, oldest deadline first. */
  async dueIds(now: Date, limit: number): Promise<string[]> {
    const rows = await this.db
      .select({ captureId: captures.captureId })
      .from(captures)
      .where(and(inArray(captures.state, OPEN_STATES), lte(captures.deadlineAt, now)))
      .orderBy(asc(captures.deadlineAt))
      .limit(limit);
    return rows.map((row) => row.captureId);
  }

  /**
   * The deadline sweep's decision for one open capture past its deadline, in one transaction
   * with the capture row locked (rows another instance holds are skipped, and a closed capture is
   * never closed again), so whatever runs it, and however often, each capture is closed once:
   * - delivered: every item arrived (or, never confirmed, something did);
   * - given back: never confirmed and nothing arrived (`giveBack`, as an error report does);
   * - delivery failure: the booth took it and not every item arrived. The capture is `failed`,
   *   its missing items marked late, the entitlement refunded (a payment: REFUND_PENDING with a
   *   refund record for the delivery job to send; credit: credited now), a delivery_failures row
   *   (primary key: once) and the booth's error-log entry written.
   */
  async closeDue(captureId: string, options: DeadlineCloseOptions): Promise<DeadlineClose> {
    const { at } = options;
    return this.db.transaction(async (tx) => {
      const [capture] = await tx
        .select()
        .from(captures)
        .where(
          and(
            eq(captures.captureId, captureId),
            inArray(captures.state, OPEN_STATES),
            lte(captures.deadlineAt, at),
          ),
        )
        .for('update', { skipLocked: true });
      if (!capture) return { outcome: 'closed' };
      const items = await tx
        .select({ id: media.id, isUploaded: media.isUploaded, orgId: media.orgId })
        .from(media)
        .where(eq(media.captureId, captureId));
      const promised = items.length;
      const delivered = items.filter((item) => item.isUploaded).length;
      const decision = options.decide({
        accepted: capture.acceptedAt !== null,
        promised,
        delivered,
      });

      if (decision === 'delivered') {
        await tx
          .update(captures)
          .set({ state: 'delivered', finishedAt: at })
          .where(eq(captures.captureId, captureId));
        return { outcome: 'delivered' };
      }

      const reason =
        decision === 'given_back' ? options.reasons.givenBack : options.reasons.deliveryFailure;
      await tx
        .update(captures)
        .set({ state: 'failed', finishedAt: at, failureReason: reason })
        .where(eq(captures.captureId, captureId));

      if (decision === 'given_back') {
        const refundedPaise = await this.giveBack(tx, capture);
        await this.logError(tx, capture, at, () =>
          options.logMessage(capture, { kind: 'given_back', refundedPaise }),
        );
        return { outcome: 'given_back', refundedPaise };
      }

      // A delivery failure. The items still missing are late (the booth's delivery figures).
      await tx
        .update(media)
        .set({ lateAt: at })
        .where(
          and(eq(media.captureId, captureId), eq(media.isUploaded, false), isNull(media.lateAt)),
        );
      const ids = options.refundIds(captureId);
      let refund: DeliveryFailureRow['refund'] = 'none';
      let refundPaise = 0;
      let transactionId: number | null = null;
      const paid = await startDeliveryRefund(tx, {
        captureId,
        refundId: ids.refundId,
        creditRefundId: ids.creditRefundId,
        provider: options.provider,
        at,
        // The delivery job sends it at once; the reconciler looks only after it was sent.
        nextCheckAt: new Date(at.getTime() + 86_400_000),
      });
      if (paid.row) transactionId = paid.row.id;
      if (paid.kind !== 'none') {
        refund = paid.kind;
        refundPaise = paid.row.amountPaise;
      } else if (capture.chargedPaise > 0) {
        // Taken from credit: back to credit (the ledger's unique row makes it once).
        const credited = await creditBalance(tx, {
          userId: capture.userId,
          amountPaise: capture.chargedPaise,
          reason: 'refund',
          mediaCaptureId: captureId,
        });
        refund = 'credit';
        refundPaise = credited ? capture.chargedPaise : 0;
      }
      const [failure] = await tx
        .insert(deliveryFailures)
        .values({
          captureId,
          userId: capture.userId,
          deviceId: capture.deviceId,
          orgId: items[0]?.orgId ?? null,
          transactionId,
          refund,
          refundPaise,
          merchantRefundId: refund === 'payment' ? ids.refundId : null,
          itemsPromised: promised,
          itemsDelivered: delivered,
          detectedAt: at,
        })
        .returning();
      await this.logError(tx, capture, at, () =>
        options.logMessage(capture, { kind: 'delivery_failure', failure: failure! }),
      );
      return { outcome: 'delivery_failure', failure: failure! };
    });
  }

  private async logError(tx: Transaction, capture: CaptureRow, at: Date, message: () => string) {
    if (capture.deviceId === null) return;
    await tx
      .insert(deviceErrors)
      .values({ deviceId: capture.deviceId, errorMessage: message(), createdAt: at });
  }

  /**
   * Open captures past their deadline with what they hold, oldest deadline first (read only:
   * the deadline sweep's dry run).
   */
  async dueSummaries(
    now: Date,
    limit: number,
  ): Promise<{ captureId: string; accepted: boolean; promised: number; delivered: number }[]> {
    const rows = await this.db
      .select({
        captureId: captures.captureId,
        accepted: sql<boolean>`${captures.acceptedAt} is not null`,
        promised: sql<number>`(select count(*) from media m where m.capture_id = captures.capture_id)::int`,
        delivered: sql<number>`(select count(*) from media m where m.capture_id = captures.capture_id and m.is_uploaded)::int`,
      })
      .from(captures)
      .where(and(inArray(captures.state, OPEN_STATES), lte(captures.deadlineAt, now)))
      .orderBy(asc(captures.deadlineAt))
      .limit(limit);
    return rows.map((row) => ({
      ...row,
      promised: Number(row.promised),
      delivered: Number(row.delivered),
    }));
  }

  /**
   * Closes an open capture: `delivered` when any of its media rows is uploaded (whatever a booth
   * says), otherwise `failed` with the entitlement given back. The capture row is locked and its
   * state re-checked in the transaction, so concurrent callers (an error report, the sweep on
   * several instances, a refused command) give it back exactly once.
   */
  async release(captureId: string, options: ReleaseOptions): Promise<ReleaseOutcome> {
    return this.db.transaction(async (tx) => {
      const conditions = [eq(captures.captureId, captureId), inArray(captures.state, OPEN_STATES)];
      if (options.deviceId !== undefined) conditions.push(eq(captures.deviceId, options.deviceId));
      if (options.dueBy) conditions.push(lte(captures.deadlineAt, options.dueBy));
      const query = tx
        .select()
        .from(captures)
        .where(and(...conditions));
      const [capture] = options.dueBy
        ? await query.for('update', { skipLocked: true })
        : await query.for('update');
      if (!capture) return { outcome: 'closed' };

      const [arrived] = await tx
        .select({ id: media.id })
        .from(media)
        .where(and(eq(media.captureId, captureId), eq(media.isUploaded, true)))
        .limit(1);
      if (arrived) {
        await tx
          .update(captures)
          .set({ state: 'delivered', finishedAt: options.at })
          .where(eq(captures.captureId, captureId));
        return { outcome: 'delivered' };
      }

      await tx
        .update(captures)
        .set({ state: 'failed', finishedAt: options.at, failureReason: options.reason })
        .where(eq(captures.captureId, captureId));
      const refundedPaise = await this.giveBack(tx, capture);
      if (options.logMessage && capture.deviceId !== null) {
        await tx.insert(deviceErrors).values({
          deviceId: capture.deviceId,
          errorMessage: options.logMessage(capture, refundedPaise),
          createdAt: options.at,
        });
      }
      return { outcome: 'released', capture, refundedPaise };
    });
  }

  /**
   * Gives a failed capture's entitlement back, inside the transaction that moved it to `failed`
   * (so it runs once per capture). Returns the credit refunded in paise.
   *
   * The one place an entitlement is returned: the payment that paid for the capture (if any)
   * becomes usable again, and credit taken for it is refunded.
   */
  private async giveBack(tx: Transaction, capture: CaptureRow): Promise<number> {
    // Idempotent, and a no-op for a capture no payment paid. A payment that held credit keeps
    // it: the whole entitlement (amount paid + credit held) is usable again.
    await releasePaidEntitlement(tx, capture.captureId);
    const amount = capture.chargedPaise;
    if (amount <= 0) return 0;
    // The unique (media_capture_id, reason) index is a second guard: one refund per capture.
    const refunded = await creditBalance(tx, {
      userId: capture.userId,
      amountPaise: amount,
      reason: 'refund',
      mediaCaptureId: capture.captureId,
    });
    return refunded ? amount : 0;
  }
}
