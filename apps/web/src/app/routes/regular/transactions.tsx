import { TransactionsScreen } from '@/features/transactions/components/transactions-screen';

/** /regular/transactions: My Transactions. */
export default function TransactionsRoute() {
  return <TransactionsScreen />;
}
