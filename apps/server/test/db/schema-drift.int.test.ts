import { is, SQL, sql } from 'drizzle-orm';
import {
  boolean,
  check,
  getTableConfig,
  index,
  integer,
  type PgColumn,
  PgDialect,
  pgTable,
  PgTable,
  serial,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, type DatabaseHandle, rowsOf } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import * as schema from '../../src/db/schema.js';
import { databaseTargets } from '../databases.js';

/*
 * db/schema.ts must say exactly what the migrations build. How this test compares them:
 *
 * 1. A fresh database is migrated (schema `public`: what the SQL files build).
 * 2. Every table of schema.ts is built from its Drizzle declaration alone (columns with their
 *    types, NOT NULL and defaults; primary keys, unique constraints, foreign keys, checks and
 *    indexes) in a second schema, `drizzle_mirror`.
 * 3. Both schemas are read back from the catalog with the same queries (format_type,
 *    pg_get_expr, pg_get_constraintdef, pg_get_indexdef), so PostgreSQL itself spells both sides
 *    (`state IN ('a')` and `state = ANY (ARRAY['a'::text])` come out the same) and the comparison
 *    can be exact, in both directions: a constraint or index by name, a column by name.
 *
 * Constraints Drizzle leaves unnamed (`.primaryKey()`, `.unique()`, `.references()`) are created
 * unnamed, so PostgreSQL picks the same default name as for the migrations (`media_s3_key_key`,
 * `devices_org_id_fkey`); code relies on some of those names (isUniqueViolation).
 */

/** Where schema.ts is rebuilt from its declarations. */
const MIRROR_SCHEMA = 'drizzle_mirror';

/**
 * Differences Drizzle cannot (or should not) express. Each is matched exactly and must still
 * occur, so a stale entry fails too. Nothing else is skipped.
 */
const KNOWN_DIFFERENCES: { difference: string; reason: string }[] = [
  {
    difference: 'table schema_migrations: built by the migrations, missing from schema.ts',
    reason:
      'Bookkeeping of the migrator itself: migrate.ts creates and reads it with raw SQL before any ' +
      'migration runs; no query goes through Drizzle.',
  },
];

const dialect = new PgDialect();

/** SQL text of a Drizzle expression with its parameters inlined and columns unqualified. */
function render(expression: SQL): string {
  return dialect.sqlToQuery(sql`${expression}`.inlineParams(), 'indexes').sql;
}

const quoted = (name: string) => dialect.escapeName(name);
const columnList = (columns: { name: string }[]) =>
  columns.map((column) => quoted(column.name)).join(', ');

/** DDL that builds `tables` from their Drizzle declarations alone, plus what it cannot express. */
function mirrorDdl(tables: PgTable[]): { statements: string[]; problems: string[] } {
  const tablesDdl: string[] = [];
  const foreignKeys: string[] = [];
  const indexes: string[] = [];
  const problems: string[] = [];

  for (const table of tables) {
    const config = getTableConfig(table);
    if (config.schema !== undefined) {
      problems.push(`table ${config.name}: declared in schema ${config.schema}; extend this test`);
    }
    const parts: string[] = [];
    for (const column of config.columns) {
      const where = `${config.name}: column ${column.name}`;
      if (column.generated || column.generatedIdentity) {
        problems.push(
          `${where}: generated/identity columns are not supported yet; extend this test`,
        );
      }
      let definition = `${quoted(column.name)} ${column.getSQLType()}`;
      if (column.notNull) definition += ' not null';
      const value = defaultOf(column);
      if (typeof value === 'object') problems.push(`${where}: ${value.problem}`);
      else if (value !== undefined) definition += ` default ${value}`;
      if (column.primary) definition += ' primary key';
      if (column.isUnique) {
        // Drizzle names an unnamed `.unique()` `<table>_<column>_unique`; leave that to PostgreSQL.
        const named = column.uniqueName !== `${config.name}_${column.name}_unique`;
        if (named) definition += ` constraint ${quoted(column.uniqueName!)}`;
        definition += ' unique';
        if (column.uniqueType === 'not distinct') definition += ' nulls not distinct';
      }
      parts.push(definition);
    }
    for (const key of config.primaryKeys) {
      const name = key.name ? `constraint ${quoted(key.name)} ` : '';
      parts.push(`${name}primary key (${columnList(key.columns)})`);
    }
    for (const unique of config.uniqueConstraints) {
      const automatic = `${config.name}_${unique.columns.map((column) => column.name).join('_')}_unique`;
      const name =
        unique.name && unique.name !== automatic ? `constraint ${quoted(unique.name)} ` : '';
      const nulls = unique.nullsNotDistinct ? ' nulls not distinct' : '';
      parts.push(`${name}unique${nulls} (${columnList(unique.columns)})`);
    }
    for (const check of config.checks) {
      parts.push(`constraint ${quoted(check.name)} check (${render(check.value)})`);
    }
    tablesDdl.push(`create table ${quoted(config.name)} (\n  ${parts.join(',\n  ')}\n)`);

    for (const foreignKey of config.foreignKeys) {
      const reference = foreignKey.reference();
      const target = getTableConfig(reference.foreignTable).name;
      const name = reference.name ? `constraint ${quoted(reference.name)} ` : '';
      foreignKeys.push(
        `alter table ${quoted(config.name)} add ${name}foreign key (${columnList(reference.columns)}) ` +
          `references ${quoted(target)} (${columnList(reference.foreignColumns)}) ` +
          `on delete ${foreignKey.onDelete ?? 'no action'} on update ${foreignKey.onUpdate ?? 'no action'}`,
      );
    }

    for (const { config: declared } of config.indexes) {
      if (!declared.name) {
        problems.push(`${config.name}: an index has no name; give it the migration's name`);
        continue;
      }
      const keys = declared.columns.map((key) => {
        if (is(key, SQL)) return `(${render(key)})`;
        const { name, indexConfig } = key as { name: string; indexConfig?: IndexKeyConfig };
        // Drizzle's (and drizzle-kit's) reading: `.desc()` alone means DESC NULLS LAST, so a
        // migration's plain `DESC` (NULLS FIRST) is `.desc().nullsFirst()`.
        const desc = indexConfig?.order === 'desc';
        const nulls = indexConfig?.nulls ?? 'last';
        let text = quoted(name);
        if (indexConfig?.opClass) text += ` ${indexConfig.opClass}`;
        if (desc) text += ' desc';
        if (desc || nulls !== 'last') text += ` nulls ${nulls}`;
        return text;
      });
      const storage = declared.with
        ? ` with (${Object.entries(declared.with)
            .map(([key, value]) => `${key} = ${String(value)}`)
            .join(', ')})`
        : '';
      const where = declared.where ? ` where ${render(declared.where)}` : '';
      indexes.push(
        `create ${declared.unique ? 'unique ' : ''}index ${quoted(declared.name)} on ` +
          `${declared.only ? 'only ' : ''}${quoted(config.name)} using ${declared.method ?? 'btree'} ` +
          `(${keys.join(', ')})${storage}${where}`,
      );
    }
  }
  return { statements: [...tablesDdl, ...foreignKeys, ...indexes], problems };
}

interface IndexKeyConfig {
  order?: 'asc' | 'desc';
  nulls?: 'first' | 'last';
  opClass?: string;
}

/** The column's database default as SQL, undefined for none (a `$defaultFn` lives in JS only). */
function defaultOf(column: PgColumn): string | undefined | { problem: string } {
  const value: unknown = column.default;
  if (value === undefined) return undefined;
  if (is(value, SQL)) return render(value);
  if (typeof value === 'string') return dialect.escapeString(value);
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return { problem: `a ${typeof value} default cannot be rendered yet; extend this test` };
}

/** One schema as the catalog describes it: table → fact ("column x", "index y") → definition. */
type Catalog = Map<string, Map<string, string>>;

async function readCatalog(db: Database, schemaName: string): Promise<Catalog> {
  return db.transaction(async (tx) => {
    // Names are printed relative to the search path: `nextval('users_id_seq'::regclass)` and
    // `REFERENCES users(id)` read the same in both schemas. `public` comes after it for what
    // extensions install there (pg_trgm's `gin_trgm_ops`), so both sides print it unqualified.
    await tx.execute(sql.raw(`set local search_path to ${quoted(schemaName)}, public`));
    const catalog: Catalog = new Map();
    const factsOf = (table: string) => {
      let facts = catalog.get(table);
      if (!facts) catalog.set(table, (facts = new Map()));
      return facts;
    };

    const tables = await tx.execute(sql`
      select c.relname as table_name
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = ${schemaName} and c.relkind in ('r', 'p')`);
    for (const row of rowsOf<{ table_name: string }>(tables)) factsOf(row.table_name);

    const columns = await tx.execute(sql`
      select c.relname as table_name, a.attname as name,
             format_type(a.atttypid, a.atttypmod) as type, a.attnotnull as not_null,
             pg_get_expr(d.adbin, d.adrelid) as default_value,
             a.attidentity as identity, a.attgenerated as generated
      from pg_attribute a
      join pg_class c on c.oid = a.attrelid
      join pg_namespace n on n.oid = c.relnamespace
      left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
      where n.nspname = ${schemaName} and c.relkind in ('r', 'p')
        and a.attnum > 0 and not a.attisdropped`);
    for (const row of rowsOf<{
      table_name: string;
      name: string;
      type: string;
      not_null: boolean;
      default_value: string | null;
      identity: string;
      generated: string;
    }>(columns)) {
      let definition = row.type;
      if (row.not_null) definition += ' not null';
      if (row.default_value !== null) {
        definition += `${row.generated ? ' generated as' : ' default'} ${row.default_value}`;
      }
      if (row.identity) definition += ` identity (${row.identity})`;
      factsOf(row.table_name).set(`column ${row.name}`, definition);
    }

    // Primary keys, unique constraints, foreign keys, checks, exclusions (not PG 18's NOT NULL
    // rows, which the columns already show).
    const constraints = await tx.execute(sql`
      select c.relname as table_name, con.conname as name,
             pg_get_constraintdef(con.oid, true) as definition
      from pg_constraint con
      join pg_class c on c.oid = con.conrelid
      join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = ${schemaName} and con.contype in ('p', 'u', 'f', 'c', 'x')`);
    for (const row of rowsOf<{ table_name: string; name: string; definition: string }>(
      constraints,
    )) {
      factsOf(row.table_name).set(`constraint ${row.name}`, row.definition);
    }

    // Indexes other than those behind a primary key, unique or exclusion constraint.
    const indexes = await tx.execute(sql`
      select c.relname as table_name, i.relname as name, pg_get_indexdef(i.oid) as definition
      from pg_index x
      join pg_class i on i.oid = x.indexrelid
      join pg_class c on c.oid = x.indrelid
      join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = ${schemaName}
        and not exists (
          select 1 from pg_constraint con
          where con.conindid = x.indexrelid and con.conrelid = x.indrelid
            and con.contype in ('p', 'u', 'x'))`);
    for (const row of rowsOf<{ table_name: string; name: string; definition: string }>(indexes)) {
      // pg_get_indexdef always qualifies the table: `ON public.media`.
      const definition = row.definition.replace(
        new RegExp(` ON (ONLY )?${schemaName}\\.`),
        (_match, only: string | undefined) => ` ON ${only ?? ''}`,
      );
      factsOf(row.table_name).set(`index ${row.name}`, definition);
    }
    return catalog;
  });
}

/** Builds `tables` from their declarations in `schemaName` (a fresh schema). */
async function buildMirror(db: Database, tables: PgTable[], schemaName: string): Promise<string[]> {
  const { statements, problems } = mirrorDdl(tables);
  await db.transaction(async (tx) => {
    await tx.execute(sql.raw(`create schema ${quoted(schemaName)}`));
    // `public` last: only for extension objects (pg_trgm's operator classes); every table of
    // the mirror exists in the mirror before the foreign keys name them.
    await tx.execute(sql.raw(`set local search_path to ${quoted(schemaName)}, public`));
    for (const statement of statements) {
      try {
        await tx.execute(sql.raw(statement));
      } catch (error) {
        throw new Error(
          `PostgreSQL refuses what schema.ts declares:\n${statement}\n${(error as Error).message}`,
          { cause: error },
        );
      }
    }
  });
  return problems;
}

/** Every disagreement between the migrated schema and the Drizzle mirror, one line each. */
function compare(migrated: Catalog, declared: Catalog): string[] {
  const lines: string[] = [];
  const tables = [...new Set([...migrated.keys(), ...declared.keys()])].sort();
  for (const table of tables) {
    const fromMigrations = migrated.get(table);
    const fromSchema = declared.get(table);
    if (!fromSchema) {
      lines.push(`table ${table}: built by the migrations, missing from schema.ts`);
      continue;
    }
    if (!fromMigrations) {
      lines.push(`table ${table}: declared in schema.ts, not built by the migrations`);
      continue;
    }
    const facts = [...new Set([...fromMigrations.keys(), ...fromSchema.keys()])].sort();
    for (const fact of facts) {
      const inMigrations = fromMigrations.get(fact);
      const inSchema = fromSchema.get(fact);
      if (inSchema === undefined) {
        lines.push(`${table}: ${fact} is in the migrations but not in schema.ts: ${inMigrations}`);
      } else if (inMigrations === undefined) {
        lines.push(`${table}: ${fact} is in schema.ts but not in the migrations: ${inSchema}`);
      } else if (inMigrations !== inSchema) {
        lines.push(
          `${table}: ${fact} differs: migrations "${inMigrations}", schema.ts "${inSchema}"`,
        );
      }
    }
  }
  return lines;
}

/** Migrated schema `sourceSchema` against `tables` rebuilt in `mirrorSchema`. */
async function drift(
  db: Database,
  tables: PgTable[],
  sourceSchema: string,
  mirrorSchema: string,
): Promise<string[]> {
  const problems = await buildMirror(db, tables, mirrorSchema);
  const migrated = await readCatalog(db, sourceSchema);
  const declared = await readCatalog(db, mirrorSchema);
  return [...problems, ...compare(migrated, declared)];
}

/*
 * The comparison itself: a small "migration" and a Drizzle declaration that gets one thing of
 * each kind wrong. If the comparison ever stopped seeing a kind of difference, this fails.
 */
const canaryParent = pgTable('parent', { id: serial('id').primaryKey() });
const canaryChild = pgTable(
  'child',
  {
    id: serial('id').primaryKey(),
    parentId: integer('parent_id')
      .notNull()
      .references(() => canaryParent.id, { onDelete: 'set null' }), // migration: cascade
    state: text('state').notNull().default('closed'), // migration: default 'open'
    note: text('note').notNull(), // migration: nullable and unique; and `legacy` is missing here
    done: boolean('done').notNull().default(false),
    createdAt: timestamp('created_at').notNull().defaultNow(), // migration: timestamptz
  },
  (table) => [
    // migration: in ('open', 'closed')
    check('child_state_check', sql`${table.state} in ('open')`),
    // migration: created_at DESC
    index('child_parent_idx').on(table.parentId, table.createdAt),
    // migration: WHERE state = 'open'
    uniqueIndex('child_open_once')
      .on(table.parentId)
      .where(sql`${table.state} = 'closed'`),
    // migration: not unique
    uniqueIndex('child_lower_note_idx').on(sql`lower(${table.note})`),
    // not in the migration; and child_done_idx is missing here
    index('child_extra_idx').on(table.done),
  ],
);
/** Not in the migration (which has `leftover`, missing here). */
const canaryOrphan = pgTable('orphan', { id: serial('id').primaryKey() });

const CANARY_MIGRATION = [
  'create table parent (id serial primary key)',
  `create table child (
     id serial primary key,
     parent_id integer not null references parent (id) on delete cascade,
     state text not null default 'open' check (state in ('open', 'closed')),
     note text unique,
     done boolean not null default false,
     created_at timestamptz not null default now(),
     legacy text
   )`,
  'create table leftover (id integer)',
  'create index child_parent_idx on child (parent_id, created_at desc)',
  `create unique index child_open_once on child (parent_id) where state = 'open'`,
  'create index child_lower_note_idx on child (lower(note))',
  'create index child_done_idx on child (done) where done',
];

const schemaTables = (Object.values(schema) as unknown[]).filter((value): value is PgTable =>
  is(value, PgTable),
);

describe.each(databaseTargets)('db/schema.ts against the migrations on $name', ({ openEmpty }) => {
  let database: DatabaseHandle;
  let differences: string[];

  beforeAll(async () => {
    // An empty database, migrated here: the other tests copy a migrated one (databases.ts).
    database = await openEmpty();
    await migrate(database.db);
    differences = await drift(database.db, schemaTables, 'public', MIRROR_SCHEMA);
  });
  afterAll(async () => {
    await database?.close();
  });

  const known = new Set(KNOWN_DIFFERENCES.map(({ difference }) => difference));
  const unexplained = (pattern: RegExp) =>
    differences.filter((line) => pattern.test(line) && !known.has(line));

  it('declares every table and no other', () => {
    expect(schemaTables.length).toBeGreaterThan(20);
    expect(unexplained(/^table /), 'tables: migrations vs schema.ts').toEqual([]);
  });

  it('declares every column with its type, nullability and default', () => {
    expect(unexplained(/^\w+: column /), 'columns: migrations vs schema.ts').toEqual([]);
  });

  it('declares every primary key, unique constraint, foreign key and check by name', () => {
    expect(unexplained(/^\w+: constraint /), 'constraints: migrations vs schema.ts').toEqual([]);
  });

  it('declares every index by name, with its keys, uniqueness and WHERE', () => {
    expect(unexplained(/^\w+: index /), 'indexes: migrations vs schema.ts').toEqual([]);
  });

  it('finds nothing else and every listed exception still applies', () => {
    const other = differences.filter(
      (line) => !/^(table |\w+: (column|constraint|index) )/.test(line),
    );
    expect(other, 'declarations this test cannot compare').toEqual([]);
    const stale = [...known].filter((difference) => !differences.includes(difference));
    expect(stale, 'KNOWN_DIFFERENCES that no longer occur').toEqual([]);
  });

  it('names the table and the column, constraint or index of every kind of difference', async () => {
    const { db } = database;
    await db.execute(sql.raw('create schema canary_migrated'));
    await db.transaction(async (tx) => {
      await tx.execute(sql.raw('set local search_path to canary_migrated'));
      for (const statement of CANARY_MIGRATION) await tx.execute(sql.raw(statement));
    });
    const canary = [canaryParent, canaryChild, canaryOrphan];
    const found = await drift(db, canary, 'canary_migrated', 'canary_mirror');
    expect(found).toEqual([
      'child: column created_at differs: migrations "timestamp with time zone not null default now()", ' +
        'schema.ts "timestamp without time zone not null default now()"',
      'child: column legacy is in the migrations but not in schema.ts: text',
      'child: column note differs: migrations "text", schema.ts "text not null"',
      `child: column state differs: migrations "text not null default 'open'::text", ` +
        `schema.ts "text not null default 'closed'::text"`,
      'child: constraint child_note_key is in the migrations but not in schema.ts: UNIQUE (note)',
      'child: constraint child_parent_id_fkey differs: ' +
        'migrations "FOREIGN KEY (parent_id) REFERENCES parent(id) ON DELETE CASCADE", ' +
        'schema.ts "FOREIGN KEY (parent_id) REFERENCES parent(id) ON DELETE SET NULL"',
      'child: constraint child_state_check differs: ' +
        `migrations "CHECK (state = ANY (ARRAY['open'::text, 'closed'::text]))", ` +
        `schema.ts "CHECK (state = 'open'::text)"`,
      'child: index child_done_idx is in the migrations but not in schema.ts: ' +
        'CREATE INDEX child_done_idx ON child USING btree (done) WHERE done',
      'child: index child_extra_idx is in schema.ts but not in the migrations: ' +
        'CREATE INDEX child_extra_idx ON child USING btree (done)',
      'child: index child_lower_note_idx differs: ' +
        'migrations "CREATE INDEX child_lower_note_idx ON child USING btree (lower(note))", ' +
        'schema.ts "CREATE UNIQUE INDEX child_lower_note_idx ON child USING btree (lower(note))"',
      'child: index child_open_once differs: ' +
        `migrations "CREATE UNIQUE INDEX child_open_once ON child USING btree (parent_id) WHERE (state = 'open'::text)", ` +
        `schema.ts "CREATE UNIQUE INDEX child_open_once ON child USING btree (parent_id) WHERE (state = 'closed'::text)"`,
      'child: index child_parent_idx differs: ' +
        'migrations "CREATE INDEX child_parent_idx ON child USING btree (parent_id, created_at DESC)", ' +
        'schema.ts "CREATE INDEX child_parent_idx ON child USING btree (parent_id, created_at)"',
      'table leftover: built by the migrations, missing from schema.ts',
      'table orphan: declared in schema.ts, not built by the migrations',
    ]);
  });
});
