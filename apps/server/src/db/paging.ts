import { type AnyColumn, and, ilike, or, type SQL, sql } from 'drizzle-orm';

/** What a list call asks for: optional search text and an offset page. */
export interface PageQuery {
  search?: string | undefined;
  limit: number;
  offset: number;
}

/** One page of rows and the number of rows over all pages. */
export interface Page<Row> {
  rows: Row[];
  total: number;
}

/** The API's list shape (`{ items, total_count }`, DESIGN.md). */
export interface ListBody<Item> {
  items: Item[];
  total_count: number;
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
  return { items: page.rows.map(toItem), total_count: page.total };
}

/** The same, for items that take a lookup each (a signed URL, say). */
export async function listBodyAsync<Row, Item>(
  page: Page<Row>,
  toItem: (row: Row) => Promise<Item>,
): Promise<ListBody<Item>> {
  return { items: await Promise.all(page.rows.map(toItem)), total_count: page.total };
}
