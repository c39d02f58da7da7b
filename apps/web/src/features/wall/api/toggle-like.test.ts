import type { Media } from '@flashbooth/contracts';
import { MutationObserver, QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setAccessToken } from '@/lib/api-client';
import { toggleLikeOptions } from './toggle-like';

const PAGE_KEY = ['media', 'regular', 'public', '', 1, true] as const;

const item = (id: number, likes: number, liked: boolean) =>
  ({ id, likes_count: likes, is_liked_by_caller: liked }) as Media;

function setup(answer: () => Promise<Response>) {
  const fetchMock = vi.fn(answer);
  vi.stubGlobal('fetch', fetchMock);
  const queryClient = new QueryClient();
  queryClient.setQueryData(PAGE_KEY, { items: [item(1, 3, false), item(2, 5, true)] });
  const observer = new MutationObserver(queryClient, toggleLikeOptions(queryClient, PAGE_KEY));
  const page = () => queryClient.getQueryData<{ items: Media[] }>(PAGE_KEY)?.items;
  return { fetchMock, observer, page };
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

describe('toggleLikeOptions', () => {
  beforeEach(() => setAccessToken('regular', 'token', 3600));
  afterEach(() => vi.unstubAllGlobals());

  it('toggles the card at once, then takes the server’s count', async () => {
    let answer!: (response: Response) => void;
    const { fetchMock, observer, page } = setup(
      () => new Promise<Response>((resolve) => (answer = resolve)),
    );
    const done = observer.mutate(item(1, 3, false));
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalled());
    expect(page()?.[0]).toMatchObject({ likes_count: 4, is_liked_by_caller: true });
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect([url, init.method]).toEqual(['/api/regular/media/1/likes', 'POST']);
    answer(json({ likes_count: 9, is_liked_by_caller: true }));
    await done;
    expect(page()?.[0]).toMatchObject({ likes_count: 9, is_liked_by_caller: true });
    // The other cards are left alone.
    expect(page()?.[1]).toMatchObject({ likes_count: 5, is_liked_by_caller: true });
  });

  it('reverts to the state before the tap when the call fails', async () => {
    const { fetchMock, observer, page } = setup(async () =>
      json({ message: 'nope', code: 'error' }, 500),
    );
    await expect(observer.mutate(item(2, 5, true))).rejects.toThrow('nope');
    const [, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(init.method).toBe('DELETE');
    expect(page()?.[1]).toMatchObject({ likes_count: 5, is_liked_by_caller: true });
  });
});
