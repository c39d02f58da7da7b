import { html, type SafeHtml, trusted } from '../../lib/html.js';

/** Everything the share page shows, with absolute and relative addresses already made. */
export interface SharePageModel {
  /** The page's own absolute address (og:url, canonical). */
  url: string;
  mediaType: 'image' | 'video';
  firstName: string;
  venue: string;
  boothName: string | null;
  /** The booth's page (`/b/{id}`), or the home page when the booth is gone. */
  boothHref: string;
  caption: string | null;
  createdAt: Date;
  likesCount: number;
  commentsCount: number;
  comments: { author: string; text: string; createdAt: Date }[];
  /** The picture (photo or poster) in 1200 and 600 px: absolute for og:image, sized. */
  image: { url1200: string; src600: string; src1200: string; width: number; height: number } | null;
  /**
   * A motion item's video: absolute for og:video, relative for the page, and its own size in
   * pixels (the poster's, which the booth makes at the MP4's exact size), null when unknown.
   */
  video: { url: string; src: string; width: number | null; height: number | null } | null;
}

/** The share page's one script (`/p/share.js`, same origin: the CSP allows no inline script). */
export const SHARE_SCRIPT_PATH = '/p/share.js';

/**
 * The share page's script: a tap (or click) on a motion item's video, or its Pause/Play button,
 * pauses and plays it; people who asked for reduced motion see it paused until they press Play.
 * Without it the video still plays muted on a loop on its own (the attributes say so).
 */
export const SHARE_SCRIPT = `(function () {
  var video = document.querySelector('video[data-share-video]');
  var button = document.querySelector('button[data-share-toggle]');
  if (!video) return;
  function sync() {
    if (!button) return;
    button.setAttribute('aria-label', video.paused ? 'Play video' : 'Pause video');
    button.setAttribute('data-state', video.paused ? 'paused' : 'playing');
  }
  function play() {
    video.muted = true;
    var started = video.play();
    if (started && started.catch) started.catch(function () { sync(); });
  }
  function toggle() {
    if (video.paused) play();
    else video.pause();
  }
  video.addEventListener('click', toggle);
  video.addEventListener('play', sync);
  video.addEventListener('pause', sync);
  if (button) {
    button.hidden = false;
    button.addEventListener('click', toggle);
  }
  if (window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches) {
    video.removeAttribute('autoplay');
    video.pause();
  } else if (video.paused) {
    play();
  }
  sync();
})();
`;

/** A date as "14 May 2025" (UTC: the page is the same wherever it is read). */
export function shareDate(at: Date): string {
  return new Intl.DateTimeFormat('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(at);
}

/**
 * The page without the indentation between tags (the template is written indented). Text never
 * holds a raw `<` or `>` (every value is escaped), so only whitespace between tags goes.
 */
const compact = (page: SafeHtml) => page.text.replace(/>\s+</g, '><').trim();

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/**
 * Small enough to inline (no style sheet to wait for); phones first, a centred column on wider
 * screens. Colours are the web app's (`apps/web/src/styles.css`), text contrast AA on white.
 */
const STYLE = trusted(`
*,*::before,*::after{box-sizing:border-box}
body{margin:0;font-family:system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,sans-serif;color:#16121f;background:#f7f5fb;line-height:1.5;-webkit-text-size-adjust:100%}
a{color:#b42349}
.top{display:flex;align-items:center;justify-content:space-between;gap:12px;padding:12px max(16px, calc((100% - 640px) / 2));background:#fff;border-bottom:1px solid #e4e0ec}
.brand{font-weight:700;font-size:1.125rem;color:#16121f;text-decoration:none}
.brand span{color:#d12f56}
main{max-width:640px;margin:0 auto;padding:0 0 32px}
figure{margin:0;background:#16121f;position:relative}
figure img,figure video{display:block;width:100%;height:auto;max-height:80vh;object-fit:contain;margin:0 auto}
figure video{cursor:pointer}
.toggle{position:absolute;right:12px;bottom:12px;width:44px;height:44px;display:grid;place-items:center;padding:0;border:0;border-radius:50%;background:rgba(22,18,31,.65);color:#fff;cursor:pointer}
.toggle[hidden]{display:none}
.toggle:focus-visible{outline:3px solid #ffb547;outline-offset:2px}
.toggle .play,.toggle[data-state=paused] .pause{display:none}
.toggle[data-state=paused] .play{display:block}
.card{background:#fff;padding:16px;border-bottom:1px solid #e4e0ec}
h1{font-size:1.375rem;line-height:1.3;margin:0 0 4px}
.meta{margin:0;color:#4a4458;font-size:.9375rem}
.caption{margin:12px 0 0;font-size:1.0625rem;overflow-wrap:anywhere}
.counts{margin:12px 0 0;color:#4a4458;font-size:.9375rem}
.cta{display:block;margin:16px;padding:14px 16px;border-radius:14px;background:#d12f56;color:#fff;font-weight:700;font-size:1.0625rem;text-align:center;text-decoration:none}
.cta:focus-visible,a:focus-visible{outline:3px solid #ffb547;outline-offset:2px}
h2{font-size:1.125rem;margin:0 0 8px}
ol{list-style:none;margin:0;padding:0}
li{padding:10px 0;border-top:1px solid #e4e0ec}
li:first-child{border-top:0}
li p{margin:0;overflow-wrap:anywhere}
.who{font-weight:600}
.when{color:#6e6880;font-size:.875rem;margin-left:6px}
.more{margin:12px 0 0}
footer{padding:16px;color:#6e6880;font-size:.875rem;text-align:center}
@media (min-width:700px){main{padding-top:24px}figure{border-radius:14px 14px 0 0;overflow:hidden}.card:last-of-type{border-radius:0 0 14px 14px}}
`);

function metaTags(page: SharePageModel, title: string, description: string): SafeHtml {
  const image = page.image;
  return html`<meta property="og:type" content="${page.video ? 'video.other' : 'website'}" />
    <meta property="og:site_name" content="Flashbooth" />
    <meta property="og:title" content="${title}" />
    <meta property="og:description" content="${description}" />
    <meta property="og:url" content="${page.url}" />
    ${
      image &&
      html`<meta property="og:image" content="${image.url1200}" />
        <meta property="og:image:type" content="image/jpeg" />
        <meta property="og:image:width" content="${image.width}" />
        <meta property="og:image:height" content="${image.height}" />
        <meta property="og:image:alt" content="${title}" /> `
    }${
      page.video &&
      html`<meta property="og:video" content="${page.video.url}" />
        <meta property="og:video:type" content="video/mp4" />
        ${page.video.url.startsWith('https:') && html`<meta property="og:video:secure_url" content="${page.video.url}" /> `}${
          page.video.width !== null &&
          page.video.height !== null &&
          html`<meta property="og:video:width" content="${page.video.width}" />
            <meta property="og:video:height" content="${page.video.height}" /> `
        }`
    }<meta name="twitter:card" content="${image ? 'summary_large_image' : 'summary'}" />
    <meta name="twitter:title" content="${title}" />
    <meta name="twitter:description" content="${description}" />
    ${
      image &&
      html`<meta name="twitter:image" content="${image.url1200}" />
        <meta name="twitter:image:alt" content="${title}" /> `
    }`;
}

function picture(page: SharePageModel, alt: string): SafeHtml | false {
  const image = page.image;
  if (page.video) {
    // Sized by the clip's own width and height (else the poster's): the player has the clip's
    // shape, with no bars. It plays as everywhere else: muted, looping, inline, on its own.
    const width = page.video.width ?? image?.width;
    const height = page.video.height ?? image?.height;
    return html`<video
        data-share-video
        autoplay
        muted
        loop
        playsinline
        preload="auto"
        ${image && html`poster="${image.src1200}"`}
        ${width && height && html`width="${width}" height="${height}"`}
        aria-label="${alt}"
      >
        <source src="${page.video.src}" type="video/mp4" />
        <a href="${page.video.src}">Download the video</a>
      </video>
      <button
        type="button"
        class="toggle"
        data-share-toggle
        data-state="playing"
        aria-label="Pause video"
        hidden
      >
        <svg
          class="pause"
          viewBox="0 0 24 24"
          width="20"
          height="20"
          aria-hidden="true"
          focusable="false"
        >
          <path d="M7 5h4v14H7zm6 0h4v14h-4z" fill="currentColor" />
        </svg>
        <svg
          class="play"
          viewBox="0 0 24 24"
          width="20"
          height="20"
          aria-hidden="true"
          focusable="false"
        >
          <path d="M8 5v14l11-7z" fill="currentColor" />
        </svg>
      </button>`;
  }
  return (
    image !== null &&
    html`<img
      src="${image.src1200}"
      srcset="${image.src600} 600w, ${image.src1200} 1200w"
      sizes="(min-width: 640px) 640px, 100vw"
      width="${image.width}"
      height="${image.height}"
      alt="${alt}"
      fetchpriority="high"
      decoding="async"
    />`
  );
}

/**
 * The whole share page: server-rendered, every outside text escaped by `html`; a motion item's
 * page loads SHARE_SCRIPT (tap to pause and play), nothing else does.
 */
export function renderSharePage(page: SharePageModel): string {
  const kind = page.mediaType === 'video' ? 'clip' : 'photo';
  const title = `${page.firstName} at ${page.venue}`;
  const where = page.boothName ? `${page.boothName} at ${page.venue}` : page.venue;
  const description =
    page.caption ?? `A ${kind} from the ${where} photo booth. Get your own at ${page.venue}.`;
  const alt = page.caption
    ? `${page.firstName}'s ${kind} at ${page.venue}: ${page.caption}`
    : `${page.firstName}'s ${kind} at ${page.venue}`;
  const figure = picture(page, alt);
  const counts = `${plural(page.likesCount, 'like', 'likes')} · ${plural(page.commentsCount, 'comment', 'comments')}`;
  return compact(
    html`<!doctype html>
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <title>${title} · Flashbooth</title>
          <meta name="description" content="${description}" />
          <link rel="canonical" href="${page.url}" />
          <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
          <meta name="theme-color" content="#ffffff" />
          ${metaTags(page, title, description)}
          <style>
            ${STYLE}
          </style>
        </head>
        <body>
          <header class="top">
            <a class="brand" href="/">Flash<span>booth</span></a
            ><a href="/regular/wall">The wall</a>
          </header>
          <main>
            ${figure && html`<figure>${figure}</figure>`}
            <section class="card" aria-labelledby="title">
              <h1 id="title">${title}</h1>
              <p class="meta">
                ${page.boothName && html`${page.boothName} · `}<time
                  datetime="${page.createdAt.toISOString()}"
                  >${shareDate(page.createdAt)}</time
                >
              </p>
              ${page.caption && html`<p class="caption">${page.caption}</p>`}
              <p class="counts">${counts}</p>
            </section>
            <a class="cta" href="${page.boothHref}">Get your own at ${page.venue}</a>
            <section class="card" aria-labelledby="comments">
              <h2 id="comments">Comments</h2>
              ${
                page.comments.length === 0
                  ? html`<p>No comments yet.</p>`
                  : html`<ol>
                      ${page.comments.map(
                        (comment) =>
                          html`<li>
                            <p>
                              <span class="who">${comment.author}</span
                              ><time class="when" datetime="${comment.createdAt.toISOString()}"
                                >${shareDate(comment.createdAt)}</time
                              >
                            </p>
                            <p>${comment.text}</p>
                          </li>`,
                      )}
                    </ol>`
              }
              <p class="more"><a href="/regular/wall">Like and comment on the wall</a></p>
            </section>
          </main>
          <footer>
            Shared from a Flashbooth photo booth · <a href="/privacy-policy">Privacy</a>
          </footer>
          ${page.video && html`<script src="${SHARE_SCRIPT_PATH}" defer></script>`}
        </body>
      </html> `,
  );
}

/** The 404 page of a share address that is not (or no longer) public. */
export function renderShareNotFound(): string {
  return compact(
    html`<!doctype html>
      <html lang="en">
        <head>
          <meta charset="utf-8" />
          <meta name="viewport" content="width=device-width, initial-scale=1" />
          <meta name="robots" content="noindex" />
          <title>Photo not found · Flashbooth</title>
          <style>
            ${STYLE}
          </style>
        </head>
        <body>
          <header class="top">
            <a class="brand" href="/">Flash<span>booth</span></a>
          </header>
          <main>
            <section class="card">
              <h1>This photo is not shared</h1>
              <p>
                Its owner made it private, or the link is wrong. Ask them for a new link, or see
                what others shared on <a href="/regular/wall">the wall</a>.
              </p>
            </section>
          </main>
        </body>
      </html> `,
  );
}
