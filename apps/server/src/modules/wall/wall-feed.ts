import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle } from '../../db/client.js';

/** An item came onto the wall or left it (made public or private, hidden or shown again). */
export interface WallChange {
  mediaId: number;
  /** The organization whose booth made it: the kiosk walls of that organization care. */
  orgId: number | null;
  onWall: boolean;
}

export type WallListener = (change: WallChange) => void;

/** The PostgreSQL NOTIFY channel the instances tell each other the wall's changes on. */
export const WALL_CHANNEL = 'flashbooth_wall';

export interface WallFeedOptions {
  /** The database the instances share (NOTIFY and LISTEN); absent: this instance only. */
  database?: Pick<DatabaseHandle, 'db' | 'listen'>;
  log: FastifyBaseLogger;
}

/**
 * The wall's changes for the kiosk walls' live streams (`walls/{orgId}/events`), the same
 * mechanism as the console's live device status (`DeviceStatusFeed`): a change is made through
 * one instance's API, so it is sent with PostgreSQL NOTIFY and every instance, the sender
 * included, hears it on its LISTEN and passes it to its open streams. LISTEN starts with the
 * first subscriber, so an instance with no kiosk open holds no connection for it. A change sent
 * while an instance's LISTEN connection is being re-made is missed there; the kiosk also reloads
 * its items every few minutes (`KIOSK_RELOAD_MS` in the web app), so it catches up.
 */
export class WallFeed {
  private readonly listeners = new Set<WallListener>();
  private listening: Promise<void> | undefined;
  private unlisten: (() => Promise<void>) | undefined;
  private stopped = false;

  constructor(private readonly options: WallFeedOptions) {}

  get subscriberCount(): number {
    return this.listeners.size;
  }

  /** Calls `listener` for every change from now on; returns the unsubscribe call. */
  subscribe(listener: WallListener): () => void {
    this.listeners.add(listener);
    void this.ready();
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Resolves once this instance hears the changes (LISTEN is in place); failures are logged. */
  ready(): Promise<void> {
    const listen = this.options.database?.listen;
    if (!listen || this.stopped) return Promise.resolve();
    this.listening ??= listen(WALL_CHANNEL, (payload) => this.receive(payload)).then(
      async (unlisten) => {
        if (this.stopped) await unlisten();
        else this.unlisten = unlisten;
      },
      (error: unknown) => {
        this.listening = undefined;
        this.options.log.warn({ err: error }, 'wall feed: not listening; kiosk walls reload only');
      },
    );
    return this.listening;
  }

  /** A change this instance made: to every instance (itself through its own LISTEN). */
  publish(change: WallChange): void {
    const db = this.options.database?.db;
    if (!db) {
      this.deliver(change);
      return;
    }
    db.execute(sql`select pg_notify(${WALL_CHANNEL}, ${JSON.stringify(change)})`).catch(
      (error: unknown) =>
        this.options.log.warn({ err: error, mediaId: change.mediaId }, 'wall change not sent'),
    );
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.listeners.clear();
    await this.listening;
    const unlisten = this.unlisten;
    this.unlisten = undefined;
    await unlisten?.();
  }

  private receive(payload: string): void {
    let change: WallChange;
    try {
      change = JSON.parse(payload) as WallChange;
    } catch {
      return;
    }
    if (typeof change?.mediaId !== 'number' || typeof change.onWall !== 'boolean') return;
    this.deliver({
      mediaId: change.mediaId,
      orgId: typeof change.orgId === 'number' ? change.orgId : null,
      onWall: change.onWall,
    });
  }

  private deliver(change: WallChange): void {
    for (const listener of this.listeners) {
      try {
        listener(change);
      } catch (error) {
        this.options.log.error({ err: error }, 'wall listener failed');
      }
    }
  }
}
