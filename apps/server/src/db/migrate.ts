import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { type Database, rowsOf } from './client.js';

const MIGRATIONS_DIR = path.join(import.meta.dirname, 'migrations');
/** Any constant: serialises migrators when several server instances start at once. */
const MIGRATION_LOCK = 7_265_001;

/** Applies committed SQL migrations in file-name order, each once, each in a transaction. */
export async function migrate(db: Database, dir = MIGRATIONS_DIR): Promise<string[]> {
  const files = readdirSync(dir)
    .filter((file) => file.endsWith('.sql'))
    .sort();
  const applied: string[] = [];
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${MIGRATION_LOCK})`);
    await tx.execute(
      sql`create table if not exists schema_migrations (name text primary key, applied_at timestamptz not null default now())`,
    );
    const done = await tx.execute(sql`select name from schema_migrations`);
    const doneNames = new Set(rowsOf<{ name: string }>(done).map((row) => row.name));
    for (const file of files) {
      if (doneNames.has(file)) continue;
      const statements = readFileSync(path.join(dir, file), 'utf8')
        .split('--> statement-breakpoint')
        .map((statement) => statement.trim())
        .filter(Boolean);
      for (const statement of statements) await tx.execute(sql.raw(statement));
      await tx.execute(sql`insert into schema_migrations (name) values (${file})`);
      applied.push(file);
    }
  });
  return applied;
}
