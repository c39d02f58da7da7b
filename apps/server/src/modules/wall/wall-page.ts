import {
  displayName,
  formatUtcTimestamp,
  likeLabel,
  type Media,
  mediaWhere,
  pageCount,
  pageSlots,
  WALL_MESSAGES,
  WALL_PAGE_SIZE,
  type WallPage,
  WallQuerySchema,
} from '@flashbooth/contracts';
import { html, type SafeHtml, scriptSafeJson } from '../../lib/html.js';
import type { WallCache } from './wall-cache.js';
import type { WallService } from './wall.service.js';

/**
 * The public wall's page (`/regular/wall`) as the server sends it (issue 41): the build's
 * prerendered wall (apps/web/scripts/prerender.ts: the app's own screen, signed out, its list a
 * skeleton between `<!--wall-list-->` markers) with the first page of cards in the skeleton's
 * place and, for the app, that page as JSON (`#wall-data`), so the wall paints from its HTML with
 * no script, and the app, which starts on the visitor's first touch (the page's loader), renders
 * the same cards from that JSON without asking the API again.
 *
 * The markup is the app's (apps/web/src/features/wall/components/wall-card.tsx, MediaPreview,
 * ListBody and Pagination in apps/web/src/components): what a signed-out visitor's app draws for
 * the first page, so nothing moves when the app renders over it (e2e/tests/wall-first-paint.spec.ts
 * compares the two); its texts and formats (the like label, names, dates, page slots) are the
 * app's own functions (packages/contracts/src/display-rules.ts). Every value from the database
 * (names, captions, venues, addresses) is escaped by `html`.
 */

/** Where the build left the wall's list (its skeleton) for the server to fill in. */
export const WALL_LIST_MARKERS = /<!--wall-list-->[\s\S]*?<!--\/wall-list-->/;

/** What the app reads from the page (apps/web/src/features/wall/api/inlined-wall.ts). */
export interface InlinedWall {
  rendered_at: number;
  search: string;
  page: number;
  data: WallPage;
}

// --- Markup (each template on lines of its own, no whitespace between tags: the app has none) ---

/** LineIcon (apps/web/src/components/ui/line-icon.tsx). */
function lineIcon(
  size: number,
  paths: SafeHtml,
  options: { className?: string; strokeWidth?: number } = {},
): SafeHtml {
  const className = options.className ? html` class="${options.className}"` : '';
  // prettier-ignore
  return html`<svg${className} viewBox="0 0 24 24" width="${size}" height="${size}" fill="none" stroke="currentColor" stroke-width="${options.strokeWidth ?? 2}" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true" focusable="false">${paths}</svg>`;
}

// prettier-ignore
const LIKE_PATH = html`<path d="M12 20.5s-7.5-4.6-9.3-9.4C1.5 7.9 3.6 4.5 7 4.5c2.1 0 3.6 1.2 5 3 1.4-1.8 2.9-3 5-3 3.4 0 5.5 3.4 4.3 6.6-1.8 4.8-9.3 9.4-9.3 9.4z"></path>`;
const COMMENTS_PATH = html`<path d="M4 5.5h16v10H9l-5 4z"></path>`;
// prettier-ignore
const EMPTY_PATHS = html`<rect x="3" y="4" width="18" height="16" rx="3"></rect><circle cx="9" cy="10" r="2"></circle><path d="m21 16-5-5-9 9"></path>`;

/** An empty message spot under a card's control (Toast with nothing to say). */
const TOAST_REGION = html`<div class="toast-region" role="status" aria-live="polite"></div>`;

/**
 * The card's preview (MediaPreview): the photo at the print's ratio, a motion item's poster with
 * its Play button (the clip itself loads once the app runs, as the app loads it only near the
 * screen), or "On its way from the booth". The first picture of the page is the page's largest
 * paint: fetched at once and first; the others lazily, as the app's.
 */
function preview(media: Media, where: string, first: boolean): SafeHtml {
  const url = media.is_uploaded ? (media.lowres_s3_url ?? media.s3_url) : null;
  const motion = media.media_type === 'video' && media.is_uploaded && media.s3_url !== null;
  const when = formatUtcTimestamp(media.created_at);
  const shape = media.orientation === 'portrait' ? 'portrait' : 'landscape';
  const ratio = shape === 'portrait' ? '2 / 3' : '3 / 2';
  const poster = media.lowres_s3_url ? html` poster="${media.lowres_s3_url}"` : '';
  const alt = media.caption ? `Photo: ${media.caption}` : `Photo from ${where}, ${when}`;
  const fetching = first ? html` fetchpriority="high"` : html` loading="lazy"`;
  // prettier-ignore
  const content = !url
    ? html`<div class="media-card-processing"><span class="spinner spinner-sm" aria-hidden="true"></span><span>On its way from the booth</span><span class="media-card-processing-note">It appears here by itself as soon as the booth sends it.</span></div>`
    : motion
      ? html`<video class="motion-video"${poster} preload="none" autoplay="" muted="" loop="" playsinline="" aria-label="${`Video from ${where}, ${when}`}" data-testid="motion-video"></video><button type="button" class="media-video-toggle" aria-label="Play video"><svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false"><path d="M8 5v14l11-7z" fill="currentColor"></path></svg></button>`
      : html`<img src="${url}" alt="${alt}"${fetching} decoding="async"/>`;
  // prettier-ignore
  return html`<div class="media-card-stage"><div class="media-card-preview media-card-preview-${shape}" style="aspect-ratio:${ratio}" data-testid="media-preview-box">${content}</div></div>`;
}

/** One card as a signed-out visitor's app draws it (WallCard, comments closed). */
export function wallCard(media: Media, first = false): SafeHtml {
  const where = mediaWhere(media);
  const heading = `wall-item-${media.id}-heading`;
  const like = `${likeLabel(media.likes_count)}. Sign in to like`;
  const caption = media.caption && html`<p class="wall-card-caption">${media.caption}</p>`;
  // prettier-ignore
  const who = html`<div id="${heading}"><h2 class="wall-card-user">${displayName(media.user_name)}</h2><p class="wall-card-meta"><span class="wall-card-where">${where}</span><time datetime="${`${media.created_at}Z`}">${formatUtcTimestamp(media.created_at)}<span class="visually-hidden"> UTC</span></time></p></div>`;
  // prettier-ignore
  const actions = html`<div class="wall-card-actions"><button type="button" class="wall-action wall-like" aria-pressed="${String(media.is_liked_by_caller)}" aria-label="${like}" aria-describedby="${heading}">${lineIcon(22, LIKE_PATH, { className: 'wall-like-icon' })}<span class="wall-like-count" data-testid="like-count">${media.likes_count}</span></button><button type="button" class="wall-action wall-comments-toggle" aria-expanded="false" aria-describedby="${heading}">${lineIcon(22, COMMENTS_PATH)}<span>Comments</span></button></div>`;
  // prettier-ignore
  return html`<article class="card wall-card" data-testid="wall-card" data-media-id="${media.id}" id="wall-item-${media.id}" tabindex="-1" aria-labelledby="${heading}">${preview(media, where, first)}<div class="wall-card-body">${who}${caption}${actions}${TOAST_REGION}${TOAST_REGION}</div></article>`;
}

/** Previous, the page numbers and Next (Pagination); nothing for a single page. */
function pagination(page: number, totalPages: number): SafeHtml | '' {
  if (totalPages <= 1) return '';
  const slots = pageSlots(page, totalPages).map((slot) => {
    if (slot.kind === 'gap') return html`<li class="pagination-gap" aria-hidden="true">…</li>`;
    const current = slot.page === page ? html` aria-current="page"` : '';
    // prettier-ignore
    return html`<li><button type="button" class="pagination-button"${current} aria-label="Page ${slot.page}">${slot.page}</button></li>`;
  });
  const first = page <= 1 ? html` disabled=""` : '';
  const last = page >= totalPages ? html` disabled=""` : '';
  // prettier-ignore
  return html`<nav class="pagination" aria-label="Wall pages"><button type="button" class="pagination-button pagination-step"${first} aria-label="Previous page">‹</button><ul class="pagination-list">${slots}</ul><button type="button" class="pagination-button pagination-step"${last} aria-label="Next page">›</button></nav>`;
}

/** The list of one wall page and its page numbers, or the wall's empty state (ListBody). */
export function wallList(data: WallPage, page = 1): SafeHtml {
  if (data.items.length === 0) {
    const icon = lineIcon(26, EMPTY_PATHS, { strokeWidth: 1.8 });
    // prettier-ignore
    return html`<div class="media-empty" role="status"><span class="media-empty-icon" aria-hidden="true">${icon}</span><p>${WALL_MESSAGES.empty}</p></div>`;
  }
  const cards = data.items.map(
    (media, index) => html`<li class="card-grid-item">${wallCard(media, index === 0)}</li>`,
  );
  const pages = pagination(page, pageCount(data.total_count, WALL_PAGE_SIZE));
  // prettier-ignore
  return html`<ul class="card-grid wall-grid" aria-label="Public media">${cards}</ul>${pages}`;
}

/**
 * The wall page with `data` (the first page, no search, as a signed-out visitor reads it) in the
 * list's place and in `#wall-data` for the app; `template` is the build's page (with the markers).
 */
export function fillWallPage(template: string, data: WallPage, renderedAt: number): string {
  if (!WALL_LIST_MARKERS.test(template)) throw new Error('wall page: the template has no list');
  const inlined: InlinedWall = { rendered_at: renderedAt, search: '', page: 1, data };
  return template
    .replace(WALL_LIST_MARKERS, () => wallList(data).text)
    .replace(
      '</head>',
      () =>
        `<script type="application/json" id="wall-data">${scriptSafeJson(inlined)}</script></head>`,
    );
}

/**
 * The build's page for a server that cannot fill it (no wall source, or the read failed): the
 * skeleton, and the app started at once to fetch the cards (`data-app-start="now"`), as before.
 */
export function unfilledWallPage(template: string): string {
  return template.replace(
    /(<div id="root"[^>]*\bdata-app-start=")use"/,
    (_, start: string) => `${start}now"`,
  );
}

/** How long a filled page is reused at most, even while the wall's cache says nothing changed. */
export const WALL_PAGE_MAX_AGE_MS = 60_000;
/**
 * How long it is reused whatever changed (a wall liked every second is rendered once per this,
 * not once per request; and without the wall's cache, the only bound).
 */
export const WALL_PAGE_MIN_AGE_MS = 5_000;

/**
 * The filled page, rendered once and shared by every request while it is current: while the
 * wall's page cache (WallCache, migration 0028) has the version it was read at and it is younger
 * than WALL_PAGE_MAX_AGE_MS (the addresses in it stay valid for an hour), or younger than
 * WALL_PAGE_MIN_AGE_MS in any case. Requests that arrive while it renders share the rendering; a
 * failure is not kept.
 */
export class WallPageCache<T> {
  private kept: { at: number; version: number | undefined; page: Promise<T> } | undefined;

  constructor(
    private readonly render: () => Promise<T>,
    private readonly version: () => number | undefined,
    private readonly now: () => number = Date.now,
  ) {}

  get(): Promise<T> {
    const now = this.now();
    const version = this.version();
    const kept = this.kept;
    if (kept) {
      const age = now - kept.at;
      const unchanged = version !== undefined && version === kept.version;
      if (age < WALL_PAGE_MIN_AGE_MS || (unchanged && age < WALL_PAGE_MAX_AGE_MS)) return kept.page;
    }
    const page = this.render();
    const entry = { at: now, version, page };
    this.kept = entry;
    page.catch(() => {
      if (this.kept === entry) this.kept = undefined;
    });
    return page;
  }
}

/**
 * The page's source (plugins/web-app.ts `WallPages`): the first page as the app asks for it
 * signed out (`GET media/public?limit=10&offset=0`, so both share the wall's kept page) and the
 * wall cache's version.
 */
export function wallPageSource(
  wall: Pick<WallService, 'list'>,
  cache: Pick<WallCache, 'current'>,
): { firstPage: () => Promise<WallPage>; version: () => number | undefined } {
  const firstPage = WallQuerySchema.parse({ limit: String(WALL_PAGE_SIZE), offset: '0' });
  return { firstPage: () => wall.list(undefined, firstPage), version: () => cache.current() };
}
