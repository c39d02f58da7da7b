/**
 * The SMS a visitor gets when a payment nobody used became credit (issue 37): where the money
 * went, in words a visitor understands, not "refunded".
 */
export function unusedPaymentCreditSms(amountPaise: number, venue: string | null): string {
  const where = venue ? ` at ${venue}` : '';
  const amount = (amountPaise / 100).toFixed(2);
  return `Flashbooth: your payment of Rs ${amount}${where} was not used for a photo, so it was added to your Flashbooth credit. It pays for your next photo at any Flashbooth booth.`;
}
