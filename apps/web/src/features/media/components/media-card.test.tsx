import type { Media } from '@flashbooth/contracts';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { MediaCard } from './media-card';

function media(overrides: Partial<Media> = {}): Media {
  return {
    id: 7,
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
    caption: null,
    is_public: false,
    is_repost_allowed: true,
    is_downloaded: false,
    is_shared: false,
    is_uploaded: true,
    likes_count: 0,
    is_liked_by_caller: false,
    hidden_from_wall: false,
    ...overrides,
  };
}

const render = (item: Media, canShare = false) =>
  renderToStaticMarkup(
    <QueryClientProvider client={new QueryClient()}>
      <MediaCard
        media={item}
        canShare={canShare}
        pageKey={['mine']}
        onFileAction={async () => {}}
        notify={() => {}}
      />
    </QueryClientProvider>,
  );

/** The first element of a kind in the markup, with its attributes (names lower-cased). */
function parse(html: string) {
  const tag = (name: string) => {
    const match = new RegExp(`<${name}\\b([^>]*)>`).exec(html);
    if (!match) return null;
    const attributes = new Map<string, string>();
    for (const [, key, , value] of match[1]!.matchAll(/([a-zA-Z-]+)(="([^"]*)")?/g)) {
      attributes.set(key!.toLowerCase(), value ?? '');
    }
    return attributes;
  };
  return { tag };
}

describe('MediaCard preview', () => {
  it('shows a photo from the low-resolution copy at 3:2 for landscape', () => {
    const html = render(media());
    const img = parse(html).tag('img');
    expect(img?.get('src')).toBe('/files/low.jpg');
    expect(img?.get('alt')).toBe('Photo from Demo Org · Lobby Booth, 14/05/2025 09:05');
    expect(html).toContain('aspect-ratio:3 / 2');
    expect(html).not.toContain('<video');
  });

  it('shows a portrait item at 2:3', () => {
    expect(render(media({ orientation: 'portrait' }))).toContain('aspect-ratio:2 / 3');
  });

  it('shows a video from its poster, muted, looping and inline, and fetches nothing yet', () => {
    const html = render(
      media({
        media_type: 'video',
        lowres_s3_url: '/files/poster.jpg',
        s3_url: '/files/hd.mp4',
        s3_key: 'media/1/hd.mp4',
      }),
    );
    const video = parse(html).tag('video');
    expect(video).not.toBeNull();
    expect(video?.get('poster')).toBe('/files/poster.jpg');
    // The MP4 is given only once the card is near the screen (in the browser).
    expect(video?.has('src')).toBe(false);
    expect(video?.get('preload')).toBe('none');
    for (const flag of ['autoplay', 'muted', 'loop', 'playsinline']) {
      expect(video?.has(flag), flag).toBe(true);
    }
    expect(video?.has('controls')).toBe(false);
    expect(video?.get('aria-label')).toBe('Video from Demo Org · Lobby Booth, 14/05/2025 09:05');
    expect(html).not.toContain('<img');
    expect(html).toContain('aria-label="Play video"');
  });

  it('offers Download GIF only for an item with a .gif', () => {
    expect(render(media())).not.toContain('Download GIF');
    const gif = media({ media_type: 'video', gif_s3_url: '/files/hd.gif' });
    expect(render(gif)).toContain('>Download GIF</button>');
  });

  it('waits for the upload before showing a preview', () => {
    const html = render(media({ is_uploaded: false, lowres_s3_url: null, s3_url: null }));
    expect(html).toContain('On its way from the booth');
    // Nothing to download or share until it arrives.
    expect(html).not.toContain('Download HD');
    expect(html).not.toContain('>Share<');
    expect(html).not.toContain('<img');
  });
});

describe('MediaCard contents', () => {
  it('names the card by where and when, and shows the date as dd/mm/yyyy hh:mm', () => {
    const html = render(media());
    const article = parse(html).tag('article');
    const headingId = article?.get('aria-labelledby');
    expect(headingId).toBeTruthy();
    expect(html).toContain(`<div id="${headingId}"><h2 class="media-card-where">`);
    expect(html).toContain('>Demo Org · Lobby Booth</h2>');
    expect(html).toContain('<time dateTime="2025-05-14T09:05:59Z">14/05/2025 09:05</time>');
  });

  it('offers the caption box only for public items', () => {
    expect(render(media())).not.toContain('Caption');
    const html = render(media({ is_public: true, caption: 'Sunset' }));
    expect(html).toContain('>Caption</label>');
    expect(html).toContain('value="Sunset"');
  });

  it('offers Share only when asked to (mobile user agents)', () => {
    expect(render(media())).not.toContain('>Share</button>');
    expect(render(media(), true)).toContain('>Share</button>');
    expect(render(media())).toContain('>Download HD</button>');
  });

  it('says when the venue hid the item from the wall, and ties it to the Public Wall switch', () => {
    expect(render(media({ is_public: true }))).not.toContain('Hidden from the Wall');
    const html = render(media({ is_public: true, hidden_from_wall: true }));
    const note =
      /<p id="([^"]+)" class="media-hidden-note"[^>]*>Hidden from the Wall by the venue\.<\/p>/.exec(
        html,
      );
    expect(note).not.toBeNull();
    const publicSwitch = /<button id="[^"]+"[^>]*role="switch"[^>]*>/.exec(html)![0];
    expect(publicSwitch).toContain(note![1]!);
  });

  it('has two labelled switches that reflect the flags', () => {
    const html = render(media({ is_public: true, is_repost_allowed: false }));
    const switches = [...html.matchAll(/<button id="([^"]+)"[^>]*role="switch"[^>]*>/g)];
    expect(switches).toHaveLength(2);
    const [publicSwitch, repostSwitch] = switches;
    expect(html).toContain(
      `<label for="${publicSwitch![1]}" class="media-switch-label">Public Wall`,
    );
    expect(html).toContain(
      `<label for="${repostSwitch![1]}" class="media-switch-label">Allow Repost`,
    );
    expect(publicSwitch![0]).toContain('aria-checked="true"');
    expect(repostSwitch![0]).toContain('aria-checked="false"');
  });
});

describe('MediaCard caption limit', () => {
  const counterOf = (html: string) =>
    /<p id="([^"]+)" class="(character-counter[^"]*)" aria-live="polite"[^>]*>(.*?)<\/p>/.exec(
      html,
    );

  it('keeps the whole text (no maxlength cut) and ties the box to its counter', () => {
    const html = render(media({ is_public: true, caption: 'Sunset' }));
    const input = /<input id="[^"]+" class="input media-caption-input"[^>]*>/.exec(html)![0];
    expect(input).not.toContain('maxLength');
    expect(input).not.toContain('maxlength');
    const counter = counterOf(html);
    expect(counter).not.toBeNull();
    expect(input).toContain(`aria-describedby="${counter![1]}"`);
    // Far from the limit the counter is empty.
    expect(counter![3]).toBe('');
  });

  it('counts near the limit, as "450/500"', () => {
    const html = render(media({ is_public: true, caption: 'x'.repeat(450) }));
    expect(counterOf(html)![3]).toContain('450/500');
    expect(html).not.toContain('Caption must be at most 500 characters.');
  });

  it('refuses more than 500 with the server’s message, Save marked off', () => {
    const html = render(media({ is_public: true, caption: 'x'.repeat(501) }));
    const counter = counterOf(html)!;
    expect(counter[2]).toBe('character-counter character-counter-over');
    expect(counter[3]).toContain('Caption must be at most 500 characters.');
    expect(counter[3]).toContain('501/500');
    expect(html).toMatch(
      /<button type="submit" class="[^"]*media-caption-save"[^>]*aria-disabled="true"/,
    );
    expect(html).toMatch(/<input[^>]*media-caption-input[^>]*aria-invalid="true"/);
  });
});
