import { useState } from 'react';
import { pageCount } from '@/components/ui/pagination-model';

/** Search and offset paging of a list screen (visitor.md section 9; staff.md sections 4 and 9). */
export function useSearchPaging() {
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);

  /** A search starts on page 1; the same search again on page 1 still reloads it (`reload`). */
  const runSearch = (term: string, reload: () => void) => {
    setSearch(term);
    setPage(1);
    if (term === search && page === 1) reload();
  };

  /** Spec: a failed list is emptied and the page goes back to 1 (call while rendering). */
  const resetPageOnError = (failed: boolean) => {
    if (failed && page !== 1) setPage(1);
  };

  return { search, page, setPage, runSearch, resetPageOnError };
}

/** What a list query holds that the screen shows: one page of items and the total. */
export interface PagedQueryState<T> {
  data?: { items: readonly T[]; total_count: number } | undefined;
  isError: boolean;
}

/**
 * The items and page count a list screen shows (spec: a failed load empties the list; pages are
 * the ceiling of total_count over the page size; the pager shows only with more than one page).
 */
export function pagedView<T>(
  query: PagedQueryState<T>,
  pageSize: number,
): { items: readonly T[]; totalPages: number } {
  if (query.isError || !query.data) return { items: [], totalPages: 1 };
  return { items: query.data.items, totalPages: pageCount(query.data.total_count, pageSize) };
}

/** pagedView, and back to page 1 when the load fails (spec). Call while rendering. */
export function usePagedView<T>(
  paging: ReturnType<typeof useSearchPaging>,
  query: PagedQueryState<T>,
  pageSize: number,
) {
  paging.resetPageOnError(query.isError);
  return pagedView(query, pageSize);
}
