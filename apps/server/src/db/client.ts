import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { sql } from 'drizzle-orm';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { lockDataDir } from './data-dir-lock.js';
import { PostgresListener } from './postgres-listener.js';
import * as schema from './schema.js';

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
/** Either the database or an open transaction: repositories accept both. */
export type Executor = Database | Transaction;

/** Rows of a raw `execute()`: both drivers (pg and PGlite) return `{ rows }`. */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  /** Checks the connection (health). */
  ping: () => Promise<void>;
  /**
   * LISTENs on a channel (PostgreSQL NOTIFY, which PGlite has too) and calls `onPayload` for each
   * notification; resolves with the call that stops listening. On PostgreSQL one connection
   * for every channel (`PostgresListener`), reconnected after a loss (notifications sent
   * meanwhile are missed: `onState` hears false when the connection is lost and true each time
   * LISTEN is in place again).
   */
  listen: (
    channel: string,
    onPayload: (payload: string) => void,
    onState?: (listening: boolean) => void,
  ) => Promise<() => Promise<void>>;
  close: () => Promise<void>;
  /** PostgreSQL's pool right now (the metrics); absent on PGlite, one in-process session. */
  poolStats?: () => { total: number; idle: number; waiting: number };
  /** PGlite only: the database's files as a tarball, for `loadDataDir` (the tests' migrated snapshot). */
  dumpDataDir?: () => Promise<Blob>;
}

export interface DatabaseOptions {
  /** PostgreSQL URL; absent = embedded PGlite. */
  url?: string | undefined;
  /** PGlite data folder; absent = in memory (tests). */
  dataDir?: string | undefined;
  /**
   * PGlite: start from these files (a `dumpDataDir` tarball) instead of an empty database. The
   * integration tests open each in-memory database from one migrated snapshot (test/databases.ts).
   */
  loadDataDir?: Blob | undefined;
}

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.url) {
    const pool = new pg.Pool({ connectionString: options.url, max: 10 });
    // An idle pooled connection can be ended by the server (restart, failover, a dropped test
    // database). pg then emits 'error' on the pool; unhandled, that would crash the process.
    // The pool replaces the connection on the next query, so reporting it is enough.
    pool.on('error', (error) => {
      console.warn(`PostgreSQL connection lost (the pool reconnects): ${error.message}`);
    });
    // The pool listens for errors only on idle connections. One checked out (a transaction
    // between two statements) that the server ends (a restart, a failover: FATAL 57P01) would
    // emit 'error' with nobody listening, and Node would end the whole process. Its statement in
    // flight, or the next one, fails instead, and the pool discards it when it is released.
    pool.on('connect', (client) => {
      client.on('error', () => undefined);
    });
    const db = drizzleNodePg(pool, { schema }) as unknown as Database;
    const listener = new PostgresListener(options.url);
    return {
      db,
      kind: 'postgres',
      ping: async () => {
        await db.execute(sql`select 1`);
      },
      listen: (channel, onPayload, onState) => listener.listen(channel, onPayload, onState),
      close: async () => {
        await listener.close();
        await pool.end();
      },
      poolStats: () => ({
        total: pool.totalCount,
        idle: pool.idleCount,
        waiting: pool.waitingCount,
      }),
    };
  }
  let dataDir: string | undefined;
  let unlock = () => {};
  if (options.dataDir) {
    dataDir = path.join(options.dataDir, 'pglite');
    mkdirSync(dataDir, { recursive: true });
    // One process per folder: a second server, or a backup while this one runs, is refused.
    unlock = lockDataDir(dataDir);
  }
  // pg_trgm: the wall's search indexes (migration 0014); PostgreSQL has it as a contrib module.
  const client = new PGlite({
    dataDir,
    extensions: { pg_trgm },
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
  });
  try {
    await client.waitReady;
  } catch (error) {
    unlock();
    throw error;
  }
  const db = drizzlePglite(client, { schema }) as unknown as Database;
  return {
    db,
    kind: 'pglite',
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    listen: async (channel, onPayload, onState) => {
      const unlisten = await client.listen(channel, onPayload);
      onState?.(true);
      return async () => {
        if (!client.closed) await unlisten();
      };
    },
    close: async () => {
      try {
        await client.close();
      } finally {
        unlock();
      }
    },
    dumpDataDir: () => client.dumpDataDir('none'),
  };
}
