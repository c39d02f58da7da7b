import { EmptyPanel, ListBody, LoadErrorPanel } from '@/components/ui/list-states';
import { ListPage } from '@/components/ui/list-page';
import { appConfig } from '@/config/app-config';
import { usePagedView, useSearchPaging } from '@/hooks/use-search-paging';
import { useSession } from '@/lib/session';
import { useTransactions } from '../api/get-transactions';
import {
  TRANSACTIONS_PAGE_SIZE,
  TRANSACTION_MESSAGES,
  refundMailto,
  transactionKey,
} from '../transactions-model';
import { TransactionCard, TransactionCardSkeleton } from './transaction-card';
import './transactions.css';

/** My Transactions (spec: visitor.md sections 2, 7, 8 and 9). */
export function TransactionsScreen() {
  const { user } = useSession();
  const paging = useSearchPaging();
  const { search, page } = paging;
  const transactions = useTransactions(search, page);
  const { items, totalPages } = usePagedView(paging, transactions, TRANSACTIONS_PAGE_SIZE);

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
      <ListBody
        query={transactions}
        items={items}
        listClassName="card-grid txn-list"
        listLabel={search ? `Transactions matching “${search}”` : 'Transactions'}
        itemKey={transactionKey}
        renderItem={(transaction) => (
          <TransactionCard
            transaction={transaction}
            refundHref={refundMailto(appConfig.supportEmail, transaction, user)}
          />
        )}
        loadingLabel="Loading your transactions…"
        skeletonCount={3}
        renderSkeleton={() => <TransactionCardSkeleton />}
        error={
          <LoadErrorPanel
            className="card panel-message panel-message-error txn-panel"
            message={TRANSACTION_MESSAGES.loadFailed}
            query={transactions}
          />
        }
        empty={
          <EmptyPanel className="txn-panel">
            <p className="txn-empty-title">{TRANSACTION_MESSAGES.emptyTitle}</p>
            <p className="panel-message-hint">
              {search ? TRANSACTION_MESSAGES.emptySearching : TRANSACTION_MESSAGES.emptyNone}
            </p>
          </EmptyPanel>
        }
      />
    </ListPage>
  );
}
