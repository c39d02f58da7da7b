import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { type DatabaseHandle, openDatabase } from '../src/db/client.js';
import { migrate } from '../src/db/migrate.js';

const MIGRATIONS_DIR = path.resolve(import.meta.dirname, '../src/db/migrations');

/**
 * A name for the migrated template database that changes with the migrations: their file names
 * and contents, hashed. A template built from other migrations is never used.
 */
export function migratedTemplateName(dir = MIGRATIONS_DIR): string {
  const hash = createHash('sha256');
  for (const file of readdirSync(dir)
    .filter((name) => name.endsWith('.sql'))
    .sort()) {
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(path.join(dir, file)))
      .update('\0');
  }
  return `flashbooth_template_${hash.digest('hex').slice(0, 16)}`;
}

async function withAdmin<T>(adminUrl: string, run: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    return await run(admin);
  } finally {
    await admin.end();
  }
}

function databaseUrl(adminUrl: string, name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * The template database holding every migration, made once per set of migrations on the server
 * (by whichever test process gets there first) and kept there for later runs. It is built under a
 * name of its own and renamed when complete, so a half-built template is never copied; a second
 * process finishing at the same time drops its copy. Nobody connects to it afterwards (PostgreSQL
 * copies a template only while no session is connected to it).
 */
const templates = new Map<string, Promise<string>>();
export function migratedTemplate(adminUrl: string): Promise<string> {
  let template = templates.get(adminUrl);
  if (!template) {
    template = buildMigratedTemplate(adminUrl);
    templates.set(adminUrl, template);
    // A failed build (the server went away) is tried again by the next caller.
    template.catch(() => templates.delete(adminUrl));
  }
  return template;
}

async function buildMigratedTemplate(adminUrl: string): Promise<string> {
  const name = migratedTemplateName();
  const exists = await withAdmin(adminUrl, async (admin) => {
    const found = await admin.query('select 1 from pg_database where datname = $1', [name]);
    return (found.rowCount ?? 0) > 0;
  });
  if (exists) return name;
  const building = `${name}_${randomBytes(4).toString('hex')}`;
  await withAdmin(adminUrl, (admin) => admin.query(`create database ${building}`));
  try {
    const handle = await openDatabase({ url: databaseUrl(adminUrl, building) });
    try {
      await migrate(handle.db);
    } finally {
      await handle.close();
    }
    await withAdmin(adminUrl, async (admin) => {
      try {
        await admin.query(`alter database ${building} rename to ${name}`);
      } catch (error) {
        // 42P04 duplicate_database: another process published the same template first.
        if ((error as { code?: string }).code !== '42P04') throw error;
        await admin.query(`drop database if exists ${building} with (force)`);
      }
    });
  } catch (error) {
    await withAdmin(adminUrl, (admin) =>
      admin.query(`drop database if exists ${building} with (force)`),
    ).catch(() => undefined);
    throw error;
  }
  return name;
}

export interface TemporaryPostgresOptions {
  /**
   * Copy the database from a template that already holds every migration (`CREATE DATABASE …
   * TEMPLATE`, a file copy) instead of starting empty: what the integration tests use, since each
   * file would otherwise run all the migrations again. The app's `migrate` then finds nothing to do.
   */
  migrated?: boolean;
}

/**
 * A fresh PostgreSQL database on the server at `adminUrl`, dropped again on close: empty, or with
 * every migration applied (`migrated`). Used by the integration tests and the benchmark.
 */
export async function openTemporaryPostgres(
  adminUrl: string,
  prefix = 'flashbooth_test',
  options: TemporaryPostgresOptions = {},
): Promise<DatabaseHandle> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const template = options.migrated ? await migratedTemplate(adminUrl) : undefined;
  await withAdmin(adminUrl, (admin) =>
    admin.query(`create database ${name}${template ? ` template ${template}` : ''}`),
  );
  const handle = await openDatabase({ url: databaseUrl(adminUrl, name) });
  return {
    ...handle,
    close: async () => {
      await handle.close();
      await withAdmin(adminUrl, (admin) =>
        admin.query(`drop database if exists ${name} with (force)`),
      );
    },
  };
}

/** True when a PostgreSQL server answers at `url` within two seconds. */
export async function postgresReachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}
