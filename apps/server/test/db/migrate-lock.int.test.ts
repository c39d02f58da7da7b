import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openDatabase, rowsOf } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { REQUIRE_POSTGRES, TEST_POSTGRES_URL } from '../databases.js';
import { postgresReachable } from '../temporary-postgres.js';

const MIGRATIONS = readdirSync(path.resolve(import.meta.dirname, '../../src/db/migrations'))
  .filter((file) => file.endsWith('.sql'))
  .sort();

const available = REQUIRE_POSTGRES || (await postgresReachable(TEST_POSTGRES_URL));

/** Where two instances really race: PostgreSQL (PGlite is one process's database). */
describe.skipIf(!available)('two instances starting at once on one PostgreSQL database', () => {
  it('apply the migrations once, by whichever takes the migration lock first', async () => {
    const name = `flashbooth_migrate_${randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const url = new URL(TEST_POSTGRES_URL);
    url.pathname = `/${name}`;
    // Each instance has its own pool, as two server processes would.
    const first = await openDatabase({ url: url.toString() });
    const second = await openDatabase({ url: url.toString() });
    try {
      const results = await Promise.all([migrate(first.db), migrate(second.db)]);
      // One applied every migration; the other waited on the lock and then found none left.
      expect(results.map((applied) => applied.length).sort((a, b) => a - b)).toEqual([
        0,
        MIGRATIONS.length,
      ]);
      expect(results.flat()).toEqual(MIGRATIONS);
      const recorded = rowsOf<{ name: string }>(
        await second.db.execute(sql`select name from schema_migrations order by name`),
      ).map((row) => row.name);
      expect(recorded).toEqual(MIGRATIONS);
      expect(await migrate(first.db)).toEqual([]);
    } finally {
      await first.close();
      await second.close();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  });
});
