import { useRef, useState } from 'react';
import { Pagination } from '@/components/ui/pagination';
import { pageCount } from '@/components/ui/pagination-model';
import { SearchBox } from '@/components/ui/search-box';
import { appConfig } from '@/config/app-config';
import { useSession } from '@/lib/session';
import { useTransactions } from '../api/get-transactions';
import { TRANSACTIONS_PAGE_SIZE, TRANSACTION_MESSAGES, refundMailto } from '../transactions-model';
import { TransactionCard, TransactionCardSkeleton } from './transaction-card';
import './transactions.css';

/** My Transactions (spec: visitor.md sections 2, 7, 8 and 9). */
export function TransactionsScreen() {
  const { user } = useSession();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const transactions = useTransactions(search, page);
  const headingRef = useRef<HTMLHeadingElement>(null);

  // Spec: a failed list is emptied and the page goes back to 1.
  if (transactions.isError && page !== 1) setPage(1);

  const runSearch = (term: string) => {
    setSearch(term);
    setPage(1);
    // The same search again still reloads the first page.
    if (term === search && page === 1) void transactions.refetch();
  };

  const goToPage = (next: number) => {
    setPage(next);
    headingRef.current?.focus();
    headingRef.current?.scrollIntoView({ block: 'start' });
  };

  const items = transactions.isError ? [] : (transactions.data?.items ?? []);
  const totalPages =
    transactions.data && !transactions.isError
      ? pageCount(transactions.data.total_count, TRANSACTIONS_PAGE_SIZE)
      : 1;

  let content;
  if (transactions.isPending) {
    content = (
      <div aria-busy="true">
        <span className="visually-hidden" role="status">
          Loading your transactions…
        </span>
        <div className="txn-list" aria-hidden="true">
          {Array.from({ length: 3 }, (_, index) => (
            <TransactionCardSkeleton key={index} />
          ))}
        </div>
      </div>
    );
  } else if (transactions.isError) {
    content = (
      <div className="card txn-panel txn-panel-error" role="alert">
        <p>{TRANSACTION_MESSAGES.loadFailed}</p>
        <button
          type="button"
          className="btn btn-secondary"
          onClick={() => void transactions.refetch()}
          disabled={transactions.isFetching}
        >
          Try again
        </button>
      </div>
    );
  } else if (items.length === 0) {
    content = (
      <div className="card txn-panel" role="status">
        <p className="txn-empty-title">{TRANSACTION_MESSAGES.emptyTitle}</p>
        <p className="txn-empty-hint">
          {search ? TRANSACTION_MESSAGES.emptySearching : TRANSACTION_MESSAGES.emptyNone}
        </p>
      </div>
    );
  } else {
    content = (
      <ul
        className="txn-list"
        aria-label={search ? `Transactions matching “${search}”` : 'Transactions'}
        aria-busy={transactions.isFetching || undefined}
      >
        {items.map((transaction) => (
          <li key={transaction.id}>
            <TransactionCard
              transaction={transaction}
              refundHref={refundMailto(appConfig.supportEmail, transaction, user)}
            />
          </li>
        ))}
      </ul>
    );
  }

  return (
    <main className="page txn-page" id="main">
      <h1 className="page-title txn-title" ref={headingRef} tabIndex={-1}>
        My Transactions
      </h1>
      <SearchBox
        label="Search transactions"
        placeholder={TRANSACTION_MESSAGES.searchPlaceholder}
        applied={search}
        onSearch={runSearch}
      />
      {content}
      <Pagination
        page={page}
        totalPages={totalPages}
        onChange={goToPage}
        label="Transaction pages"
        disabled={transactions.isFetching}
      />
    </main>
  );
}
