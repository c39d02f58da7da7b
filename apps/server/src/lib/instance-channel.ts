import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle } from '../db/client.js';

export interface InstanceChannelOptions<T> {
  /** The PostgreSQL NOTIFY channel. */
  channel: string;
  /** The database the instances share (NOTIFY and LISTEN); absent: this instance only. */
  database?: Pick<DatabaseHandle, 'db' | 'listen'> | undefined;
  log: FastifyBaseLogger;
  /** A message heard from the channel, checked: undefined drops it (malformed, or our own). */
  parse(message: unknown): T | undefined;
  /** What the log says when LISTEN could not start (what the streams do without it). */
  notListening: string;
  /** What the log says when a listener throws. */
  listenerFailed: string;
}

/**
 * The in-process subscribers of one kind of change, and the PostgreSQL NOTIFY channel the server
 * instances tell each other such changes on. LISTEN starts with the first subscriber (an
 * instance with no open stream holds no connection for it) and is tried again with the next
 * subscriber when it failed. PGlite has NOTIFY and LISTEN too, for instances sharing one handle
 * in tests. The live device status and the kiosk walls are built on it.
 */
export class InstanceChannel<T> {
  private readonly listeners = new Set<(message: T) => void>();
  private listening: Promise<void> | undefined;
  private unlisten: (() => Promise<void>) | undefined;
  private stopped = false;

  constructor(private readonly options: InstanceChannelOptions<T>) {}

  /** Whether the instances share a database to send changes through. */
  get isShared(): boolean {
    return this.options.database !== undefined;
  }

  get subscriberCount(): number {
    return this.listeners.size;
  }

  /** Calls `listener` for every message from now on; returns the unsubscribe call. */
  subscribe(listener: (message: T) => void): () => void {
    this.listeners.add(listener);
    void this.ready();
    return () => {
      this.listeners.delete(listener);
    };
  }

  /** Resolves once this instance hears the channel (LISTEN is in place); failures are logged. */
  ready(): Promise<void> {
    const listen = this.options.database?.listen;
    if (!listen || this.stopped) return Promise.resolve();
    this.listening ??= listen(this.options.channel, (payload) => this.receive(payload)).then(
      async (unlisten) => {
        if (this.stopped) await unlisten();
        else this.unlisten = unlisten;
      },
      (error: unknown) => {
        this.listening = undefined;
        this.options.log.warn({ err: error }, this.options.notListening);
      },
    );
    return this.listening;
  }

  /** To this instance's subscribers only. */
  deliver(message: T): void {
    for (const listener of this.listeners) {
      try {
        listener(message);
      } catch (error) {
        this.options.log.error({ err: error }, this.options.listenerFailed);
      }
    }
  }

  /**
   * To every instance listening, this one included when it listens: NOTIFY, whose failure is
   * logged with `context` (the change is then lost to the other instances' streams).
   */
  notify(message: unknown, context: { failed: string } & Record<string, unknown>): void {
    const db = this.options.database?.db;
    if (!db) return;
    const { failed, ...fields } = context;
    db.execute(sql`select pg_notify(${this.options.channel}, ${JSON.stringify(message)})`).catch(
      (error: unknown) => this.options.log.warn({ err: error, ...fields }, failed),
    );
  }

  /** No more messages; LISTEN ends (app close). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.listeners.clear();
    await this.listening;
    const unlisten = this.unlisten;
    this.unlisten = undefined;
    await unlisten?.();
  }

  private receive(payload: string): void {
    let message: unknown;
    try {
      message = JSON.parse(payload);
    } catch {
      return;
    }
    const parsed = this.options.parse(message);
    if (parsed !== undefined) this.deliver(parsed);
  }
}
