import type { ComponentProps } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import type { Line } from 'react-chartjs-2';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { weeklySeries } from '../organization-stats-model';
import { ChartCard } from './stats-charts';

// What the chart library is handed, instead of drawing on a canvas.
const drawn: { kind: string; props: ComponentProps<typeof Line> }[] = [];
vi.mock('react-chartjs-2', () => ({
  Line: (props: ComponentProps<typeof Line>) => {
    drawn.push({ kind: 'line', props });
    return null;
  },
  Bar: (props: ComponentProps<typeof Line>) => {
    drawn.push({ kind: 'bar', props });
    return null;
  },
}));

const stats = {
  total_captures: 3,
  total_media: 3,
  total_photos: 3,
  total_videos: 0,
  total_shared_media: 0,
  total_downloaded_media: 0,
  total_users_who_captured: 2,
  late_deliveries: 0,
  delivery_failures: 0,
  media_per_week: [{ week_start: '2026-11-23', count: 3 }],
  media_per_month: [{ month_start: '2026-11-01', count: 3 }],
};

describe('ChartCard', () => {
  beforeEach(() => {
    drawn.length = 0;
  });

  it('joins the weekly counts with straight segments, not a curve through them', () => {
    const series = weeklySeries(stats);
    renderToStaticMarkup(
      <ChartCard
        title="Media per Week"
        kind="line"
        period="Week of"
        series={series}
        emptyText=""
      />,
    );
    expect(drawn).toHaveLength(1);
    const [{ kind, props }] = drawn as [(typeof drawn)[number]];
    expect(kind).toBe('line');
    const dataset = props.data.datasets[0]!;
    expect(dataset.data).toEqual([0, 3, 0]);
    // Chart.js draws straight lines only with the default interpolation and no tension.
    expect(dataset.cubicInterpolationMode ?? 'default').toBe('default');
    expect(dataset.tension ?? props.options?.elements?.line?.tension ?? 0).toBe(0);
    expect(dataset.stepped ?? false).toBe(false);
  });
});
