import type { Revenue, RevenueTotal } from '@flashbooth/contracts';
import { formatMonthLabel } from '@flashbooth/contracts/rules';
import { plural } from '@/lib/plural';
import { formatRevenue } from '../organization-stats-model';

/**
 * Revenue (beyond the spec; the server sends it only to the organization's admins and
 * privileged staff): completed payments less refunds, per booth and per month.
 */
export function RevenueSection({ revenue }: { revenue: Revenue }) {
  const { total } = revenue;
  return (
    <section className="stats-revenue" aria-labelledby="stats-revenue-title">
      <h2 className="stats-section-title" id="stats-revenue-title">
        Revenue
      </h2>
      <div className="stats-grid stats-grid-detail">
        <div className="card stats-card">
          <span className="stats-card-label">Net Revenue</span>
          <strong className="stats-card-value">{formatRevenue(total.revenue_rupees)}</strong>
        </div>
        <div className="card stats-card">
          <span className="stats-card-label">Completed Payments</span>
          <strong className="stats-card-value">{formatRevenue(total.gross_rupees)}</strong>
          <span className="stats-card-detail">{plural(total.payments_count, 'payment')}</span>
        </div>
        <div className="card stats-card">
          <span className="stats-card-label">Refunds</span>
          <strong className="stats-card-value">{formatRevenue(total.refunded_rupees)}</strong>
        </div>
      </div>
      {revenue.per_booth.length === 0 ? (
        <p className="card stats-chart-empty">No payments yet.</p>
      ) : (
        <div className="stats-tables">
          <RevenueTable
            caption="Revenue per booth"
            heading="Booth"
            rows={revenue.per_booth.map((row) => ({
              key: String(row.device_id ?? 'none'),
              label: row.device_name,
              ...row,
            }))}
          />
          <RevenueTable
            caption="Revenue per month (UTC)"
            heading="Month"
            rows={revenue.per_month.map((row) => ({
              key: row.month_start,
              label: formatMonthLabel(row.month_start),
              ...row,
            }))}
          />
        </div>
      )}
    </section>
  );
}

/** A booth's or a month's sums, with its React key and the label of its row. */
type RevenueTableRow = RevenueTotal & { key: string; label: string };

/** One revenue table: a row per booth or month with its payments, refunds and net. */
function RevenueTable({
  caption,
  heading,
  rows,
}: {
  caption: string;
  heading: string;
  rows: RevenueTableRow[];
}) {
  return (
    <div className="card stats-table-card">
      <table className="stats-table">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{heading}</th>
            <th scope="col">Payments</th>
            <th scope="col">Refunds</th>
            <th scope="col">Net</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key}>
              <th scope="row">{row.label}</th>
              <td>{row.payments_count}</td>
              <td>{formatRevenue(row.refunded_rupees)}</td>
              <td>{formatRevenue(row.revenue_rupees)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
