import { sql } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { rowsOf } from '../../src/db/client.js';
import { REQUIRE_POSTGRES, TEST_POSTGRES_URL } from '../databases.js';
import { sleep } from '../harness.js';
import { openTemporaryPostgres, postgresReachable } from '../temporary-postgres.js';

const postgres = REQUIRE_POSTGRES || (await postgresReachable(TEST_POSTGRES_URL));

/**
 * PostgreSQL ends a connection that a transaction holds between two statements (a restart or a
 * failover sends FATAL 57P01 to every session). The pool's own error listener is only on idle
 * connections, so without one of ours the client would emit an unhandled 'error' and the whole
 * server process would exit. The transaction must fail instead, and the pool go on.
 */
describe.skipIf(!postgres)('a pooled PostgreSQL connection ended while in use', () => {
  it('fails the transaction holding it, not the process; the pool serves the next query', async () => {
    const database = await openTemporaryPostgres(TEST_POSTGRES_URL);
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', onUncaught);
    try {
      const { db } = database;
      const transaction = db.transaction(async (tx) => {
        const [row] = rowsOf<{ pid: number }>(
          await tx.execute(sql`select pg_backend_pid() as pid`),
        );
        const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
        await admin.connect();
        await admin.query('select pg_terminate_backend($1)', [row!.pid]);
        await admin.end();
        // Between statements, as a transaction waiting on other work is.
        await sleep(300);
        await tx.execute(sql`select 1`);
      });
      await expect(transaction).rejects.toThrow();
      expect(uncaught).toEqual([]);
      const [after] = rowsOf<{ one: number }>(await db.execute(sql`select 1 as one`));
      expect(after!.one).toBe(1);
    } finally {
      process.off('uncaughtException', onUncaught);
      await database.close();
    }
  });
});
