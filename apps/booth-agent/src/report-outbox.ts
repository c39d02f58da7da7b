import { randomUUID } from 'node:crypto';
import type { DeviceErrorReport } from '@flashbooth/contracts';
import type { BoothChannel } from './connection.js';
import type { AgentLog } from './log.js';
import type { BoothState } from './state.js';
import { utcStamp } from './time.js';

/**
 * Error reports kept while the broker is away; beyond this the oldest are dropped (and logged),
 * so a booth cut off for days neither grows without bound nor floods the log when it returns.
 */
export const MAX_PENDING_REPORTS = 100;

export interface ReportOutboxOptions {
  /** The channel in use, if any. */
  link: { current(): BoothChannel | undefined };
  /** Keeps the queue (`pending_reports`) across restarts. */
  store: { state: BoothState; persist(): Promise<void> };
  now: () => Date;
  log: AgentLog;
}

/** The capture a report is about, and the media of it already delivered. */
export interface ReportedSession {
  captureId: string;
  delivered: readonly number[];
}

/**
 * The device's error log, seen from the booth: reports are queued (in the state file too) and
 * sent one at a time, oldest first, each dropped from the queue once the broker acknowledges it.
 */
export class ReportOutbox {
  /** Set while reports are being sent; `flushAgain` asks it for another round. */
  private flushing = false;
  private flushAgain = false;

  constructor(private readonly options: ReportOutboxOptions) {}

  /** Reports not yet acknowledged by the broker, oldest first. */
  get pending(): readonly DeviceErrorReport[] {
    return this.options.store.state.pending_reports;
  }

  /**
   * Adds an entry to the device's error log (QoS 1, not retained; `report_id` lets the server
   * ignore a duplicate). It is kept until the broker acknowledges it, so a report made while the
   * broker is away goes out on the next connection. A session's report names the capture and
   * the media already uploaded and confirmed.
   */
  report(message: string, session?: ReportedSession): DeviceErrorReport {
    const { store, log } = this.options;
    const report: DeviceErrorReport = {
      report_id: randomUUID(),
      message: message.slice(0, 4000),
      ...(session
        ? { capture_id: session.captureId, delivered_media_ids: [...session.delivered] }
        : {}),
      at: utcStamp(this.options.now()),
    };
    log.warn({ reportId: report.report_id, captureId: session?.captureId }, message);
    const pending = store.state.pending_reports;
    pending.push(report);
    if (pending.length > MAX_PENDING_REPORTS) {
      const dropped = pending.splice(0, pending.length - MAX_PENDING_REPORTS);
      log.error(
        { dropped: dropped.map((entry) => entry.message) },
        'too many unsent error reports: dropped the oldest',
      );
    }
    void store.persist();
    void this.flush();
    return report;
  }

  /**
   * Sends the kept reports, oldest first, one at a time. Stops when the connection is gone; the
   * next connection calls it again. A publish caught by a dropped connection stays in the MQTT
   * client's own queue, which re-sends it on reconnection and only then settles, so this never
   * sends a report twice itself.
   */
  async flush(): Promise<void> {
    if (this.flushing) {
      this.flushAgain = true;
      return;
    }
    const { store, link, log } = this.options;
    this.flushing = true;
    try {
      do {
        this.flushAgain = false;
        for (;;) {
          const channel = link.current();
          const report = store.state.pending_reports[0];
          if (!report || !channel?.connected) break;
          await channel.publishReport(report);
          // By identity: the queue may have dropped its oldest entries meanwhile.
          store.state.pending_reports = store.state.pending_reports.filter(
            (entry) => entry !== report,
          );
          await store.persist();
        }
      } while (this.flushAgain);
    } catch (error) {
      log.warn(
        { err: error, pending: store.state.pending_reports.length },
        'error reports not sent yet; kept for the next connection',
      );
    } finally {
      this.flushing = false;
    }
  }
}
