import { PaymentStatusScreen } from '@/features/payments/components/payment-status-screen';

/** /payment-status?deviceId={id}&template_id={id}&txn_id={id}: back from the payment provider. */
export default function PaymentStatusRoute() {
  return <PaymentStatusScreen />;
}
