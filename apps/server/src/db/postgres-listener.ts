import pg from 'pg';

/** How long a lost LISTEN connection waits before it connects again. */
const LISTEN_RECONNECT_MS = 1000;

interface Subscriber {
  onPayload: (payload: string) => void;
  onState: (listening: boolean) => void;
}

/**
 * The one connection an instance LISTENs on, for every channel (the wall cache, the live status
 * stream, the kiosk walls): opened with the first listener, ended with the last, and connected
 * again after a loss with every channel's LISTEN in place again. Notifications sent while it is
 * down are missed: each subscriber's `onState` hears false when the connection is lost and true
 * once its channel is listened to again.
 */
export class PostgresListener {
  private readonly channels = new Map<string, Set<Subscriber>>();
  /** The connection whose LISTENs are in place. */
  private client: pg.Client | undefined;
  private connecting: Promise<pg.Client> | undefined;
  private retry: NodeJS.Timeout | undefined;

  constructor(private readonly url: string) {}

  /**
   * LISTENs on `channel` and calls `onPayload` for each notification; resolves with the call that
   * stops. Rejects when the connection cannot be made now (nothing is left listening for it).
   */
  async listen(
    channel: string,
    onPayload: (payload: string) => void,
    onState: (listening: boolean) => void = () => undefined,
  ): Promise<() => Promise<void>> {
    const subscriber: Subscriber = { onPayload, onState };
    const subscribers = this.channels.get(channel) ?? new Set<Subscriber>();
    const first = subscribers.size === 0;
    subscribers.add(subscriber);
    this.channels.set(channel, subscribers);
    // Without a connection, the one made now listens on every channel and tells every
    // subscriber, this one included.
    const fresh = this.client === undefined;
    try {
      const client = await this.connection();
      if (!fresh) {
        if (first) await client.query(`listen ${client.escapeIdentifier(channel)}`);
        if (this.client === client) onState(true);
      }
    } catch (error) {
      await this.remove(channel, subscriber);
      throw error;
    }
    let stopped = false;
    return async () => {
      if (stopped) return;
      stopped = true;
      await this.remove(channel, subscriber);
    };
  }

  /** Ends the connection and forgets every channel (the database is closing). */
  async close(): Promise<void> {
    this.channels.clear();
    await this.end();
  }

  private async remove(channel: string, subscriber: Subscriber): Promise<void> {
    const subscribers = this.channels.get(channel);
    if (!subscribers?.delete(subscriber) || subscribers.size > 0) return;
    this.channels.delete(channel);
    if (this.channels.size === 0) {
      await this.end();
      return;
    }
    await this.client
      ?.query(`unlisten ${this.client.escapeIdentifier(channel)}`)
      .catch(() => undefined);
  }

  private async end(): Promise<void> {
    clearTimeout(this.retry);
    this.retry = undefined;
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  /** The connection with every channel's LISTEN in place, made now if there is none. */
  private connection(): Promise<pg.Client> {
    if (this.client) return Promise.resolve(this.client);
    this.connecting ??= this.open().finally(() => {
      this.connecting = undefined;
    });
    return this.connecting;
  }

  private async open(): Promise<pg.Client> {
    clearTimeout(this.retry);
    this.retry = undefined;
    const client = new pg.Client({ connectionString: this.url });
    let lost = false;
    const onLost = (error?: Error) => {
      if (lost) return;
      lost = true;
      client.end().catch(() => undefined);
      if (this.client !== client) return;
      this.client = undefined;
      if (error) {
        console.warn(`PostgreSQL LISTEN connection lost (reconnecting): ${error.message}`);
      }
      this.tell(false);
      this.reconnectLater();
    };
    client.on('notification', (message) => {
      for (const subscriber of this.channels.get(message.channel) ?? []) {
        subscriber.onPayload(message.payload ?? '');
      }
    });
    client.on('error', onLost);
    client.on('end', () => onLost());
    try {
      await client.connect();
      for (const channel of this.channels.keys()) {
        await client.query(`listen ${client.escapeIdentifier(channel)}`);
      }
    } catch (error) {
      lost = true;
      client.end().catch(() => undefined);
      // Whoever else listens is still waiting for a connection.
      this.reconnectLater();
      throw error;
    }
    if (lost) {
      this.reconnectLater();
      throw new Error('PostgreSQL LISTEN connection lost while connecting');
    }
    if (this.channels.size === 0) {
      // Every listener stopped while this connection was made.
      await client.end().catch(() => undefined);
      throw new Error('nothing to listen to');
    }
    this.client = client;
    this.tell(true);
    return client;
  }

  /** Every subscriber's `onState`. */
  private tell(listening: boolean): void {
    for (const subscribers of this.channels.values()) {
      for (const subscriber of subscribers) subscriber.onState(listening);
    }
  }

  /** After a loss: connects again (every LISTEN in place) while anything listens. */
  private reconnectLater(): void {
    if (this.channels.size === 0 || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      if (this.channels.size === 0 || this.client) return;
      // A failure schedules the next attempt itself.
      this.connection().catch(() => undefined);
    }, LISTEN_RECONNECT_MS);
    this.retry.unref();
  }
}
