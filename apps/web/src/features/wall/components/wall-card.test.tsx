import type { Media } from '@flashbooth/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { WallCard } from './wall-card';

function media(overrides: Partial<Media> = {}): Media {
  return {
    id: 9,
    media_type: 'image',
    lowres_s3_url: '/files/low.jpg',
    s3_url: '/files/hd.jpg',
    preview_s3_url: null,
    gif_s3_url: null,
    s3_key: 'media/1/hd.jpg',
    org_name: 'Demo Org',
    device_name: 'Lobby Booth',
    user_name: 'Asha',
    created_at: '2025-05-14T09:05:59',
    updated_at: '2025-05-14T09:05:59',
    orientation: 'landscape',
    caption: 'Sunset party',
    is_public: true,
    is_repost_allowed: true,
    is_downloaded: false,
    is_shared: false,
    is_uploaded: true,
    likes_count: 3,
    is_liked_by_caller: false,
    hidden_from_wall: false,
    ...overrides,
  };
}

const render = (item: Media) =>
  renderToStaticMarkup(
    <QueryClientProvider client={new QueryClient()}>
      <WallCard media={item} pageKey={['wall']} notify={() => {}} />
    </QueryClientProvider>,
  );

describe('WallCard', () => {
  it('shows who, where, when and the caption', () => {
    const html = render(media());
    expect(html).toContain('>Asha</h2>');
    expect(html).toContain('>Demo Org · Lobby Booth</span>');
    expect(html).toContain('14/05/2025 09:05');
    expect(html).toContain('>Sunset party</p>');
    expect(html).toContain('src="/files/low.jpg"');
  });

  it('leaves the caption out when there is none and names a nameless owner "User"', () => {
    const html = render(media({ caption: null, user_name: '' }));
    expect(html).toContain('>User</h2>');
    expect(html).not.toContain('wall-card-caption');
  });

  it('has a like toggle with its count and a collapsed comments toggle', () => {
    const html = render(media({ likes_count: 1, is_liked_by_caller: true }));
    const like = /<button[^>]*class="wall-action wall-like"[^>]*>/.exec(html)![0];
    expect(like).toContain('aria-pressed="true"');
    expect(like).toContain('aria-label="Like, 1 like"');
    expect(html).toContain('data-testid="like-count">1</span>');
    const comments = /<button[^>]*class="wall-action wall-comments-toggle"[^>]*>/.exec(html)![0];
    expect(comments).toContain('aria-expanded="false"');
    expect(html).not.toContain('wall-comments"');
  });

  it('plays a clip muted and looping', () => {
    const html = render(media({ media_type: 'video', lowres_s3_url: '/files/low.mp4' }));
    expect(html).toMatch(/<video[^>]*autoPlay[^>]*muted[^>]*loop/i);
  });
});
