import type { Media, WallPage } from '@flashbooth/contracts';
import { describe, expect, it } from 'vitest';
import {
  fillWallPage,
  unfilledWallPage,
  WALL_PAGE_MAX_AGE_MS,
  WALL_PAGE_MIN_AGE_MS,
  wallCard,
  wallList,
  WallPageCache,
} from './wall-page.js';

function item(id: number, values: Partial<Media> = {}): Media {
  return {
    id,
    media_type: 'image',
    lowres_s3_url: `/files/${id}-low.jpg?sig=a&x=1`,
    s3_url: `/files/${id}.jpg`,
    preview_s3_url: null,
    gif_s3_url: null,
    s3_key: `media/${id}.jpg`,
    org_name: 'Sunrise Mall',
    device_name: 'Atrium',
    user_name: 'Asha',
    created_at: '2025-09-01T08:05:00',
    updated_at: '2025-09-01T08:05:00',
    orientation: 'landscape',
    caption: null,
    is_public: true,
    is_repost_allowed: false,
    is_downloaded: false,
    is_shared: false,
    is_uploaded: true,
    likes_count: 0,
    is_liked_by_caller: false,
    hidden_from_wall: false,
    share_path: `/p/abc${id}`,
    ...values,
  };
}

const page = (items: Media[], total = items.length): WallPage => ({
  items,
  total_count: total,
  next_cursor: null,
});

describe('wallCard', () => {
  it('escapes what people wrote, in text and in attributes', () => {
    const card = wallCard(
      item(3, {
        user_name: '<img src=x onerror=alert(1)>',
        caption: 'Best "night" </p><script>x</script> & more',
        org_name: 'Café & Co',
        device_name: null,
      }),
    ).text;
    expect(card).not.toContain('<img src=x');
    expect(card).not.toContain('<script');
    expect(card).toContain('<h2 class="wall-card-user">&lt;img src=x onerror=alert(1)&gt;</h2>');
    expect(card).toContain(
      '<p class="wall-card-caption">Best &quot;night&quot; &lt;/p&gt;&lt;script&gt;x&lt;/script&gt; &amp; more</p>',
    );
    expect(card).toContain('alt="Photo: Best &quot;night&quot; &lt;/p&gt;');
    expect(card).toContain('<span class="wall-card-where">Café &amp; Co</span>');
    expect(card).toContain('src="/files/3-low.jpg?sig=a&amp;x=1"');
  });

  it('shows what the app shows signed out: who, where, when, the like count and Comments', () => {
    const card = wallCard(
      item(7, { user_name: '  ', likes_count: 1, org_name: null, device_name: null }),
    ).text;
    expect(card).toContain('id="wall-item-7"');
    expect(card).toContain('<h2 class="wall-card-user">User</h2>');
    expect(card).toContain('<span class="wall-card-where">Photobooth</span>');
    expect(card).toContain(
      '<time datetime="2025-09-01T08:05:00Z">01/09/2025 08:05<span class="visually-hidden"> UTC</span></time>',
    );
    expect(card).toContain('aria-label="Like, 1 like. Sign in to like"');
    expect(card).toContain('aria-pressed="false"');
    expect(card).toContain('<span class="wall-like-count" data-testid="like-count">1</span>');
    expect(card).toContain('aria-expanded="false"');
    expect(card).not.toContain('wall-card-caption');
    expect(card).toContain('alt="Photo from Photobooth, 01/09/2025 08:05"');
    // Two message spots, as the card's two Toasts leave them.
    expect(card.match(/class="toast-region"/g)).toHaveLength(2);
  });

  it('fetches the first picture at once and the others lazily', () => {
    expect(wallCard(item(1), true).text).toContain('fetchpriority="high"');
    expect(wallCard(item(1), true).text).not.toContain('loading="lazy"');
    expect(wallCard(item(2)).text).toContain('loading="lazy"');
  });

  it('shows a portrait print tall, a clip by its poster with Play, and an item on its way', () => {
    expect(wallCard(item(1, { orientation: 'portrait' })).text).toContain(
      'class="media-card-preview media-card-preview-portrait" style="aspect-ratio:2 / 3"',
    );
    const clip = wallCard(item(2, { media_type: 'video', s3_url: '/files/2.mp4' })).text;
    expect(clip).toContain(
      '<video class="motion-video" poster="/files/2-low.jpg?sig=a&amp;x=1" preload="none"',
    );
    expect(clip).not.toMatch(/<video[^>]* src=/);
    expect(clip).toContain('aria-label="Play video"');
    const waiting = wallCard(
      item(3, { is_uploaded: false, lowres_s3_url: null, s3_url: null }),
    ).text;
    expect(waiting).toContain('On its way from the booth');
    expect(waiting).not.toContain('<img');
  });
});

describe('wallList', () => {
  it('says the wall is empty', () => {
    const list = wallList(page([])).text;
    expect(list).toContain('class="media-empty" role="status"');
    expect(list).toContain('<p>No public media found.</p>');
  });

  it('lists the cards, and page numbers when there is more than a page', () => {
    const items = Array.from({ length: 10 }, (_, i) => item(i + 1));
    expect(wallList(page(items)).text).not.toContain('pagination');
    const list = wallList(page(items, 41)).text;
    expect(list.match(/<li class="card-grid-item">/g)).toHaveLength(10);
    expect(list.match(/fetchpriority/g)).toHaveLength(1);
    expect(list).toContain('<nav class="pagination" aria-label="Wall pages">');
    expect(list).toMatch(/<button[^>]*disabled=""[^>]*aria-label="Previous page">/);
    expect(list).toContain('aria-current="page" aria-label="Page 1">1</button>');
    expect(list).toContain('aria-label="Page 2">2</button>');
    expect(list).toContain('<li class="pagination-gap" aria-hidden="true">…</li>');
    expect(list).toContain('aria-label="Page 5">5</button>');
    expect(list).not.toContain('aria-label="Page 3"');
    expect(list).not.toMatch(/disabled=""[^>]*aria-label="Next page"/);
    // No text between tags that the app's markup does not have (a whitespace node would differ).
    expect(list).not.toMatch(/>\s+</);
  });
});

describe('fillWallPage', () => {
  const template =
    '<html><head><title>Wall</title></head><body><div id="root" data-prerendered="wall" data-app-start="use">' +
    '<main><h1>Wall</h1><!--wall-list--><div aria-busy="true">skeleton</div><!--/wall-list--></main></div></body></html>';

  it('puts the cards in the list’s place and the page for the app before </head>', () => {
    const data = page([item(1, { caption: '</script><!-- \u2028' })]);
    const html = fillWallPage(template, data, 1234);
    expect(html).not.toContain('skeleton');
    expect(html).not.toContain('wall-list');
    expect(html).toContain(
      '<main><h1>Wall</h1><ul class="card-grid wall-grid" aria-label="Public media">',
    );
    const json = /<script type="application\/json" id="wall-data">([^<]*)<\/script><\/head>/.exec(
      html,
    );
    expect(json![1]).not.toMatch(/[<\u2028]/);
    expect(JSON.parse(json![1]!)).toEqual({ rendered_at: 1234, search: '', page: 1, data });
  });

  it('refuses a template without the list, and starts the app at once on an unfilled page', () => {
    expect(() => fillWallPage('<html><head></head></html>', page([]), 1)).toThrow(/no list/);
    expect(unfilledWallPage(template)).toContain('data-prerendered="wall" data-app-start="now"');
    expect(unfilledWallPage(template)).toContain('skeleton');
  });
});

describe('WallPageCache', () => {
  function world() {
    let now = 1_000_000;
    let version: number | undefined = 1;
    let renders = 0;
    let fail = false;
    const cache = new WallPageCache(
      async () => {
        renders += 1;
        if (fail) throw new Error('database down');
        return `page ${renders}`;
      },
      () => version,
      () => now,
    );
    return {
      cache,
      renders: () => renders,
      advance: (ms: number) => (now += ms),
      setVersion: (v: number | undefined) => (version = v),
      setFail: (value: boolean) => (fail = value),
    };
  }

  it('renders once for concurrent requests and keeps the page while the wall is unchanged', async () => {
    const w = world();
    expect(await Promise.all([w.cache.get(), w.cache.get()])).toEqual(['page 1', 'page 1']);
    w.advance(WALL_PAGE_MAX_AGE_MS - 1);
    expect(await w.cache.get()).toBe('page 1');
    w.advance(1);
    expect(await w.cache.get()).toBe('page 2');
    expect(w.renders()).toBe(2);
  });

  it('renders again after a change, but not more often than every few seconds', async () => {
    const w = world();
    await w.cache.get();
    w.setVersion(2);
    expect(await w.cache.get()).toBe('page 1');
    w.advance(WALL_PAGE_MIN_AGE_MS);
    expect(await w.cache.get()).toBe('page 2');
  });

  it('without the wall’s cache, keeps a page only a few seconds; a failure is not kept', async () => {
    const w = world();
    w.setVersion(undefined);
    await w.cache.get();
    w.advance(WALL_PAGE_MIN_AGE_MS);
    expect(await w.cache.get()).toBe('page 2');
    w.advance(WALL_PAGE_MIN_AGE_MS);
    w.setFail(true);
    await expect(w.cache.get()).rejects.toThrow('database down');
    w.setFail(false);
    expect(await w.cache.get()).toBe('page 4');
  });
});
