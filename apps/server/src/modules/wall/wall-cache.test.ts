import { describe, expect, it } from 'vitest';
import { memoryLog } from '../../../test/unit-fakes.js';
import {
  type CachedWallPage,
  holds,
  WALL_CHANGED_CHANNEL,
  WallCache,
  wallPageKey,
} from './wall-cache.js';

/** A LISTEN that the test drives: notifications and the connection's state. */
function fakeListen() {
  const heard: {
    channel?: string;
    notify?: (payload: string) => void;
    state?: (listening: boolean) => void;
    stopped: boolean;
  } = { stopped: false };
  const listen = async (
    channel: string,
    onPayload: (payload: string) => void,
    onState?: (listening: boolean) => void,
  ) => {
    heard.channel = channel;
    heard.notify = onPayload;
    heard.state = onState;
    onState?.(true);
    return async () => {
      heard.stopped = true;
    };
  };
  return { listen, heard };
}

const page = (total: number): CachedWallPage => ({
  rows: [],
  total,
  nextCursor: null,
  likers: new Map(),
});

async function started(maxPages = 3) {
  const { listen, heard } = fakeListen();
  const cache = new WallCache({ maxPages, database: { listen }, log: memoryLog() });
  await cache.start();
  return { cache, heard };
}

describe('WallCache', () => {
  it('keeps a page read at the current version and serves it', async () => {
    const { cache, heard } = await started();
    expect(heard.channel).toBe(WALL_CHANGED_CHANNEL);
    const version = cache.current();
    cache.keep('a', version, page(1));
    expect(cache.page('a', cache.current())?.total).toBe(1);
  });

  it('forgets every page and caller when a change is heard or told', async () => {
    const { cache, heard } = await started();
    const caller = { userId: 7, pool: 'regular' };
    cache.keep('a', cache.current(), page(1));
    cache.rememberCaller(caller, cache.current());
    expect(cache.knowsCaller(caller, cache.current())).toBe(true);
    heard.notify!('');
    expect(cache.page('a', cache.current())).toBeUndefined();
    expect(cache.knowsCaller(caller, cache.current())).toBe(false);
    cache.keep('a', cache.current(), page(2));
    cache.changed();
    expect(cache.page('a', cache.current())).toBeUndefined();
  });

  it('does not keep a page read before a change that came in while it was read', async () => {
    const { cache, heard } = await started();
    const readAt = cache.current();
    heard.notify!('');
    cache.keep('a', readAt, page(1));
    cache.rememberCaller({ userId: 1, pool: 'regular' }, readAt);
    expect(cache.page('a', cache.current())).toBeUndefined();
    expect(cache.knowsCaller({ userId: 1, pool: 'regular' }, cache.current())).toBe(false);
    // Nor serves a page kept later to a request that began before the change.
    cache.keep('a', cache.current(), page(2));
    expect(cache.page('a', readAt)).toBeUndefined();
  });

  it('keeps nothing while its LISTEN connection is down, and starts afresh when it is back', async () => {
    const { cache, heard } = await started();
    cache.keep('a', cache.current(), page(1));
    heard.state!(false);
    expect(cache.current()).toBeUndefined();
    expect(cache.page('a', cache.current())).toBeUndefined();
    cache.keep('b', cache.current(), page(2));
    heard.state!(true);
    expect(cache.page('a', cache.current())).toBeUndefined();
    expect(cache.page('b', cache.current())).toBeUndefined();
    cache.keep('c', cache.current(), page(3));
    expect(cache.page('c', cache.current())?.total).toBe(3);
  });

  it('forgets the least recently used page beyond its size', async () => {
    const { cache } = await started(2);
    const v = cache.current();
    cache.keep('a', v, page(1));
    cache.keep('b', v, page(2));
    expect(cache.page('a', v)).toBeDefined(); // a used after b
    cache.keep('c', v, page(3));
    expect(cache.page('b', v)).toBeUndefined();
    expect(cache.page('a', v)?.total).toBe(1);
    expect(cache.page('c', v)?.total).toBe(3);
  });

  it('is off without a database to listen on, with 0 pages, and after stop', async () => {
    const none = new WallCache({ maxPages: 10, database: undefined, log: memoryLog() });
    await none.start();
    expect(none.current()).toBeUndefined();
    const { listen, heard } = fakeListen();
    const zero = new WallCache({ maxPages: 0, database: { listen }, log: memoryLog() });
    await zero.start();
    expect(zero.current()).toBeUndefined();
    expect(heard.channel).toBeUndefined();
    const { cache, heard: running } = await started();
    await cache.stop();
    expect(running.stopped).toBe(true);
    expect(cache.current()).toBeUndefined();
  });

  it('is off, with a warning, when LISTEN cannot start', async () => {
    const log = memoryLog();
    const cache = new WallCache({
      maxPages: 10,
      database: { listen: () => Promise.reject(new Error('refused')) },
      log,
    });
    await cache.start();
    expect(cache.current()).toBeUndefined();
    expect(JSON.stringify(log.entries)).toContain('wall cache: not listening');
  });

  it('keys a page by every field that decides it', () => {
    const base = { limit: 10, offset: 0 };
    const keys = new Set([
      wallPageKey(base),
      wallPageKey({ ...base, limit: 20 }),
      wallPageKey({ ...base, offset: 10 }),
      wallPageKey({ ...base, cursor: 'abc' }),
      wallPageKey({ ...base, search: 'abc' }),
    ]);
    expect(keys.size).toBe(5);
    expect(wallPageKey({ ...base, search: undefined })).toBe(wallPageKey(base));
  });

  it('finds a user id among sorted likers', () => {
    const ids = Int32Array.from([3, 9, 12, 40, 41, 1000]);
    for (const id of ids) expect(holds(ids, id)).toBe(true);
    for (const id of [0, 4, 13, 999, 1001]) expect(holds(ids, id)).toBe(false);
    expect(holds(new Int32Array(0), 1)).toBe(false);
  });
});
