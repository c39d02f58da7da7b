import {
  DELIVERY_LATE_MINUTES,
  DELIVERY_WINDOW_DAYS,
  type DeviceDelivery,
} from '@flashbooth/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { toApiTimestamp } from '../../lib/time.js';
import type { DeliveryRepository, LateItem } from './delivery.repository.js';

export interface DeliveryServiceOptions {
  repository: DeliveryRepository;
  now: () => Date;
  log: FastifyBaseLogger;
  /** An item not delivered this long after its capture is late (default DELIVERY_LATE_MINUTES). */
  lateAfterMs?: number;
}

/** The late sweep marks at most this many items per batch, and this many batches per run. */
const LATE_BATCH = 200;
const LATE_BATCHES = 20;
/** Items older than this are not looked at again (earlier runs marked them). */
const LATE_SCAN_DAYS = 3;

const DAY_MS = 86_400_000;

/**
 * Delivery measured and watched (issue 22): a booth's delivery times and waiting items for the
 * console, and the late sweep that marks items still undelivered an hour after their capture and
 * writes them to the booth's error log (they are still delivered when they arrive).
 */
export class DeliveryService {
  private readonly lateAfterMs: number;

  constructor(private readonly options: DeliveryServiceOptions) {
    this.lateAfterMs = options.lateAfterMs ?? DELIVERY_LATE_MINUTES * 60_000;
  }

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

  /** The items the late sweep would mark now (read only: its dry run). */
  lateDue(): Promise<{ count: number; ids: number[] }> {
    const at = this.options.now();
    return this.options.repository.lateDue(
      new Date(at.getTime() - this.lateAfterMs),
      new Date(at.getTime() - LATE_SCAN_DAYS * DAY_MS),
    );
  }

  /** Marks the items now late, each once across every instance; returns how many. */
  async markLate(): Promise<number> {
    const { repository, now, log } = this.options;
    let marked = 0;
    for (let batch = 0; batch < LATE_BATCHES; batch += 1) {
      const at = now();
      const items = await repository.markLate({
        dueBefore: new Date(at.getTime() - this.lateAfterMs),
        notBefore: new Date(at.getTime() - LATE_SCAN_DAYS * DAY_MS),
        at,
        limit: LATE_BATCH,
        logMessage: lateMessage,
      });
      marked += items.length;
      if (items.length > 0) {
        log.warn(
          { items: items.length, captures: new Set(items.map((item) => item.captureId)).size },
          'media not delivered an hour after their capture marked late',
        );
      }
      if (items.length < LATE_BATCH) break;
    }
    return marked;
  }
}

/** The device error log's entry for a capture whose items are late. */
export function lateMessage(captureId: string, items: LateItem[]): string {
  const first = items.reduce((a, b) => (a.createdAt <= b.createdAt ? a : b));
  const what = items.length === 1 ? '1 item' : `${items.length} items`;
  return (
    `Capture ${captureId}: ${what} not delivered 1 hour after the capture ` +
    `(started ${toApiTimestamp(first.createdAt)} UTC). They wait in the booth's delivery queue ` +
    "and arrive when it reaches the server again: check the booth's network and power."
  );
}
