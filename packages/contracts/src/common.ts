import { z } from 'zod';

/** The two separate sign-in pools and API bases: /api/regular and /api/enterprise. */
export const POOLS = ['regular', 'enterprise'] as const;
export const PoolSchema = z.enum(POOLS);
export type Pool = z.infer<typeof PoolSchema>;

/** Every error body the API returns (DESIGN.md "Errors"). */
export const ErrorBodySchema = z.object({
  message: z.string(),
  code: z.string(),
});
export type ErrorBody = z.infer<typeof ErrorBodySchema>;

/** UTC timestamp without zone suffix, e.g. 2025-05-14T10:20:30. */
export const TimestampSchema = z.string().regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
export type Timestamp = z.infer<typeof TimestampSchema>;

// ---- Values that reach the database: checked here, so a request never gets a 500 for them. ----

/** The largest PostgreSQL `integer`: every id column holds 1..DB_INT_MAX. */
export const DB_INT_MAX = 2_147_483_647;
/** The deepest offset a list accepts: no screen pages this far, and it bounds one query's work. */
export const OFFSET_MAX = 1_000_000;
/** The largest page any list returns. */
export const LIMIT_MAX = 200;
/** Search text is at most this long (the longest searched text, a caption, is 500). */
export const SEARCH_MAX_LENGTH = 200;

/** PostgreSQL text cannot hold U+0000 (NUL): every text field refuses it with this check. */
export const hasNoNul = (text: string): boolean => !text.includes('\u0000');
/** The message of a text field that holds a NUL character, e.g. "Device name must not …". */
export const nulMessage = (field: string): string => `${field} must not contain a NUL character.`;

/**
 * An id sent as a JSON number: a whole number 1..2147483647 (PostgreSQL `integer`), `message`
 * for anything else (`missing` when absent).
 */
export function idSchema(message: string, missing = message) {
  return z
    .number({ error: (issue) => (issue.input === undefined ? missing : message) })
    .int(message)
    .min(1, message)
    .max(DB_INT_MAX, message);
}

/**
 * An id that may also arrive as text (a path, a query, a form's field): digits are read as the
 * number, and the range is the same.
 */
export function idTextSchema(message: string, missing = message) {
  return z.preprocess(
    (value) => (typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : value),
    idSchema(message, missing),
  );
}

/** A list of ids in a JSON body: 1..`max` of them, each an id; `message` for anything else. */
export function idListSchema(message: string, max: number) {
  return z
    .array(idSchema(message), { error: message })
    .min(1, message)
    .max(max, message)
    .transform((ids) => [...new Set(ids)]);
}

/** A page size from the query: 1..`max`, `fallback` when absent. */
export function limitSchema(fallback: number, max: number = LIMIT_MAX) {
  const message = `limit must be a whole number from 1 to ${max}.`;
  return z.coerce
    .number({ error: message })
    .int(message)
    .min(1, message)
    .max(max, message)
    .default(fallback);
}

const OFFSET_MESSAGE = `offset must be a whole number from 0 to ${OFFSET_MAX}.`;
/** Rows skipped from the query: 0..OFFSET_MAX, 0 when absent. */
export const OffsetSchema = z.coerce
  .number({ error: OFFSET_MESSAGE })
  .int(OFFSET_MESSAGE)
  .min(0, OFFSET_MESSAGE)
  .max(OFFSET_MAX, OFFSET_MESSAGE)
  .default(0);
export type Offset = z.infer<typeof OffsetSchema>;

/** Search text from the query: trimmed, at most SEARCH_MAX_LENGTH characters, no NUL. */
export const SearchSchema = z
  .string({ error: 'search must be text.' })
  .trim()
  .refine(hasNoNul, nulMessage('search'))
  .max(SEARCH_MAX_LENGTH, `search must be at most ${SEARCH_MAX_LENGTH} characters.`)
  .optional();
export type Search = z.infer<typeof SearchSchema>;

/** `{id}` in a path: one id of any table. */
export const IdSchema = idTextSchema('id must be a positive whole number.');
export type Id = z.infer<typeof IdSchema>;
export const IdParamSchema = z.object({ id: IdSchema });
export type IdParam = z.infer<typeof IdParamSchema>;

/** The longest cursor a list gives out (an encoded timestamp and id are about 45 characters). */
export const CURSOR_MAX_LENGTH = 100;
/** The message of a cursor that is not one a list gave out. */
export const CURSOR_MESSAGE =
  "cursor is not one this list gave out: pass the previous page's next_cursor unchanged.";
/** The message of a page query with both a cursor and a non-zero offset. */
export const CURSOR_WITH_OFFSET_MESSAGE = 'Send either cursor or offset, not both.';

/**
 * `cursor` of a list that pages by cursor (the wall, My Media, My Transactions, All Media, an
 * organization's media and guests): the previous page's `next_cursor`, opaque to the client (the
 * server reads the newest-first position `(created_at, id)` of the page's last item from it). The
 * next page is the items after that one, so paging by cursor neither repeats nor skips items
 * when new ones arrive. `offset` is still accepted without a cursor; with one it must be 0.
 */
export const CursorSchema = z
  .string({ error: CURSOR_MESSAGE })
  .regex(/^[A-Za-z0-9_-]+$/, CURSOR_MESSAGE)
  .max(CURSOR_MAX_LENGTH, CURSOR_MESSAGE)
  .optional();
export type Cursor = z.infer<typeof CursorSchema>;

export const PageQuerySchema = z.object({
  search: SearchSchema,
  limit: limitSchema(10),
  offset: OffsetSchema,
});
export type PageQuery = z.infer<typeof PageQuerySchema>;

/** An offset page query that also takes a `cursor` (CursorSchema). */
export const CursorPageQuerySchema = PageQuerySchema.extend({ cursor: CursorSchema });
export type CursorPageQuery = z.infer<typeof CursorPageQuerySchema>;

export function listOf<T extends z.ZodType>(item: T) {
  return z.object({ items: z.array(item), total_count: z.number().int() });
}

/**
 * `next_cursor` of a list that pages by cursor: the `cursor` of the page after this one, null when
 * this page is the last. Always sent by the server; optional here so that bodies written before it
 * (fixtures, older clients) still type-check.
 */
export const NextCursorSchema = z.string().nullable().optional();
export type NextCursor = z.infer<typeof NextCursorSchema>;

/** `{ items, total_count, next_cursor }`: a list paged by offset or by cursor. */
export function cursorListOf<T extends z.ZodType>(item: T) {
  return listOf(item).extend({ next_cursor: NextCursorSchema });
}

export const HealthSchema = z.object({ status: z.literal('ok') });
export type Health = z.infer<typeof HealthSchema>;

/** One background job as GET /api/health/details reports it (counts only, no personal data). */
export const JobStatusSchema = z.object({
  name: z.string(),
  description: z.string(),
  /** How often it is due; 0 = never on a timer (switched off by configuration). */
  interval_seconds: z.number().int(),
  last_started_at: z.string().nullable(),
  last_finished_at: z.string().nullable(),
  last_success_at: z.string().nullable(),
  /** The last run threw (the error is in the server's log). */
  last_failed: z.boolean(),
  /** What the last successful run did, by kind. */
  last_counts: z.record(z.string(), z.number()),
  runs: z.number().int(),
  failures: z.number().int(),
  /** No successful run for three intervals since the last one: look at the server log. */
  overdue: z.boolean(),
});
export type JobStatus = z.infer<typeof JobStatusSchema>;

export const HealthDetailsSchema = z.object({
  status: z.literal('ok'),
  jobs: z.array(JobStatusSchema),
});
export type HealthDetails = z.infer<typeof HealthDetailsSchema>;
