import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle } from '../../db/client.js';
import type { WallPageRows } from './wall.repository.js';

/** The channel migration 0028's triggers NOTIFY when anything a wall page shows may change. */
export const WALL_CHANGED_CHANNEL = 'flashbooth_wall_changed';

/**
 * A wall page as every caller sees it (only the caller's likes differ between them): its rows,
 * total, cursor and who likes each item (`WallPageRows.likers`; without them a signed-in
 * caller's page is read from the database).
 */
export type CachedWallPage = Pick<WallPageRows, 'rows' | 'total' | 'nextCursor' | 'likers'>;

/** Whether the sorted `ids` hold `id` (binary search). */
export function holds(ids: Int32Array, id: number): boolean {
  let low = 0;
  let high = ids.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const value = ids[middle]!;
    if (value === id) return true;
    if (value < id) low = middle + 1;
    else high = middle - 1;
  }
  return false;
}

/** Who asks: a verified token's user id and pool (`AccessClaims`). */
export interface CacheCaller {
  userId: number;
  pool: string;
}

export interface WallCacheOptions {
  /** Pages kept at most (the least recently used are forgotten first); 0 = no cache. */
  maxPages: number;
  /** Where the instances hear the wall's changes; absent = no cache (nothing would clear it). */
  database: Pick<DatabaseHandle, 'listen'> | undefined;
  log: FastifyBaseLogger;
}

/** Signed-in callers whose account this instance has seen, at most (then it starts again). */
const MAX_KNOWN_CALLERS = 100_000;

/**
 * The wall's pages (`GET media/public`: first pages, pages after a cursor or an offset, searches)
 * kept in memory by each server instance and served to every caller, signed in or not, until
 * the wall changes. The wall is the same for everyone but for the caller's own likes, so a kept
 * page holds who likes each item and a signed-in caller's `is_liked_by_caller` is looked up in it.
 *
 * Exact, by forgetting every page at once:
 * - when a change committed by any instance or job reaches this instance: migration 0028's
 *   triggers NOTIFY `flashbooth_wall_changed` whenever an item that is or was public, a like, a
 *   person's name or account, an organization's or booth's name changes, and every instance
 *   LISTENs (a change is seen on another instance within the notification's delivery, about a
 *   millisecond on one network);
 * - when this instance has answered a request that may have changed something (`changed()`:
 *   every POST, PUT, PATCH and DELETE, before its answer leaves), so that whoever changed the
 *   wall through this instance reads their change on their next request;
 * - and it keeps nothing while its LISTEN connection is down (notifications are missed then),
 *   nor a page read while a change came in (each page is kept with the version it was read at).
 * A caller's account is checked once per version (a deleted account's token is refused, as the
 * page query refuses it); an account's deletion changes the version.
 */
export class WallCache {
  /** Wall pages this instance answered from a kept page (`hits`) or read (`misses`): metrics. */
  readonly counts = { hits: 0, misses: 0 };
  private version = 0;
  private listening = false;
  private readonly pages = new Map<string, CachedWallPage>();
  private readonly callers = new Set<string>();
  private unlisten: (() => Promise<void>) | undefined;
  private stopped = false;

  constructor(private readonly options: WallCacheOptions) {}

  /** Starts listening for the wall's changes; pages are kept from when LISTEN is in place. */
  async start(): Promise<void> {
    const listen = this.options.database?.listen;
    if (!listen || this.options.maxPages === 0) return;
    try {
      const unlisten = await listen(
        WALL_CHANGED_CHANNEL,
        () => this.changed(),
        (listening) => {
          this.changed();
          this.listening = listening;
        },
      );
      if (this.stopped) await unlisten();
      else this.unlisten = unlisten;
    } catch (error) {
      this.options.log.warn({ err: error }, 'wall cache: not listening; every page is read');
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.listening = false;
    this.changed();
    await this.unlisten?.();
  }

  /** Something may have changed: every kept page and known caller is forgotten. */
  changed(): void {
    this.version += 1;
    this.pages.clear();
    this.callers.clear();
  }

  /** The version to read a page at, for `keep`; undefined when nothing is kept now. */
  current(): number | undefined {
    return this.listening ? this.version : undefined;
  }

  /** The kept page for `key` at `version` (`current()`), if any. */
  page(key: string, version: number | undefined): CachedWallPage | undefined {
    if (version !== this.version) return undefined;
    const page = this.pages.get(key);
    if (page) {
      // Most recently used last: the first in the map is forgotten first.
      this.pages.delete(key);
      this.pages.set(key, page);
    }
    return page;
  }

  /** Keeps a page read at `version`, unless the wall changed since (or nothing is kept). */
  keep(key: string, version: number | undefined, page: CachedWallPage): void {
    if (version === undefined || version !== this.version || !this.listening) return;
    this.pages.set(key, page);
    if (this.pages.size > this.options.maxPages) {
      const oldest = this.pages.keys().next().value;
      if (oldest !== undefined) this.pages.delete(oldest);
    }
  }

  /** Whether the caller's account was seen to exist at this version. */
  knowsCaller(caller: CacheCaller, version: number | undefined): boolean {
    return version === this.version && this.callers.has(`${caller.pool}:${caller.userId}`);
  }

  /** The caller's account exists (read at `version`). */
  rememberCaller(caller: CacheCaller, version: number | undefined): void {
    if (version === undefined || version !== this.version || !this.listening) return;
    if (this.callers.size >= MAX_KNOWN_CALLERS) this.callers.clear();
    this.callers.add(`${caller.pool}:${caller.userId}`);
  }
}

/** The cache key of a wall query: every field that decides the page. */
export function wallPageKey(query: {
  limit: number;
  offset: number;
  cursor?: string | undefined;
  search?: string | undefined;
}): string {
  return JSON.stringify([query.limit, query.offset, query.cursor ?? '', query.search ?? '']);
}
