import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { RevenueSection } from './revenue-section';

const sums = { payments_count: 2, gross_rupees: 300, refunded_rupees: 100, revenue_rupees: 200 };

describe('RevenueSection', () => {
  it('shows a row per booth and per month with payments, refunds and net', () => {
    const html = renderToStaticMarkup(
      <RevenueSection
        revenue={{
          total: sums,
          per_booth: [{ ...sums, device_id: 4, device_name: 'Lobby Booth' }],
          per_month: [{ ...sums, month_start: '2025-05-01' }],
          per_booth_month: [],
        }}
      />,
    );
    expect(html).toContain('<caption>Revenue per booth</caption>');
    expect(html).toContain('<th scope="col">Booth</th>');
    expect(html).toContain(
      '<th scope="row">Lobby Booth</th><td>2</td><td>₹100.00</td><td>₹200.00</td>',
    );
    expect(html).toContain('<caption>Revenue per month (UTC)</caption>');
    expect(html).toContain('<th scope="col">Month</th>');
    expect(html).toContain(
      '<th scope="row">May 2025</th><td>2</td><td>₹100.00</td><td>₹200.00</td>',
    );
    expect(html).not.toContain('No payments yet.');
    expect(html).toContain('2 payments');
  });

  it('counts one payment in the singular', () => {
    const one = { payments_count: 1, gross_rupees: 150, refunded_rupees: 0, revenue_rupees: 150 };
    const html = renderToStaticMarkup(
      <RevenueSection
        revenue={{
          total: one,
          per_booth: [{ ...one, device_id: 4, device_name: 'Lobby Booth' }],
          per_month: [{ ...one, month_start: '2025-05-01' }],
          per_booth_month: [],
        }}
      />,
    );
    expect(html).toContain('>1 payment<');
    expect(html).not.toContain('1 payments');
  });

  it('says so when there are no payments', () => {
    const zero = { payments_count: 0, gross_rupees: 0, refunded_rupees: 0, revenue_rupees: 0 };
    const html = renderToStaticMarkup(
      <RevenueSection
        revenue={{ total: zero, per_booth: [], per_month: [], per_booth_month: [] }}
      />,
    );
    expect(html).toContain('No payments yet.');
    expect(html).not.toContain('<table');
  });
});
