import {
  BarController,
  BarElement,
  CategoryScale,
  Chart as ChartJS,
  type ChartOptions,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
} from 'chart.js';
import { Bar, Line } from 'react-chartjs-2';
import type { ChartSeries } from '../organization-stats-model';

// Only what the two charts use, so the rest of chart.js is left out of the bundle.
ChartJS.register(
  LineController,
  LineElement,
  PointElement,
  BarController,
  BarElement,
  CategoryScale,
  LinearScale,
  Tooltip,
);

const BRAND = '#ff5a7a';
const BRAND_STRONG = '#d12f56';

const SHARED = {
  responsive: true,
  maintainAspectRatio: false,
  animation: false,
  plugins: { legend: { display: false }, tooltip: { intersect: false } },
  scales: {
    x: { grid: { display: false }, ticks: { maxRotation: 0, autoSkipPadding: 12 } },
    y: { beginAtZero: true, ticks: { precision: 0 } },
  },
} as const;
const LINE_OPTIONS: ChartOptions<'line'> = SHARED;
const BAR_OPTIONS: ChartOptions<'bar'> = SHARED;

/** The chart's numbers as a table, for screen readers and anyone who prefers them. */
function SeriesTable({ series, period }: { series: ChartSeries; period: string }) {
  return (
    <details className="stats-chart-table">
      <summary>Show as table</summary>
      <table>
        <thead>
          <tr>
            <th scope="col">{period}</th>
            <th scope="col">Media</th>
          </tr>
        </thead>
        <tbody>
          {series.points.map((point, index) => (
            <tr key={point.date}>
              <th scope="row">{series.labels[index]}</th>
              <td>{point.count}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}

interface ChartCardProps {
  title: string;
  series: ChartSeries;
  emptyText: string;
  period: string;
  kind: 'line' | 'bar';
}

/** A weekly line chart or monthly bar chart, or the spec's text when every count is 0. */
export function ChartCard({ title, series, emptyText, period, kind }: ChartCardProps) {
  const shared = {
    label: 'Media',
    data: series.counts,
    borderColor: BRAND_STRONG,
    backgroundColor: BRAND,
  };
  // A count per week is a set of points, not a curve: straight segments join them (tension 0),
  // so nothing between two weeks looks like a value.
  const line = {
    labels: series.labels,
    datasets: [{ ...shared, pointBackgroundColor: BRAND_STRONG, tension: 0 }],
  };
  const bar = {
    labels: series.labels,
    datasets: [{ ...shared, borderRadius: 6, maxBarThickness: 48 }],
  };
  return (
    <section className="card stats-chart-card" aria-label={title}>
      <h2 className="stats-card-heading">{title}</h2>
      {series.drawable ? (
        <>
          <div className="stats-chart-canvas">
            {kind === 'line' ? (
              <Line data={line} options={LINE_OPTIONS} role="img" aria-label={series.summary} />
            ) : (
              <Bar data={bar} options={BAR_OPTIONS} role="img" aria-label={series.summary} />
            )}
          </div>
          <SeriesTable series={series} period={period} />
        </>
      ) : (
        <p className="stats-chart-empty">{emptyText}</p>
      )}
    </section>
  );
}
