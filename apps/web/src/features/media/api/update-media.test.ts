import type { Media } from '@flashbooth/contracts';
import { MutationObserver, QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setAccessToken } from '@/lib/api-client';
import { setPublicOptions } from './update-media';

const PAGE_KEY = ['media', 'regular', 'mine', '', 1] as const;

const item = (is_public: boolean, share_path: string | null) =>
  ({ id: 4, is_public, share_path }) as Media;

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

function setup(before: Media, answer: () => Promise<Response>) {
  const fetchMock = vi.fn(answer);
  vi.stubGlobal('fetch', fetchMock);
  const queryClient = new QueryClient();
  queryClient.setQueryData(PAGE_KEY, { items: [before] });
  const invalidate = vi.spyOn(queryClient, 'invalidateQueries');
  const observer = new MutationObserver(queryClient, setPublicOptions(queryClient, PAGE_KEY));
  const card = () => queryClient.getQueryData<{ items: Media[] }>(PAGE_KEY)?.items[0];
  return { fetchMock, observer, card, invalidate };
}

describe('setPublicOptions', () => {
  beforeEach(() => setAccessToken('regular', 'token', 3600));
  afterEach(() => vi.unstubAllGlobals());

  it('makes an item private at once, without its share page, and does not reload', async () => {
    const before = item(true, '/s/abc');
    let answer!: (response: Response) => void;
    const { fetchMock, observer, card, invalidate } = setup(
      before,
      () => new Promise<Response>((resolve) => (answer = resolve)),
    );
    const done = observer.mutate(before);
    await vi.waitFor(() => expect(fetchMock).toHaveBeenCalled());
    expect(card()).toMatchObject({ is_public: false, share_path: null });
    const [, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(JSON.parse(init.body as string)).toEqual({ is_public: false });
    answer(json({ caption: null, updated_at: '2026-01-01T00:00:00' }));
    await done;
    expect(invalidate).not.toHaveBeenCalled();
  });

  it('reloads the page once an item is made public, for its share page', async () => {
    const before = item(false, null);
    const { observer, card, invalidate } = setup(before, async () =>
      json({ caption: null, updated_at: '2026-01-01T00:00:00' }),
    );
    await observer.mutate(before);
    expect(card()?.is_public).toBe(true);
    expect(invalidate).toHaveBeenCalledWith({ queryKey: PAGE_KEY, exact: true });
  });

  it('reverts to the state before the tap when the call fails', async () => {
    const before = item(true, '/s/abc');
    const { observer, card } = setup(before, async () => json({ message: 'no' }, 500));
    await expect(observer.mutate(before)).rejects.toThrow('no');
    expect(card()).toMatchObject({ is_public: true, share_path: '/s/abc' });
  });
});
