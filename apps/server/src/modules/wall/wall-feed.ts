import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle } from '../../db/client.js';
import { InstanceChannel } from '../../lib/instance-channel.js';

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
 * mechanism as the console's live device status (`DeviceStatusFeed`, both on InstanceChannel): a
 * change is made through one instance's API, so it is sent with PostgreSQL NOTIFY and every
 * instance, the sender included, hears it on its LISTEN and passes it to its open streams. A
 * change sent while an instance's LISTEN connection is being re-made is missed there; the kiosk
 * also reloads its items every few minutes (`KIOSK_RELOAD_MS` in the web app), so it catches up.
 */
export class WallFeed {
  private readonly channel: InstanceChannel<WallChange>;

  constructor(options: WallFeedOptions) {
    this.channel = new InstanceChannel({
      channel: WALL_CHANNEL,
      database: options.database,
      log: options.log,
      parse: parseWallChange,
      notListening: 'wall feed: not listening; kiosk walls reload only',
      listenerFailed: 'wall listener failed',
    });
  }

  get subscriberCount(): number {
    return this.channel.subscriberCount;
  }

  /** Calls `listener` for every change from now on; returns the unsubscribe call. */
  subscribe(listener: WallListener): () => void {
    return this.channel.subscribe(listener);
  }

  /** Resolves once this instance hears the changes (LISTEN is in place); failures are logged. */
  ready(): Promise<void> {
    return this.channel.ready();
  }

  /** A change this instance made: to every instance (itself through its own LISTEN). */
  publish(change: WallChange): void {
    if (this.channel.isShared) {
      this.channel.notify(change, { failed: 'wall change not sent', mediaId: change.mediaId });
    } else {
      this.channel.deliver(change);
    }
  }

  stop(): Promise<void> {
    return this.channel.stop();
  }
}

function parseWallChange(message: unknown): WallChange | undefined {
  const change = message as Partial<WallChange> | null;
  if (typeof change?.mediaId !== 'number' || typeof change.onWall !== 'boolean') return undefined;
  return {
    mediaId: change.mediaId,
    orgId: typeof change.orgId === 'number' ? change.orgId : null,
    onWall: change.onWall,
  };
}
