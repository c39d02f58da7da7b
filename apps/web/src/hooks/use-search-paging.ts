import { useState } from 'react';

/** Search and offset paging of a list screen (My Media, My Transactions; visitor.md section 9). */
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
