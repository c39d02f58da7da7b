// The delivery queue's glue in the agent: the worker that empties it, what a delivery or a
// rejection changes (the state's last delivery, the error log), and the statuses it causes.
import type { BoothStateStore } from './booth-state.js';
import type { DeliveryQueue } from './delivery/delivery-queue.js';
import { DeliveryWorker } from './delivery/delivery-worker.js';
import type { AgentLog } from './log.js';
import type { MotionEncoder } from './motion/encoder.js';
import type { ReportOutbox } from './report-outbox.js';
import { undeliverableMessage } from './reports.js';
import type { StatusBoard } from './status.js';
import { utcStamp } from './time.js';
import type { Transfers } from './transfers.js';

export interface DeliveryWiringOptions {
  queue: DeliveryQueue;
  transfers: Transfers;
  encoder: MotionEncoder;
  store: BoothStateStore;
  outbox: Pick<ReportOutbox, 'report'>;
  board: Pick<StatusBoard, 'reportSoon'>;
  retry: { firstMs: number; maxMs: number };
  now: () => Date;
  log: AgentLog;
}

/**
 * The worker for `queue`, wired: a delivery is kept as the last one (state file), a capture the
 * server refuses for good goes to the error log, a new capture wakes the worker, and a status is
 * reported soon after a new capture, an empty queue or the warning limit crossed (not after
 * every delivery).
 */
export function wireDelivery(options: DeliveryWiringOptions): DeliveryWorker {
  const { queue, store, outbox, board, log } = options;
  const worker = new DeliveryWorker({
    queue,
    transfers: options.transfers,
    encoder: options.encoder,
    log,
    now: options.now,
    retry: options.retry,
    onDelivered: (_item, at) => {
      store.state.last_delivery_at = utcStamp(at);
      void store.persist();
    },
    onRejected: (item, error, delivered) => {
      outbox.report(undeliverableMessage(item.captureId, item.upload.media_id, error, delivered), {
        captureId: item.captureId,
        delivered,
      });
    },
  });
  let overLimit = false;
  queue.onChange((change) => {
    if (change === 'added') worker.kick();
    const { over_limit: over = false } = queue.stats();
    if (change !== 'delivered' || over !== overLimit) board.reportSoon();
    if (over && !overLimit) {
      log.warn({ items: queue.stats().items }, 'the delivery queue is over its warning limit');
    }
    overLimit = over;
  });
  return worker;
}
