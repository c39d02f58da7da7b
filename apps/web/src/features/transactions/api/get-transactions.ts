import type { TransactionList } from '@flashbooth/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';
import { TRANSACTIONS_PAGE_SIZE, TRANSACTION_MESSAGES } from '../transactions-model';

/**
 * GET transactions (regular API): one page of the visitor's transactions, offset paging; the
 * search is left out when empty (the client drops empty query values).
 */
export function getTransactions(
  params: { search: string; page: number },
  signal?: AbortSignal,
): Promise<TransactionList> {
  return apiRequest<TransactionList>('regular', 'transactions', {
    query: {
      limit: TRANSACTIONS_PAGE_SIZE,
      offset: (params.page - 1) * TRANSACTIONS_PAGE_SIZE,
      search: params.search,
    },
    fallbackMessage: TRANSACTION_MESSAGES.loadFailed,
    signal,
  });
}

/** Fresh on every visit: a payment just made changes state in the background. */
export const transactionsQueryOptions = (search: string, page: number) =>
  queryOptions({
    queryKey: ['transactions', 'regular', search, page] as const,
    queryFn: ({ signal }) => getTransactions({ search, page }, signal),
    staleTime: 0,
  });

export function useTransactions(search: string, page: number) {
  return useQuery(transactionsQueryOptions(search, page));
}
