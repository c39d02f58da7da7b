import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { PAYMENT_STATUS_MESSAGES, type PaymentStatusState } from '../payment-status-machine';
import { PaymentStatusView } from './payment-status-screen';

const params = { deviceId: 3, templateId: 9, txnId: 41 };

function render(state: PaymentStatusState, withParams = true) {
  return renderToStaticMarkup(
    <MemoryRouter>
      <PaymentStatusView state={state} params={withParams ? params : null} />
    </MemoryRouter>,
  );
}

/** The text of the markup, tags removed and entities read. */
function text(html: string): string {
  return html
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

describe('PaymentStatusView', () => {
  it('shows a busy spinner while verifying, as a status', () => {
    const html = render({ kind: 'verifying', checks: 1 });
    expect(html).toContain('role="status"');
    expect(html).toContain('aria-busy="true"');
    expect(html).toContain('class="spinner payment-spinner"');
    expect(text(html)).toContain(PAYMENT_STATUS_MESSAGES.verifyingTitle);
    expect(text(html)).toContain('Transaction #41');
  });

  it('shows the success line and a link on to the capture screen with the template', () => {
    const html = render({ kind: 'succeeded' });
    expect(text(html)).toContain('Payment Successful! Redirecting you to the photobooth...');
    expect(html).toContain('href="/regular/photobooths/3/capture?template_id=9"');
    expect(html).not.toContain('role="alert"');
  });

  it('shows a failure as an alert with its title, message and ways out', () => {
    const html = render({
      kind: 'failed',
      reason: 'declined',
      title: 'Payment Failed',
      message: PAYMENT_STATUS_MESSAGES.failedMessage('FAILED'),
    });
    expect(html).toContain('role="alert"');
    const shown = text(html);
    expect(shown).toContain('Payment Failed');
    expect(shown).toContain('The transaction could not be processed. Please try again.');
    expect(shown).not.toContain('Status: FAILED');
    // Back at the booth to try again first (issue 20 item 3), home second.
    expect(shown).toContain('Try again at the photobooth');
    expect(shown).toContain('taken back to the photobooth');
    expect(html.indexOf('href="/regular/photobooths/3"')).toBeGreaterThan(-1);
    expect(html.indexOf('href="/regular/photobooths/3"')).toBeLessThan(html.indexOf('href="/"'));
  });

  it('shows Invalid URL without a transaction', () => {
    const html = render({ kind: 'invalid' }, false);
    const shown = text(html);
    expect(html).toContain('role="alert"');
    expect(shown).toContain('Invalid URL');
    expect(shown).toContain('Missing payment details. Redirecting to home...');
    expect(shown).not.toContain('Transaction #');
  });
});
