import type { WallPage } from '@flashbooth/contracts';
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';

/** The page's #wall-data, as the server writes it; read once per page (module) load. */
async function withPage(text: string | null) {
  vi.resetModules();
  vi.stubGlobal('document', {
    getElementById: (id: string) =>
      id === 'wall-data' && text !== null ? { textContent: text } : null,
  });
  return {
    inlined: await import('./inlined-wall'),
    media: await import('./get-public-media'),
  };
}

const page = { items: [{ id: 4 }], total_count: 1, next_cursor: null } as unknown as WallPage;

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('inlinedWall', () => {
  it('answers the page the HTML was sent with for the first page signed out only', async () => {
    const now = Date.now();
    const { inlined } = await withPage(
      JSON.stringify({ rendered_at: now - 1000, search: '', page: 1, data: page }),
    );
    expect(inlined.inlinedWall('', 1, false)).toMatchObject({ data: page, updatedAt: now - 1000 });
    expect(inlined.inlinedWall('', 1, true)).toBeUndefined();
    expect(inlined.inlinedWall('', 2, false)).toBeUndefined();
    expect(inlined.inlinedWall('cake', 1, false)).toBeUndefined();
  });

  it('never dates the page after the phone’s now, and ignores what does not parse', async () => {
    const { inlined } = await withPage(
      JSON.stringify({ rendered_at: Date.now() + 3_600_000, search: '', page: 1, data: page }),
    );
    expect(inlined.inlinedWall('', 1, false)!.updatedAt).toBeLessThanOrEqual(Date.now());
    expect((await withPage('{not json')).inlined.inlinedWall('', 1, false)).toBeUndefined();
    expect((await withPage(null)).inlined.inlinedWall('', 1, false)).toBeUndefined();
  });
});

describe('the wall query with the page’s data', () => {
  it('starts from it with no request while fresh, and asks again once stale', async () => {
    const fetchMock = vi.fn(async () => Response.json(page));
    vi.stubGlobal('fetch', fetchMock);
    const rendered = Date.now();
    const { media, inlined } = await withPage(
      JSON.stringify({ rendered_at: rendered, search: '', page: 1, data: page }),
    );
    const client = new QueryClient();
    const options = media.publicMediaQueryOptions({ search: '', page: 1, signedIn: false });
    const observer = new QueryObserver(client, options);
    const unsubscribe = observer.subscribe(() => {});
    expect(observer.getCurrentResult().data).toEqual(page);
    expect(observer.getCurrentResult().isStale).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(fetchMock).not.toHaveBeenCalled();
    unsubscribe();

    // Another page, or the same one later than INLINED_WALL_FRESH_MS, is asked for.
    const stale = new QueryClient();
    stale.setQueryData(options.queryKey, page, {
      updatedAt: rendered - inlined.INLINED_WALL_FRESH_MS - 1,
    });
    const later = new QueryObserver(stale, options);
    const unsubscribeLater = later.subscribe(() => {});
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    unsubscribeLater();
  });
});
