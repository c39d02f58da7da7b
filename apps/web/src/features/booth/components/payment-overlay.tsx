import { useEffect, useRef } from 'react';

/**
 * Spec: "Processing Your Request" while the payment is set up and the browser leaves for the
 * payment page. It covers the page (which is inert meanwhile) and takes focus, so a second pick
 * cannot start a second payment.
 */
export function PaymentOverlay({ open }: { open: boolean }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (open) ref.current?.focus();
  }, [open]);
  if (!open) return null;
  return (
    <div className="booth-overlay" data-testid="payment-overlay">
      <div ref={ref} className="booth-overlay-card" role="status" aria-live="polite" tabIndex={-1}>
        <span className="spinner booth-overlay-spinner" aria-hidden="true" />
        <p className="booth-overlay-title">Processing Your Request</p>
        <p className="booth-overlay-text">Taking you to the secure payment page…</p>
      </div>
    </div>
  );
}
