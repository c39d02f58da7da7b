import { DELIVERY_WINDOW_DAYS, type DeviceDelivery } from '@flashbooth/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { toApiTimestamp } from '../../lib/time.js';
import type { PaymentsService } from '../payments/payments.service.js';
import type { SmsSender } from '../sms/sms.sender.js';
import type { DeliveryFailuresRepository } from './delivery-failures.repository.js';
import { deliveryCreditRefundId, deliveryFailureSms } from './delivery-policy.js';
import type { DeliveryRepository } from './delivery.repository.js';

export interface DeliveryServiceOptions {
  repository: DeliveryRepository;
  failures: DeliveryFailuresRepository;
  payments: Pick<PaymentsService, 'sendDeliveryRefund'>;
  sms: SmsSender;
  /** DELIVERY_DEADLINE_MINUTES, for the visitor's SMS. */
  deadlineMinutes: number;
  now: () => Date;
  log: FastifyBaseLogger;
}

/** How long a refund or SMS claimed by one instance waits before another may try it again. */
const RETRY_MS = 5 * 60_000;

const DAY_MS = 86_400_000;

/**
 * Delivery measured and its promise kept: a booth's delivery times and waiting items for the
 * console, and for each delivery failure (closed by the capture sweep, delivery-policy.ts) the
 * refund sent to the provider and the visitor's SMS.
 */
export class DeliveryService {
  constructor(private readonly options: DeliveryServiceOptions) {}

  async deviceDelivery(deviceId: number): Promise<DeviceDelivery> {
    const since = new Date(this.options.now().getTime() - DELIVERY_WINDOW_DAYS * DAY_MS);
    const figures = await this.options.repository.deviceFigures(deviceId, since);
    return {
      days: DELIVERY_WINDOW_DAYS,
      delivered_count: figures.deliveredCount,
      median_seconds: figures.medianSeconds,
      p95_seconds: figures.p95Seconds,
      waiting_count: figures.waitingCount,
      late_count: figures.lateCount,
      oldest_waiting_at: figures.oldestWaitingAt ? toApiTimestamp(figures.oldestWaitingAt) : null,
    };
  }

  /**
   * Sends the refunds of delivery failures the provider does not have yet (started in the
   * capture's closing transaction), each leased by one instance and sent again until the
   * provider answers; a refusal becomes credit (PaymentsService.sendDeliveryRefund).
   */
  async sendRefunds(): Promise<{
    refundsSent: number;
    refundsAsCredit: number;
    refundsRetry: number;
  }> {
    const { failures, payments, now, log } = this.options;
    const report = { refundsSent: 0, refundsAsCredit: 0, refundsRetry: 0 };
    const at = now();
    for (const failure of await failures.claimUnsentRefunds(
      at,
      new Date(at.getTime() + RETRY_MS),
    )) {
      const refundId = failure.merchantRefundId;
      if (!refundId) continue;
      try {
        const outcome = await payments.sendDeliveryRefund(
          refundId,
          deliveryCreditRefundId(failure.captureId),
        );
        if (outcome === 'retry') {
          report.refundsRetry += 1;
          continue;
        }
        await failures.refundSent(failure.captureId, outcome, now());
        if (outcome === 'sent') report.refundsSent += 1;
        else report.refundsAsCredit += 1;
      } catch (error) {
        report.refundsRetry += 1;
        log.error(
          { err: error, captureId: failure.captureId },
          'delivery refund not sent; will retry',
        );
      }
    }
    return report;
  }

  /**
   * Tells each visitor of a delivery failure by SMS, once the refund is with the provider: what
   * happened, what was refunded and where, and that photos arriving later still appear in My
   * Media. Each failure is leased by one instance and marked sent (a crash between sending and
   * marking may send it again after the lease; it is never lost).
   */
  async sendNotices(): Promise<{ smsSent: number }> {
    const { failures, sms, now, log, deadlineMinutes } = this.options;
    let smsSent = 0;
    const at = now();
    for (const notice of await failures.claimDueNotices(at, new Date(at.getTime() + RETRY_MS))) {
      const { failure } = notice;
      try {
        await sms.send({
          phone: notice.phone,
          text: deliveryFailureSms({
            refund: failure.refund,
            refundPaise: failure.refundPaise,
            heldCreditPaise: notice.heldCreditPaise,
            promised: failure.itemsPromised,
            delivered: failure.itemsDelivered,
            booth: notice.boothName,
            deadlineMinutes,
          }),
        });
        await failures.noticeSent(failure.captureId, now());
        smsSent += 1;
      } catch (error) {
        log.warn(
          { err: error, captureId: failure.captureId },
          'delivery failure SMS not sent; will retry',
        );
      }
    }
    return { smsSent };
  }

  /** What `sendRefunds` and `sendNotices` would send now (read only: the dry run). */
  pending(): Promise<{ refunds: string[]; notices: string[] }> {
    return this.options.failures.pending(this.options.now());
  }
}
