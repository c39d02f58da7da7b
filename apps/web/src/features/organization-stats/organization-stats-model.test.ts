import type { OrganizationStats } from '@flashbooth/contracts';
import { describe, expect, it } from 'vitest';
import {
  detailCards,
  formatRevenue,
  headlineCards,
  monthlySeries,
  weeklySeries,
} from './organization-stats-model';

const base: OrganizationStats = {
  total_captures: 5,
  total_media: 6,
  total_photos: 6,
  total_videos: 0,
  total_shared_media: 2,
  total_downloaded_media: 3,
  total_users_who_captured: 3,
  late_deliveries: 1,
  delivery_failures: 2,
  media_per_week: [
    { week_start: '2025-01-06', count: 3 },
    { week_start: '2025-01-27', count: 1 },
  ],
  media_per_month: [{ month_start: '2025-01-01', count: 4 }],
};

describe('organization statistics model', () => {
  it('makes the five headline cards', () => {
    expect(headlineCards(base).map((card) => `${card.label}=${card.value}`)).toEqual([
      'Total Captures=5',
      'Total Media=6',
      'Shared Media=2',
      'Downloaded Media=3',
      'Users Who Captured=3',
      'Late Deliveries=1',
      'Delivery Failures=2',
    ]);
  });

  it('splits Total Media into photos and videos', () => {
    const media = headlineCards({ ...base, total_media: 3, total_photos: 2, total_videos: 1 })[1];
    expect(media).toEqual({ label: 'Total Media', value: '3', detail: '2 photos · 1 video' });
  });

  it('shows only Most Used Template ("No data") when the restricted fields are absent', () => {
    expect(detailCards(base)).toEqual([{ label: 'Most Used Template', value: 'No data' }]);
  });

  it('shows the three restricted cards when the server sent them', () => {
    const cards = detailCards({
      ...base,
      share_rate: 2 / 6,
      download_rate: 0.5,
      repeated_users: 2,
      most_used_template: { name: 'Classic Strip', usage_count: 3 },
    });
    expect(cards).toEqual([
      { label: 'Share Rate', value: '33.3%' },
      { label: 'Download Rate', value: '50.0%' },
      { label: 'Repeated Users', value: '2' },
      { label: 'Most Used Template', value: 'Classic Strip', detail: '3 uses' },
    ]);
  });

  it('gap-fills the weekly series with en-US UTC labels and a text summary', () => {
    const weekly = weeklySeries(base);
    expect(weekly.labels).toEqual(['Jan 6', 'Jan 13', 'Jan 20', 'Jan 27']);
    expect(weekly.counts).toEqual([3, 0, 0, 1]);
    expect(weekly.drawable).toBe(true);
    expect(weekly.summary).toBe(
      'Media per week from Jan 6 to Jan 27: 4 in all, most in the week of Jan 6 (3).',
    );
  });

  it('pads a single month one month each side', () => {
    const monthly = monthlySeries(base);
    expect(monthly.labels).toEqual(['December 2024', 'January 2025', 'February 2025']);
    expect(monthly.counts).toEqual([0, 4, 0]);
  });

  it('has nothing to draw when every count is 0', () => {
    const weekly = weeklySeries({ ...base, media_per_week: [] });
    expect(weekly.drawable).toBe(false);
    expect(weekly.summary).toBe('No weekly data available to display chart.');
    const monthly = monthlySeries({
      ...base,
      media_per_month: [{ month_start: '2025-01-01', count: 0 }],
    });
    expect(monthly.drawable).toBe(false);
    expect(monthly.summary).toBe('No monthly data available to display chart.');
  });

  it('formats revenue in rupees with two decimals', () => {
    expect(formatRevenue(120)).toBe('₹120.00');
    expect(formatRevenue(123456.5)).toBe('₹1,23,456.50');
  });
});
