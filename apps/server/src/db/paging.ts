import { CURSOR_MESSAGE, CURSOR_WITH_OFFSET_MESSAGE } from '@flashbooth/contracts';
import { type AnyColumn, and, ilike, or, type SQL, sql, type SQLWrapper } from 'drizzle-orm';
import { AppError } from '../errors.js';

/**
 * What a list call asks for: optional search text and an offset page, or (lists paged by cursor)
 * the page after the item a `cursor` names.
 */
export interface PageQuery {
  search?: string | undefined;
  limit: number;
  offset: number;
  cursor?: string | undefined;
}

/**
 * One page of rows and the number of rows over all pages; `nextCursor` (lists paged by cursor)
 * names the page after it, null when this is the last.
 */
export interface Page<Row> {
  rows: Row[];
  total: number;
  nextCursor?: string | null;
}

/** The API's list shape (`{ items, total_count }`, DESIGN.md; `next_cursor` when paged by cursor). */
export interface ListBody<Item> {
  items: Item[];
  total_count: number;
  next_cursor?: string | null;
}

// ---- Cursor (keyset) paging: newest first by (created_at, id). ----

/**
 * A position in a newest-first list: the `(created_at, id)` of the last item of a page. `at` is
 * the timestamp as PostgreSQL text exact to the microsecond (`keyText`), so the next page starts
 * exactly after that item even when many share one millisecond.
 */
export interface Keyset {
  at: string;
  id: number;
}

const KEY_AT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const KEY_ID_MAX = 2_147_483_647;

/**
 * The cursor of a position: `<at>~<id>` in base64url (docs/reference/server.md, "Lists"). Opaque
 * to clients; only `decodeCursor` reads it.
 */
export function encodeCursor(key: Keyset): string {
  return Buffer.from(`${key.at}~${key.id}`, 'utf8').toString('base64url');
}

/** The position a cursor names; undefined when it is not one `encodeCursor` made. */
export function decodeCursor(cursor: string): Keyset | undefined {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const [at, idText, ...rest] = text.split('~');
  if (rest.length > 0 || !at || !idText || !KEY_AT.test(at) || !/^\d{1,10}$/.test(idText)) {
    return undefined;
  }
  const id = Number(idText);
  // A real instant (no 30 February): the date written back the same.
  const date = new Date(`${at.slice(0, 23)}Z`);
  if (id < 1 || id > KEY_ID_MAX || Number.isNaN(date.getTime())) return undefined;
  if (date.toISOString().slice(0, 23) !== at.slice(0, 23)) return undefined;
  return { at, id };
}

/**
 * The position a page query starts after: none without a cursor; a 400 for a cursor that is not
 * one a list gave out, or for a cursor together with an offset.
 */
export function pageKeyset(page: Pick<PageQuery, 'cursor' | 'offset'>): Keyset | undefined {
  if (page.cursor === undefined) return undefined;
  const key = decodeCursor(page.cursor);
  if (!key) throw new AppError('validation_error', CURSOR_MESSAGE);
  if (page.offset !== 0) {
    throw new AppError('validation_error', CURSOR_WITH_OFFSET_MESSAGE);
  }
  return key;
}

/** A timestamp as the exact text a `Keyset` holds (UTC, microseconds). */
export function keyText(at: SQLWrapper | AnyColumn): SQL<string> {
  return sql<string>`to_char(${at} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;
}

/**
 * The rows after `key` in the order `at desc, id desc` (a row comparison, which an index on
 * `(…, at desc, id desc)` answers as a range); nothing without a key.
 */
export function after(
  key: Keyset | undefined,
  at: SQLWrapper | AnyColumn,
  id: SQLWrapper | AnyColumn,
): SQL | undefined {
  return key && sql`(${at}, ${id}) < (${key.at}::timestamptz, ${key.id}::integer)`;
}

/**
 * A page from `limit + 1` rows read in the list's order: the first `limit`, and the cursor of the
 * last of them when there was one more (null when this is the last page).
 */
export function cutPage<Row>(
  rows: Row[],
  limit: number,
  keyOf: (row: Row) => Keyset,
): { rows: Row[]; nextCursor: string | null } {
  if (rows.length <= limit) return { rows, nextCursor: null };
  const page = rows.slice(0, limit);
  return { rows: page, nextCursor: encodeCursor(keyOf(page[limit - 1]!)) };
}

/**
 * A page size as SQL text, not a parameter: with `limit $n` a plan PostgreSQL caches guesses a
 * tenth of the table and can pick a plan that reads all of it (the wall's first page took
 * hundreds of milliseconds at a million media, docs/benchmarks.md); with the literal it reads as
 * many index entries as the page holds. The limit is checked to be a whole number first.
 */
export function literalLimit(limit: number): SQL {
  if (!Number.isSafeInteger(limit) || limit < 0) throw new Error(`not a page size: ${limit}`);
  return sql.raw(String(limit));
}

/** `%text%` for ILIKE with the pattern characters taken literally. */
export function containing(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** Any of the columns contains the search text (case-insensitive); nothing when no search. */
export function searchAny(search: string | undefined, columns: AnyColumn[]): SQL | undefined {
  if (!search) return undefined;
  const pattern = containing(search);
  return or(...columns.map((column) => ilike(column, pattern)));
}

/** All of the given conditions; undefined ones are left out, nothing left means no filter. */
export function allOf(...conditions: (SQL | undefined)[]): SQL | undefined {
  const present = conditions.filter((condition): condition is SQL => condition !== undefined);
  return present.length > 0 ? and(...present) : undefined;
}

/** A query that can be cut to one page (any Drizzle select). */
interface PageableQuery<Row> {
  limit(limit: number): { offset(offset: number): PromiseLike<Row[]> };
}

/**
 * Runs a list: the rows query cut to the page, and the count query (`select({ value: count() })`
 * over the same condition). Both are Drizzle builders, which run only when awaited here.
 */
export async function fetchPage<Row>(
  page: PageQuery,
  rows: PageableQuery<Row>,
  count: PromiseLike<{ value: number }[]>,
): Promise<Page<Row>> {
  const items = await rows.limit(page.limit).offset(page.offset);
  const [total] = await count;
  return { rows: items, total: total?.value ?? 0 };
}

/** The API body of a page, each row turned into its item. */
export function listBody<Row, Item>(page: Page<Row>, toItem: (row: Row) => Item): ListBody<Item> {
  return withCursor({ items: page.rows.map(toItem), total_count: page.total }, page);
}

function withCursor<Item>(body: ListBody<Item>, page: Page<unknown>): ListBody<Item> {
  return page.nextCursor === undefined ? body : { ...body, next_cursor: page.nextCursor };
}

/** The same, for items that take a lookup each (a signed URL, say). */
export async function listBodyAsync<Row, Item>(
  page: Page<Row>,
  toItem: (row: Row) => Promise<Item>,
): Promise<ListBody<Item>> {
  return withCursor(
    { items: await Promise.all(page.rows.map(toItem)), total_count: page.total },
    page,
  );
}
