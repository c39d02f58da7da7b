import { randomUUID } from 'node:crypto';
import type { DeviceStatusEvent } from '@flashbooth/contracts';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle } from '../../db/client.js';
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
 * The in-process bus of recorded device status changes (issue 11, live status): DevicesService
 * publishes after it stored a change, the status stream (devices.status-stream.ts) subscribes,
 * so neither knows the other nor MQTT.
 *
 * Several instances: every instance subscribes to the broker's status topics itself and records
 * each report, so a change that came from a booth is published `local` on every instance. A
 * change made through one instance's API (restock, ping result, price, channel, link) is heard by
 * that instance only, so it is `shared`: delivered here and sent to the other instances with
 * PostgreSQL NOTIFY (PGlite has it too, for instances sharing one handle in tests). The LISTEN
 * starts with the first subscriber, so an instance without open consoles holds no connection.
 */
export class DeviceStatusFeed {
  readonly instanceId = randomUUID();
  private readonly listeners = new Set<DeviceStatusListener>();
  private listening: Promise<void> | undefined;
  private unlisten: (() => Promise<void>) | undefined;
  private stopped = false;

  constructor(private readonly options: DeviceStatusFeedOptions) {}

  get subscriberCount(): number {
    return this.listeners.size;
  }

  /** Calls `listener` for every change from now on; returns the unsubscribe call. */
  subscribe(listener: DeviceStatusListener): () => void {
    this.listeners.add(listener);
    void this.ready();
    return () => {
      this.listeners.delete(listener);
    };
  }

  /**
   * Resolves once this instance hears the other instances' changes (LISTEN is in place);
   * a failure is logged and tried again with the next call.
   */
  ready(): Promise<void> {
    const listen = this.options.database?.listen;
    if (!listen || this.stopped) return Promise.resolve();
    this.listening ??= listen(DEVICE_STATUS_CHANNEL, (payload) => this.receive(payload)).then(
      async (unlisten) => {
        if (this.stopped) await unlisten();
        else this.unlisten = unlisten;
      },
      (error: unknown) => {
        this.listening = undefined;
        this.options.log.warn(
          { err: error },
          'device status: not listening to the other instances; only this one is streamed',
        );
      },
    );
    return this.listening;
  }

  /** A change this instance heard from the broker: every instance hears it, so local only. */
  publishLocal(change: DeviceStatusChange): void {
    this.deliver(change);
  }

  /** A change made through this instance's API: delivered here and sent to the other instances. */
  publishShared(change: DeviceStatusChange): void {
    this.deliver(change);
    const db = this.options.database?.db;
    if (!db) return;
    const shared: SharedChange = { ...change, origin: this.instanceId };
    db.execute(sql`select pg_notify(${DEVICE_STATUS_CHANNEL}, ${JSON.stringify(shared)})`).catch(
      (error: unknown) =>
        this.options.log.warn(
          { err: error, deviceId: change.event.id },
          'device status change not sent to the other instances',
        ),
    );
  }

  /** Stops listening to the other instances (app close). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.listeners.clear();
    await this.listening;
    const unlisten = this.unlisten;
    this.unlisten = undefined;
    await unlisten?.();
  }

  private receive(payload: string): void {
    let shared: SharedChange;
    try {
      shared = JSON.parse(payload) as SharedChange;
    } catch {
      return;
    }
    if (shared.origin === this.instanceId || typeof shared.event?.id !== 'number') return;
    this.deliver({ event: shared.event, orgId: shared.orgId ?? null });
  }

  private deliver(change: DeviceStatusChange): void {
    for (const listener of this.listeners) {
      try {
        listener(change);
      } catch (error) {
        this.options.log.error({ err: error }, 'device status listener failed');
      }
    }
  }
}
