import type { QueryClient, QueryKey } from '@tanstack/react-query';

/** One cached page of a media list (My Media, the wall, the staff views), as the API answers it. */
interface ItemPage<T> {
  items: T[];
}

/**
 * Changes one item in a cached page of a media list (optimistic toggles, saved captions, likes,
 * the wall flag). With `cancel`, a reload of that page already on its way is stopped first: it
 * could bring back the old value over the new one.
 */
export function patchPageItem<T extends { id: number }>(
  queryClient: QueryClient,
  pageKey: QueryKey,
  id: number,
  change: Partial<T>,
  { cancel = true }: { cancel?: boolean } = {},
): void {
  if (cancel) void queryClient.cancelQueries({ queryKey: pageKey, exact: true });
  queryClient.setQueryData<ItemPage<T>>(pageKey, (current) =>
    current
      ? {
          ...current,
          items: current.items.map((item) => (item.id === id ? { ...item, ...change } : item)),
        }
      : current,
  );
}
