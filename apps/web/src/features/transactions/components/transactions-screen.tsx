import { ListLoading, LoadErrorPanel } from '@/components/ui/list-states';
import { ListPage } from '@/components/ui/list-page';
import { pageCount } from '@/components/ui/pagination-model';
import { appConfig } from '@/config/app-config';
import { useSearchPaging } from '@/hooks/use-search-paging';
import { useSession } from '@/lib/session';
import { useTransactions } from '../api/get-transactions';
import { TRANSACTIONS_PAGE_SIZE, TRANSACTION_MESSAGES, refundMailto } from '../transactions-model';
import { TransactionCard, TransactionCardSkeleton } from './transaction-card';
import './transactions.css';

/** My Transactions (spec: visitor.md sections 2, 7, 8 and 9). */
export function TransactionsScreen() {
  const { user } = useSession();
  const paging = useSearchPaging();
  const { search, page } = paging;
  const transactions = useTransactions(search, page);
  paging.resetPageOnError(transactions.isError);

  const items = transactions.isError ? [] : (transactions.data?.items ?? []);
  const totalPages =
    transactions.data && !transactions.isError
      ? pageCount(transactions.data.total_count, TRANSACTIONS_PAGE_SIZE)
      : 1;

  let content;
  if (transactions.isPending) {
    content = (
      <ListLoading label="Loading your transactions…">
        <div className="card-grid txn-list" aria-hidden="true">
          {Array.from({ length: 3 }, (_, index) => (
            <TransactionCardSkeleton key={index} />
          ))}
        </div>
      </ListLoading>
    );
  } else if (transactions.isError) {
    content = (
      <LoadErrorPanel
        className="card panel-message panel-message-error txn-panel"
        message={TRANSACTION_MESSAGES.loadFailed}
        query={transactions}
      />
    );
  } else if (items.length === 0) {
    content = (
      <div className="card panel-message txn-panel" role="status">
        <p className="txn-empty-title">{TRANSACTION_MESSAGES.emptyTitle}</p>
        <p className="panel-message-hint">
          {search ? TRANSACTION_MESSAGES.emptySearching : TRANSACTION_MESSAGES.emptyNone}
        </p>
      </div>
    );
  } else {
    content = (
      <ul
        className="card-grid txn-list"
        aria-label={search ? `Transactions matching “${search}”` : 'Transactions'}
        aria-busy={transactions.isFetching || undefined}
      >
        {items.map((transaction) => (
          <li key={transaction.id} className="card-grid-item">
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
    <ListPage
      className="txn-page"
      title="My Transactions"
      paging={paging}
      query={transactions}
      searchLabel="Search transactions"
      searchPlaceholder={TRANSACTION_MESSAGES.searchPlaceholder}
      totalPages={totalPages}
      pagesLabel="Transaction pages"
    >
      {content}
    </ListPage>
  );
}
