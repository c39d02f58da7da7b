import { randomBytes } from 'node:crypto';
import {
  DEVICE_MESSAGES,
  MEDIA_MESSAGES,
  PAYMENT_MESSAGES,
  PAYMENT_MIN_PAISE,
  type PaymentCheckout,
  type PaymentCheckoutResult,
  type PaymentCreate,
  type PaymentCreateResult,
  type PaymentState,
  type PaymentStatus,
  TEMPLATE_MESSAGES,
  type Transaction,
  type TransactionList,
} from '@flashbooth/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { listBody, type PageQuery } from '../../db/paging.js';
import type { DeliveryFailureRow, PaymentTransactionRow } from '../../db/schema.js';
import { AppError, notFound } from '../../errors.js';
import { assertBoothAvailable } from '../devices/booth-availability.js';
import { paiseToRupees, toApiTimestamp } from '../../lib/time.js';
import type { AccessClaims } from '../../security/access-tokens.js';
import type { UsersService } from '../users/users.service.js';
import {
  type PaymentProvider,
  ProviderError,
  type ProviderHint,
  type RefundStatus,
} from './payment-provider.js';
import type { SmsSender } from '../sms/sms.sender.js';
import { unusedPaymentCreditSms } from './payment-texts.js';
import type {
  PaymentsRepository,
  TransactionLine,
  TransactionView,
} from './payments.repository.js';
import type { RefundsRepository } from './refunds.repository.js';

/**
 * The least a provider order may be for: PhonePe refuses orders under ₹1. Credit held for a
 * payment is capped so the rest stays at least this (the sandbox follows the same rule).
 */
export const MIN_PAYMENT_PAISE = PAYMENT_MIN_PAISE;
/** A claim on a checkout older than this is assumed abandoned (a crashed request). */
const CHECKOUT_CLAIM_SECONDS = 60;
/** After a checkout's own expiry the provider gets this long to report a late payment. */
const EXPIRY_GRACE_SECONDS = 600;
/** Rows per reconciliation batch, and batches per run. */
const RECONCILE_BATCH = 50;
const RECONCILE_MAX_BATCHES = 20;

/** How a transaction's notice reads a capture's delivery failure (My Transactions). */
export interface DeliveryNoticeRow {
  transactionId: number;
  detectedAt: Date;
  refund: DeliveryFailureRow['refund'];
  refundPaise: number;
  itemsPromised: number;
  itemsDelivered: number;
  /** Items of the capture uploaded by now (some may have arrived after the deadline). */
  itemsArrived: number;
}

/** Where the delivery-failure notices of transactions come from (modules/media keeps them). */
export interface DeliveryNotices {
  noticesFor(transactionIds: number[]): Promise<Map<number, DeliveryNoticeRow>>;
}

export interface PaymentsServiceOptions {
  repository: PaymentsRepository;
  refunds: RefundsRepository;
  provider: PaymentProvider;
  users: UsersService;
  now: () => Date;
  log: FastifyBaseLogger;
  expireAfterSeconds: number;
  /** The reconciler's lease and first-check delay. */
  reconcileIntervalSeconds: number;
  /** A completed payment still unused this long after completing becomes credit. */
  unusedCreditMinutes: number;
  /** Origins a payment may return to besides the request's own. */
  returnOrigins: string[];
  /** The delivery-failure notices of transactions (modules/media), shown with each one. */
  deliveryNotices?: DeliveryNotices;
  /** DELIVERY_DEADLINE_MINUTES, said in the notice. */
  deliveryDeadlineMinutes?: number;
  /** Tells a visitor by SMS that their unused payment became credit (issue 37). */
  sms?: SmsSender;
  /** A visitor's phone for that SMS (null: an erased account). */
  phoneOf?: (userId: number) => Promise<string | null>;
}

export interface ReconcileReport {
  checked: number;
  completed: number;
  failed: number;
  expired: number;
  refundsSettled: number;
  /** Completed payments no capture used in time, turned into credit. */
  unusedToCredit: number;
}

/**
 * Spec section 7: our merchant order id, quoted by the visitor in refund requests, unique and
 * within PhonePe's limits ([A-Za-z0-9_-], at most 63 characters).
 */
export function newOrderId(at: Date): string {
  const day = at.toISOString().slice(0, 10).replace(/-/g, '');
  return `FB${day}${randomBytes(6).toString('hex').toUpperCase()}`;
}

/**
 * The payment status screen knows COMPLETED, PENDING and FAILED: a payment that was refunded no
 * longer entitles a capture, so it reports FAILED there (My Transactions shows REFUNDED).
 */
function publicState(row: PaymentTransactionRow): PaymentState {
  if (row.state === 'COMPLETED' || row.state === 'PENDING') return row.state;
  return 'FAILED';
}

/** Why a payment the status screen calls FAILED ended, in the screen's three words. */
function failureWord(row: PaymentTransactionRow): 'cancelled' | 'expired' | 'declined' {
  if (row.state === 'FAILED' && row.failureReason === 'cancelled') return 'cancelled';
  if (row.state === 'FAILED' && row.failureReason === 'expired') return 'expired';
  return 'declined';
}

const lease = (at: Date, seconds: number) => new Date(at.getTime() + seconds * 1000);

/**
 * Payment transactions (visitor spec: Template pick and payment, Payment status, My
 * Transactions; DESIGN.md 4 "Money and captures are exactly-once"). A webhook, the sandbox's
 * hint, the visitor's status check and the reconciler all end in `settle`, which asks the
 * provider and changes the state with a conditional update, so however they interleave a
 * payment completes once.
 */
export class PaymentsService {
  private readonly leaseSeconds: number;

  constructor(private readonly options: PaymentsServiceOptions) {
    this.leaseSeconds = Math.max(options.reconcileIntervalSeconds, 60);
  }

  get provider(): PaymentProvider {
    return this.options.provider;
  }

  /**
   * POST payments/create: records the booth's price now; the provider is not asked yet. Credit
   * above 0 and below the price is held for the payment in the same database transaction, and
   * the provider is asked only for the rest (the visitor's "To pay (price minus credits)").
   */
  async create(claims: AccessClaims, input: PaymentCreate): Promise<PaymentCreateResult> {
    const { repository, users, now, provider, expireAfterSeconds } = this.options;
    const user = await users.caller(claims);
    const device = await repository.device(input.device_id);
    if (!device || device.orgId === null) throw notFound(DEVICE_MESSAGES.notFound);
    const template = await repository.template(input.template_id, device.orgId);
    if (!template) throw notFound(TEMPLATE_MESSAGES.notFound);
    if (!template.offered) throw new AppError('bad_request', MEDIA_MESSAGES.templateNotOffered);
    if (template.slots === 0) throw new AppError('bad_request', MEDIA_MESSAGES.templateEmpty);
    if (device.pricePaise <= 0) throw new AppError('conflict', PAYMENT_MESSAGES.free);
    // No money for a booth that cannot take the visitor now (issue 20 item 1).
    assertBoothAvailable(device.status);
    const at = now();
    const expiresAt = lease(at, expireAfterSeconds);
    const created = await repository.create({
      userId: user.id,
      deviceId: device.id,
      orgId: device.orgId,
      templateId: template.id,
      provider: provider.name,
      orderId: newOrderId(at),
      pricePaise: device.pricePaise,
      minAmountPaise: MIN_PAYMENT_PAISE,
      expiresAt,
      // Nothing to ask a provider before checkout; the reconciler only has to expire it.
      nextCheckAt: expiresAt,
      createdAt: at,
    });
    if (created.outcome === 'covered') {
      throw new AppError('conflict', PAYMENT_MESSAGES.creditCovers);
    }
    if (created.outcome === 'paid') {
      throw new AppError('already_paid', PAYMENT_MESSAGES.alreadyPaid);
    }
    return { txn_id: created.row.id };
  }

  /**
   * POST payments/checkout: the provider's payment page. Repeating it returns the same page (the
   * provider takes one checkout per order id); the return address must be on this site.
   */
  async checkout(
    claims: AccessClaims,
    input: PaymentCheckout,
    requestOrigin: string | undefined,
  ): Promise<PaymentCheckoutResult> {
    const { repository, provider, now, log, expireAfterSeconds } = this.options;
    this.checkReturnAddress(input.redirect_url, requestOrigin);
    const row = await repository.findView(input.txn_id);
    if (!row || row.userId !== claims.userId) throw notFound(PAYMENT_MESSAGES.notFound);
    // The booth may have gone offline or been taken since the payment was created.
    const device = row.deviceId === null ? undefined : await repository.device(row.deviceId);
    if (device) assertBoothAvailable(device.status);
    const at = now();
    const reuse = (current: PaymentTransactionRow) => {
      if (current.state !== 'PENDING') throw new AppError('conflict', PAYMENT_MESSAGES.notPending);
      if (current.expiresAt.getTime() <= at.getTime()) {
        throw new AppError('conflict', PAYMENT_MESSAGES.expired);
      }
      return current.paymentUrl ? { payment_url: current.paymentUrl } : null;
    };
    const existing = reuse(row);
    if (existing) return existing;

    const claimed = await repository.claimCheckout(row.id, at, lease(at, -CHECKOUT_CLAIM_SECONDS));
    if (!claimed) {
      const again = await repository.findById(row.id);
      const made = again && reuse(again);
      if (made) return made;
      throw new AppError('conflict', PAYMENT_MESSAGES.busy);
    }
    let session;
    try {
      session = await provider.createCheckout({
        orderId: row.orderId,
        amountPaise: row.amountPaise,
        redirectUrl: input.redirect_url,
        expireAfterSeconds,
        description: describe(row),
      });
    } catch (error) {
      await repository.releaseCheckoutClaim(row.id);
      log.warn({ err: error, txnId: row.id }, 'checkout not created');
      throw new AppError('service_unavailable', PAYMENT_MESSAGES.initiateFailed, { cause: error });
    }
    await repository.saveCheckout(row.id, {
      paymentUrl: session.paymentUrl,
      providerOrderId: session.providerOrderId,
      redirectUrl: input.redirect_url,
      expiresAt: session.expiresAt,
      nextCheckAt: lease(at, this.leaseSeconds),
      at,
    });
    return { payment_url: session.paymentUrl };
  }

  /** GET payments/{id}/status: a pending payment is checked with the provider first. */
  async status(claims: AccessClaims, id: number): Promise<PaymentStatus> {
    let row = await this.options.repository.findOwned(claims.userId, id);
    if (!row) throw notFound(PAYMENT_MESSAGES.notFound);
    if (row.state === 'PENDING') row = await this.settle(row, 'status');
    const state = publicState(row);
    return {
      state,
      reason: state === 'FAILED' ? failureWord(row) : null,
      device_id: row.deviceId,
      template_id: row.templateId,
    };
  }

  /** GET transactions: the caller's own, newest first. */
  async list(claims: AccessClaims, page: PageQuery): Promise<TransactionList> {
    const body = listBody(
      await this.options.repository.listOwn(claims.userId, page),
      lineToTransaction,
    );
    return { ...body, items: await this.withNotices(body.items) };
  }

  /**
   * A provider's hint (PhonePe webhook, sandbox page): only tells us which order to ask about.
   * Unknown orders are ignored (answered, so the provider does not retry them forever).
   */
  async hint(hint: ProviderHint): Promise<void> {
    const { repository, log } = this.options;
    if (hint.kind === 'refund') {
      const refund = await this.options.refunds.findRefund(hint.refundId);
      if (!refund) log.warn({ refundId: hint.refundId }, 'hint for an unknown refund');
      else await this.settleRefund(refund.merchantRefundId, 'webhook');
      return;
    }
    const row = await repository.findByOrderId(hint.orderId);
    if (!row) {
      log.warn({ orderId: hint.orderId }, 'hint for an unknown order');
      return;
    }
    await this.settle(row, 'webhook');
  }

  /**
   * Asks the provider about an order and records its answer once. COMPLETED counts only when the
   * amount is ours; it also wins over a FAILED we decided ourselves (expiry), since the money
   * has moved. A provider that cannot be reached changes nothing (checked again later).
   */
  async settle(row: PaymentTransactionRow, source: string): Promise<PaymentTransactionRow> {
    const { repository, provider, now, log } = this.options;
    const open = (r: PaymentTransactionRow) =>
      r.state === 'PENDING' || (r.state === 'FAILED' && r.failureReason !== 'amount_mismatch');
    if (!open(row) || !row.paymentUrl || row.provider !== provider.name) return row;
    let status;
    try {
      status = await provider.orderStatus(row.orderId);
    } catch (error) {
      log.warn({ err: error, txnId: row.id, source }, 'order status not available');
      return row;
    }
    const at = now();
    let changed: PaymentTransactionRow | undefined;
    if (status.state === 'FAILED') {
      changed = await repository.transition(row.id, {
        allowed: (r) => r.state === 'PENDING',
        to: 'FAILED',
        // In the visitor's words: cancelled at the provider, left open until its checkout
        // expired (the provider fails an expired order itself), or declined.
        changes: {
          failureReason: status.cancelled
            ? 'cancelled'
            : row.expiresAt.getTime() <= at.getTime()
              ? 'expired'
              : 'declined',
        },
        source,
        at,
      });
    } else if (status.state === 'COMPLETED' && status.amountPaise !== row.amountPaise) {
      log.error(
        { txnId: row.id, orderId: row.orderId, expected: row.amountPaise, got: status.amountPaise },
        'provider reports a different amount: not fulfilled, needs a manual review',
      );
      changed = await repository.transition(row.id, {
        allowed: open,
        to: 'FAILED',
        changes: { failureReason: 'amount_mismatch' },
        source,
        detail: `provider amount ${status.amountPaise}`,
        at,
      });
    } else if (status.state === 'COMPLETED') {
      changed = await repository.transition(row.id, {
        allowed: open,
        to: 'COMPLETED',
        changes: {
          failureReason: null,
          completedAt: at,
          providerOrderId: status.providerOrderId ?? row.providerOrderId,
        },
        source,
        at,
      });
      if (changed?.state === 'REFUNDED') {
        log.warn(
          { txnId: row.id, orderId: row.orderId, amountPaise: row.amountPaise, source },
          'late payment after its held credit was given back: refunded as credit',
        );
      }
    }
    return changed ?? (await repository.findById(row.id)) ?? row;
  }

  /**
   * One run of the reconciler: pending payments due for a check are asked about (their webhook
   * may never come), stale ones are expired, pending refunds are settled. Rows are leased with
   * SKIP LOCKED, so any number of server instances may run it at once.
   */
  async reconcile(): Promise<ReconcileReport> {
    const { repository, provider, now } = this.options;
    const report: ReconcileReport = {
      checked: 0,
      completed: 0,
      failed: 0,
      expired: 0,
      refundsSettled: 0,
      unusedToCredit: 0,
    };
    for (let batch = 0; batch < RECONCILE_MAX_BATCHES; batch += 1) {
      const at = now();
      const due = await repository.claimDue(
        provider.name,
        at,
        lease(at, this.leaseSeconds),
        RECONCILE_BATCH,
      );
      for (const row of due) {
        report.checked += 1;
        const current = await this.settle(row, 'reconcile');
        if (current.state === 'COMPLETED') report.completed += 1;
        else if (current.state === 'FAILED') report.failed += 1;
        else if (current.state === 'PENDING' && (await this.expireIfStale(current, at))) {
          report.expired += 1;
        }
      }
      if (due.length < RECONCILE_BATCH) break;
    }
    const at = now();
    const refunds = await this.options.refunds.claimDueRefunds(
      at,
      lease(at, this.leaseSeconds),
      RECONCILE_BATCH,
    );
    for (const refund of refunds) {
      if (await this.settleRefund(refund.merchantRefundId, 'reconcile')) report.refundsSettled += 1;
    }
    report.unusedToCredit = await this.creditUnused();
    return report;
  }

  /**
   * Completed payments that no capture used within `unusedCreditMinutes` of completing (the
   * booth went offline before the visitor could capture, the capture was refused and given
   * back, the visitor left) become credit: the amount paid is credited and the credit the
   * payment held is given back, so a payment never ends in nothing (issue 20 item 1). Exactly
   * once: the conditional update in `refundToCredit` loses against a capture taking the payment
   * and against another instance converting it.
   */
  async creditUnused(): Promise<number> {
    const { now, log, unusedCreditMinutes } = this.options;
    let converted = 0;
    for (let batch = 0; batch < RECONCILE_MAX_BATCHES; batch += 1) {
      const at = now();
      const ids = await this.options.refunds.unusedCompleted(
        lease(at, -unusedCreditMinutes * 60),
        RECONCILE_BATCH,
      );
      for (const id of ids) {
        const refundId = `UNUSED${id}`;
        const row = await this.options.refunds.refundToCredit(id, {
          refundId,
          staffId: null,
          at,
          onlyUnused: true,
        });
        if (!row) continue;
        converted += 1;
        log.info(
          { txnId: id, userId: row.userId, amountPaise: row.amountPaise, refundId },
          'unused payment turned into credit',
        );
        await this.tellCredited(row);
      }
      if (ids.length < RECONCILE_BATCH) break;
    }
    return converted;
  }

  /**
   * The SMS of an unused payment turned into credit: at most once, since the conversion itself
   * happens once (a failed send is logged; the credit is there and My Transactions says so).
   */
  private async tellCredited(row: PaymentTransactionRow): Promise<void> {
    const { sms, phoneOf, log, repository } = this.options;
    if (!sms || !phoneOf || row.userId === null) return;
    try {
      const phone = await phoneOf(row.userId);
      if (!phone) return;
      const view = await repository.findView(row.id);
      const venue = view ? [view.orgName, view.deviceName].filter(Boolean).join(' · ') : '';
      await sms.send({
        phone,
        text: unusedPaymentCreditSms(row.amountPaise + row.creditPaise, venue || null),
      });
    } catch (error) {
      log.warn({ err: error, txnId: row.id }, 'credit notice SMS not sent');
    }
  }

  /** POST /api/enterprise/transactions/{id}/refund: staff refund to the payer or as credit. */
  async refund(claims: AccessClaims, id: number, to: 'source' | 'credit'): Promise<Transaction> {
    const { repository, users, provider, now, log } = this.options;
    const staff = await users.privilegedCaller(claims, PAYMENT_MESSAGES.refundStaffOnly);
    const row = await repository.findById(id);
    if (!row) throw notFound(PAYMENT_MESSAGES.notFound);
    if (row.state !== 'COMPLETED') {
      throw new AppError('conflict', PAYMENT_MESSAGES.refundNotCompleted);
    }
    const at = now();
    const refundId = `${row.orderId.slice(0, 40)}R${randomBytes(4).toString('hex').toUpperCase()}`;
    if (to === 'credit') {
      const done = await this.options.refunds.refundToCredit(id, {
        refundId,
        staffId: staff.id,
        at,
      });
      if (!done) throw new AppError('conflict', PAYMENT_MESSAGES.refundNotCompleted);
      log.info({ txnId: id, staffId: staff.id, refundId }, 'payment refunded as credit');
      return this.view(id);
    }
    if (row.provider !== provider.name) {
      throw new AppError('conflict', PAYMENT_MESSAGES.refundOtherProvider);
    }
    const started = await this.options.refunds.startSourceRefund(id, {
      refundId,
      staffId: staff.id,
      at,
      nextCheckAt: lease(at, this.leaseSeconds),
    });
    if (!started) throw new AppError('conflict', PAYMENT_MESSAGES.refundNotCompleted);
    let outcome: RefundStatus;
    try {
      outcome = await provider.refund({
        refundId,
        orderId: row.orderId,
        amountPaise: row.amountPaise,
      });
    } catch (error) {
      if (error instanceof ProviderError && error.definitive) {
        await this.options.refunds.finishRefund(
          refundId,
          { state: 'FAILED', providerRefundId: null, at: now() },
          'refund',
        );
        log.warn({ err: error, txnId: id, refundId }, 'refund refused by the provider');
        throw new AppError('unprocessable', PAYMENT_MESSAGES.refundRefused, { cause: error });
      }
      // Unknown outcome: stays REFUND_PENDING; the reconciler asks the provider later.
      log.warn({ err: error, txnId: id, refundId }, 'refund outcome unknown; will check again');
      return this.view(id);
    }
    await this.applyRefund(refundId, outcome, 'refund');
    if (outcome.state === 'FAILED') {
      throw new AppError('unprocessable', PAYMENT_MESSAGES.refundRefused);
    }
    log.info({ txnId: id, staffId: staff.id, refundId }, 'refund to the payment method started');
    return this.view(id);
  }

  /**
   * Sends a delivery failure's pending refund (`startDeliveryRefund`) to the provider. Safe to
   * repeat after a crash or a timeout: providers take a refund id once. 'sent': the provider has
   * it (settled now, or later by the reconciler); 'credit': the provider refused it, so the amount
   * paid became credit instead (`creditRefundId`); 'retry': no answer, send again later.
   */
  async sendDeliveryRefund(
    refundId: string,
    creditRefundId: string,
  ): Promise<'sent' | 'credit' | 'retry'> {
    const { repository, provider, now, log } = this.options;
    const refund = await this.options.refunds.findRefund(refundId);
    if (!refund) throw new Error(`no refund ${refundId}`);
    const row = await repository.findById(refund.transactionId);
    if (!row) throw new Error(`no transaction ${refund.transactionId} for refund ${refundId}`);
    if (
      refund.state === 'COMPLETED' ||
      (refund.state === 'PENDING' && row.state !== 'REFUND_PENDING')
    ) {
      return 'sent';
    }
    if (refund.state === 'PENDING') {
      let outcome: RefundStatus;
      try {
        outcome = await provider.refund({
          refundId,
          orderId: row.orderId,
          amountPaise: refund.amountPaise,
        });
      } catch (error) {
        if (!(error instanceof ProviderError && error.definitive)) {
          log.warn(
            { err: error, txnId: row.id, refundId },
            'delivery refund not answered; will send again',
          );
          return 'retry';
        }
        log.warn(
          { err: error, txnId: row.id, refundId },
          'delivery refund refused by the provider',
        );
        outcome = { state: 'FAILED', providerRefundId: null };
      }
      await this.applyRefund(refundId, outcome, 'delivery_failure');
      if (outcome.state !== 'FAILED') return 'sent';
    }
    // Refused: the transaction is COMPLETED again; the visitor gets the amount as credit.
    const credited = await this.options.refunds.refundToCredit(row.id, {
      refundId: creditRefundId,
      staffId: null,
      at: now(),
    });
    if (credited)
      log.info({ txnId: row.id, refundId: creditRefundId }, 'delivery refund given as credit');
    return 'credit';
  }

  /** Asks the provider about a pending refund; true when it reached its final state now. */
  private async settleRefund(refundId: string, source: string): Promise<boolean> {
    const { provider, log } = this.options;
    const refund = await this.options.refunds.findRefund(refundId);
    if (!refund || refund.state !== 'PENDING' || refund.destination !== 'source') return false;
    try {
      return await this.applyRefund(refundId, await provider.refundStatus(refundId), source);
    } catch (error) {
      if (error instanceof ProviderError && error.definitive) {
        // The provider does not know the refund: the request never reached it.
        return this.options.refunds.finishRefund(
          refundId,
          { state: 'FAILED', providerRefundId: null, at: this.options.now() },
          source,
        );
      }
      log.warn({ err: error, refundId }, 'refund status not available');
      return false;
    }
  }

  private async applyRefund(refundId: string, outcome: RefundStatus, source: string) {
    const { now } = this.options;
    if (outcome.state === 'PENDING') {
      if (outcome.providerRefundId) {
        await this.options.refunds.noteProviderRefundId(refundId, outcome.providerRefundId);
      }
      return false;
    }
    return this.options.refunds.finishRefund(
      refundId,
      { state: outcome.state, providerRefundId: outcome.providerRefundId, at: now() },
      source,
    );
  }

  private async expireIfStale(row: PaymentTransactionRow, at: Date): Promise<boolean> {
    const graceMs = row.paymentUrl ? EXPIRY_GRACE_SECONDS * 1000 : 0;
    if (at.getTime() < row.expiresAt.getTime() + graceMs) return false;
    const expired = await this.options.repository.transition(row.id, {
      allowed: (r) => r.state === 'PENDING',
      to: 'FAILED',
      changes: { failureReason: 'expired' },
      source: 'reconcile',
      at,
    });
    return expired !== undefined;
  }

  private async view(id: number): Promise<Transaction> {
    const row = await this.options.repository.findView(id);
    if (!row) throw notFound(PAYMENT_MESSAGES.notFound);
    const [item] = await this.withNotices([toTransaction(row)]);
    return item!;
  }

  /** Each transaction with its delivery-failure notice (null when its capture was delivered). */
  private async withNotices(items: Transaction[]): Promise<Transaction[]> {
    const { deliveryNotices, deliveryDeadlineMinutes = 60 } = this.options;
    if (!deliveryNotices || items.length === 0) return items;
    const payments = items.filter((item) => item.kind !== 'credit');
    const notices = await deliveryNotices.noticesFor(payments.map((item) => item.id));
    return items.map((item) => {
      const notice = item.kind === 'credit' ? undefined : notices.get(item.id);
      if (!notice) return { ...item, delivery_failure: null };
      return {
        ...item,
        delivery_failure: {
          failed_at: toApiTimestamp(notice.detectedAt),
          deadline_minutes: deliveryDeadlineMinutes,
          refund_to: notice.refund,
          refund_rupees: paiseToRupees(notice.refundPaise),
          refund_pending: notice.refund === 'payment' && item.state === 'REFUND_PENDING',
          items_promised: notice.itemsPromised,
          items_delivered: notice.itemsDelivered,
          items_arrived: notice.itemsArrived,
        },
      };
    });
  }

  /**
   * redirect_url must lead back to this site: the request's own origin, PUBLIC_URL or one of
   * PAYMENT_RETURN_ORIGINS. Otherwise our checkout (the sandbox page, or a provider page with our
   * name on it) could be used to send people to any address.
   */
  private checkReturnAddress(redirectUrl: string, requestOrigin: string | undefined): void {
    let origin: string;
    try {
      const url = new URL(redirectUrl);
      if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('scheme');
      origin = url.origin;
    } catch {
      throw new AppError('bad_request', PAYMENT_MESSAGES.returnAddress);
    }
    const allowed = new Set(this.options.returnOrigins.map(originOf));
    if (requestOrigin) allowed.add(originOf(requestOrigin));
    if (!allowed.has(origin)) throw new AppError('bad_request', PAYMENT_MESSAGES.returnAddress);
  }
}

function originOf(text: string): string {
  try {
    return new URL(text).origin;
  } catch {
    return text;
  }
}

function describe(row: Pick<TransactionView, 'orgName' | 'deviceName'>): string {
  const parts = [row.orgName, row.deviceName].filter((part): part is string => Boolean(part));
  return parts.length > 0 ? `Flashbooth photo: ${parts.join(' · ')}` : 'Flashbooth photo';
}

/**
 * The spec's transaction list item; the order id field is named after the provider.
 * `amount_rupees` is what the visitor paid (or was asked to pay) the provider; credit the
 * payment held is `credit_rupees` (their sum is the booth's price at the time).
 */
export function toTransaction(row: TransactionView): Transaction {
  return {
    id: row.id,
    kind: 'payment',
    failure_reason: row.failureReason,
    refund_to: null,
    phonepe_order_id: row.orderId,
    amount_rupees: paiseToRupees(row.amountPaise),
    credit_rupees: paiseToRupees(row.creditPaise),
    state: row.state,
    created_at: toApiTimestamp(row.createdAt),
    org_name: row.orgName,
    device_name: row.deviceName,
  };
}

/** A line of My Transactions: a payment, or a capture paid with credit (issue 37). */
export function lineToTransaction(line: TransactionLine): Transaction {
  return {
    id: line.id,
    kind: line.kind,
    phonepe_order_id: line.orderId,
    amount_rupees: paiseToRupees(line.amountPaise),
    credit_rupees: paiseToRupees(line.creditPaise),
    state: line.state,
    failure_reason: line.failureReason,
    refund_to: line.refundTo,
    template_name: line.templateName,
    created_at: toApiTimestamp(line.createdAt),
    org_name: line.orgName,
    device_name: line.deviceName,
  };
}
