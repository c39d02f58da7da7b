import { randomUUID } from 'node:crypto';
import type { DeviceStatusEvent } from '@flashbooth/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle } from '../../db/client.js';
import { InstanceChannel } from '../../lib/instance-channel.js';
import { toApiTimestamp } from '../../lib/time.js';

/** A recorded change of a device's live fields, and the organization that decides who sees it. */
export interface DeviceStatusChange {
  event: DeviceStatusEvent;
  orgId: number | null;
}

export type DeviceStatusListener = (change: DeviceStatusChange) => void;

/** The row fields a change is made of (a device row, or a report's RETURNING). */
export interface DeviceStatusRow {
  id: number;
  orgId: number | null;
  status: string;
  printsLeft: number | null;
  softwareVersion: string | null;
  pingedAt: Date | null;
  updatedAt: Date;
}

export function statusChangeOf(row: DeviceStatusRow): DeviceStatusChange {
  return {
    orgId: row.orgId,
    event: {
      id: row.id,
      status: row.status,
      prints_left: row.printsLeft,
      software_version: row.softwareVersion,
      pinged_at: row.pingedAt ? toApiTimestamp(row.pingedAt) : null,
      updated_at: toApiTimestamp(row.updatedAt),
    },
  };
}

/** The PostgreSQL NOTIFY channel instances tell each other their API-made changes on. */
export const DEVICE_STATUS_CHANNEL = 'flashbooth_device_status';

interface SharedChange extends DeviceStatusChange {
  /** The instance that made the change (it delivered it locally already). */
  origin: string;
}

export interface DeviceStatusFeedOptions {
  /** The database the instances share: NOTIFY and LISTEN (absent: this instance only). */
  database?: Pick<DatabaseHandle, 'db' | 'listen'>;
  log: FastifyBaseLogger;
}

/**
 * The in-process bus of recorded device status changes: DevicesService publishes after it stored
 * a change, the status stream (devices.status-stream.ts) subscribes, so neither knows the other
 * nor MQTT.
 *
 * Several instances: every instance subscribes to the broker's status topics itself and records
 * each report, so a change that came from a booth is published `local` on every instance; with a
 * share group (MQTT_SHARE_GROUP) each report is recorded by one instance, which publishes it
 * `shared`. A change made through one instance's API (restock, ping result, price, channel, link)
 * is heard by that instance only, so it is `shared` too: delivered here and sent to the other
 * instances with PostgreSQL NOTIFY (InstanceChannel), which skip their own.
 */
export class DeviceStatusFeed {
  readonly instanceId = randomUUID();
  private readonly channel: InstanceChannel<DeviceStatusChange>;

  constructor(options: DeviceStatusFeedOptions) {
    this.channel = new InstanceChannel({
      channel: DEVICE_STATUS_CHANNEL,
      database: options.database,
      log: options.log,
      parse: (message) => this.parseShared(message),
      notListening:
        'device status: not listening to the other instances; only this one is streamed',
      listenerFailed: 'device status listener failed',
    });
  }

  get subscriberCount(): number {
    return this.channel.subscriberCount;
  }

  /** Calls `listener` for every change from now on; returns the unsubscribe call. */
  subscribe(listener: DeviceStatusListener): () => void {
    return this.channel.subscribe(listener);
  }

  /**
   * Resolves once this instance hears the other instances' changes (LISTEN is in place);
   * a failure is logged and tried again with the next call.
   */
  ready(): Promise<void> {
    return this.channel.ready();
  }

  /** A change every instance heard from the broker itself: local only. */
  publishLocal(change: DeviceStatusChange): void {
    this.channel.deliver(change);
  }

  /**
   * A change only this instance knows of (made through its API, or a booth's report it alone
   * recorded): delivered here and sent to the other instances.
   */
  publishShared(change: DeviceStatusChange): void {
    this.channel.deliver(change);
    const shared: SharedChange = { ...change, origin: this.instanceId };
    this.channel.notify(shared, {
      failed: 'device status change not sent to the other instances',
      deviceId: change.event.id,
    });
  }

  /** Stops listening to the other instances (app close). */
  stop(): Promise<void> {
    return this.channel.stop();
  }

  /** Another instance's change; this instance's own was delivered when it was made. */
  private parseShared(message: unknown): DeviceStatusChange | undefined {
    const shared = message as Partial<SharedChange> | null;
    if (shared?.origin === this.instanceId || typeof shared?.event?.id !== 'number') {
      return undefined;
    }
    return { event: shared.event, orgId: shared.orgId ?? null };
  }
}
