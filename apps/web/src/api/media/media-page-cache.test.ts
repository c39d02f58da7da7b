import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { patchPageItem } from './media-page-cache';

const KEY = ['media', 'enterprise', 'all', '', 1] as const;

interface Item {
  id: number;
  hidden_from_wall: boolean;
  caption: string;
}

describe('patchPageItem', () => {
  it('changes only the one item of the cached page, and leaves an absent page absent', () => {
    const queryClient = new QueryClient();
    queryClient.setQueryData(KEY, {
      total_count: 2,
      items: [
        { id: 1, hidden_from_wall: false, caption: 'a' },
        { id: 2, hidden_from_wall: false, caption: 'b' },
      ],
    });
    patchPageItem<Item>(queryClient, KEY, 2, { hidden_from_wall: true });
    expect(queryClient.getQueryData(KEY)).toEqual({
      total_count: 2,
      items: [
        { id: 1, hidden_from_wall: false, caption: 'a' },
        { id: 2, hidden_from_wall: true, caption: 'b' },
      ],
    });
    patchPageItem<Item>(queryClient, ['other'], 2, { caption: 'c' });
    expect(queryClient.getQueryData(['other'])).toBeUndefined();
  });

  it('stops a reload of that page on its way unless told not to', () => {
    const queryClient = new QueryClient();
    queryClient.setQueryData(KEY, { items: [] });
    const cancel = vi.spyOn(queryClient, 'cancelQueries');
    patchPageItem(queryClient, KEY, 1, {});
    expect(cancel).toHaveBeenCalledWith({ queryKey: KEY, exact: true });
    cancel.mockClear();
    patchPageItem(queryClient, KEY, 1, {}, { cancel: false });
    expect(cancel).not.toHaveBeenCalled();
  });
});
