/**
 * The second half of `npm run build` (after `vite build`):
 *
 * 1. Prerendering. src/entry-prerender.tsx is built for Node and renders, from the app's own
 *    components, the pages a visitor opens first: the landing (`/`, `/brochure`) and the three
 *    legal pages, which the browser hydrates, and the frame of the booth page (`/b/{id}`), which
 *    the browser renders over. Each page is index.html with the markup in #root, its title, its
 *    stylesheets inlined and its route's modules preloaded, so it paints from the HTML alone,
 *    before any script runs.
 *    The installation's addresses are unknown here: pages carry placeholders that the server
 *    replaces at start (both listed in dist/prerendered.json, which the server reads).
 * 2. Compression. Every text file the server sends as it is (scripts, styles, SVG, HTML, JSON)
 *    gets a Brotli (.br, quality 11) and a gzip (.gz, level 9) copy, which the server picks by
 *    Accept-Encoding, with no compression work per request. index.html and the prerendered pages
 *    are templates the server fills in, so it compresses those once itself.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build, transformWithEsbuild } from 'vite';
import {
  SIGN_IN_PROGRESS_KEY,
  SIGN_IN_PROGRESS_MS,
} from '../src/features/auth/sign-in-progress.js';
import { HERE_HINT_KEY } from '../src/features/booth/here-hint.js';

const webRoot = path.resolve(import.meta.dirname, '..');
const dist = path.join(webRoot, 'dist');
const PRERENDERED_DIR = 'prerendered';

/** What the pages are rendered with in place of the installation's settings. */
const PLACEHOLDERS = {
  supportEmail: 'fb-support-local@fb-support-domain.invalid',
  partnershipEmail: 'fb-partnership-local@fb-partnership-domain.invalid',
  demoFormUrl: '/fb-demo-form-url.invalid',
};

/**
 * What the booth page is rendered with in place of the booth's name and venue; the server puts
 * each booth's own in their place (apps/server/src/plugins/web-app.ts).
 */
const BOOTH_PLACEHOLDERS = {
  deviceName: 'fb-booth-device-name',
  orgName: 'fb-booth-venue-name',
};

/** The booth page's addresses. */
const BOOTH_PATHS = ['/b/:deviceId', '/regular/photobooths/:deviceId'];
/** The same as a pattern for the loader (in the page, no router): the booth's id is group 1. */
const BOOTH_PATH_PATTERN = `^(?:${BOOTH_PATHS.map((p) => p.replace('/:deviceId', '')).join('|')})/([^/]+)/?$`;
/** The visitor's sign-in screen, where a booth page sends a signed-out browser. */
const VISITOR_LOGIN = { pool: 'regular', path: '/regular/login' } as const;

interface PageSpec {
  /** The address the page answers (a route pattern for the booth frame). */
  path: string;
  /** The address rendered. */
  url: string;
  /** The route module whose chunk and styles the page links (a key of Vite's manifest). */
  module: string;
  /**
   * `hydrate`: the app's first render in a signed-out browser; `frame`: rendered over;
   * `booth`: the booth page as it opens (its location dialog), filled in per booth by the server
   * and rendered over; `wall`: the wall signed out, its list a skeleton between markers that the
   * server fills with the first page of cards (apps/server/src/modules/wall/wall-page.ts), and
   * rendered over.
   */
  mode: 'hydrate' | 'frame' | 'booth' | 'wall';
  /**
   * When the app starts on the page (the loader, below): `use`, at the visitor's first touch,
   * key or field, or once the loaded page has been idle IDLE_START_MS (the HTML shows what the
   * app would draw); `now`, as soon as the page has painted (it shows data the app fetches).
   */
  start?: 'use' | 'now';
  /**
   * Where a visitor with no stored session goes next (the booth page's guard sends them to sign
   * in): that page, rendered signed out, rides in this one as a template that the loader shows
   * in its place (at its address, with the way back remembered) before the app has started, and
   * its route's scripts are fetched beside the app's, its styles are inlined.
   */
  signedOut?: { url: string; module: string };
}

const PAGES: PageSpec[] = [
  { path: '/', url: '/', module: 'src/app/routes/landing.tsx', mode: 'hydrate', start: 'use' },
  {
    path: '/brochure',
    url: '/brochure',
    module: 'src/app/routes/landing.tsx',
    mode: 'hydrate',
    start: 'use',
  },
  {
    path: VISITOR_LOGIN.path,
    url: VISITOR_LOGIN.path,
    module: 'src/app/routes/regular/login.tsx',
    mode: 'hydrate',
    start: 'use',
  },
  // The server puts the wall's first page of cards in (the app starts at once where it cannot).
  {
    path: '/regular/wall',
    url: '/regular/wall',
    module: 'src/app/routes/regular/wall.tsx',
    mode: 'wall',
    start: 'use',
  },
  ...(
    [
      ['/terms-and-conditions', 'legal-terms'],
      ['/refund-policy', 'legal-refund'],
      ['/privacy-policy', 'legal-privacy'],
    ] as const
  ).map(([page, module]) => ({
    path: page,
    url: page,
    module: `src/app/routes/${module}.tsx`,
    mode: 'hydrate' as const,
    start: 'use' as const,
  })),
  ...BOOTH_PATHS.map((pattern) => ({
    path: pattern,
    url: '/b/1',
    module: 'src/app/routes/regular/booth.tsx',
    mode: 'frame' as const,
  })),
  {
    path: '/booth-frame',
    url: '/b/1',
    module: 'src/app/routes/regular/booth.tsx',
    mode: 'booth',
    start: 'use',
    signedOut: { url: VISITOR_LOGIN.path, module: 'src/app/routes/regular/login.tsx' },
  },
];

interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
  isEntry?: boolean;
}

interface PrerenderEntry {
  configure: (values: typeof PLACEHOLDERS) => void;
  renderPage: (url: string) => Promise<string>;
  renderBoothFrame: (url: string) => Promise<string>;
  renderBoothPage: (url: string, placeholders: typeof BOOTH_PLACEHOLDERS) => Promise<string>;
}

const escapeAttribute = (value: string) =>
  value.replace(/[&<>"]/g, (ch) => `&#${ch.charCodeAt(0)};`);

/**
 * The page a signed-out visitor is sent to, rendered as their browser first renders it, as the
 * `<template id="signed-out-page">` the loader shows in the booth page's place.
 */
async function signedOutPage(entry: PrerenderEntry, url: string): Promise<string> {
  const rendered = await entry.renderPage(url);
  const hoisted = /^(?:<(?:title|meta|link)\b[^>]*>(?:[^<]*<\/title>)?)*/.exec(rendered)![0];
  // A title of its own (as React escaped it for the element's text, re-escaped for an attribute);
  // without one the page keeps the shell's.
  const title = /<title>([^<]*)<\/title>/.exec(hoisted)?.[1];
  const text = title?.replace(
    /&(amp|lt|gt|quot|#x27|#39);/g,
    (_, name: string) =>
      ({ amp: '&', lt: '<', gt: '>', quot: '"', '#x27': "'", '#39': "'" })[name]!,
  );
  return (
    `<template id="signed-out-page" data-path="${escapeAttribute(url)}"` +
    (text === undefined ? '' : ` data-title="${escapeAttribute(text)}"`) +
    `>${rendered.slice(hoisted.length)}</template>`
  );
}

/** The files (scripts and stylesheets) a chunk pulls in: itself and its static imports. */
function chunkFiles(manifest: Record<string, ManifestChunk>, key: string) {
  const scripts = new Set<string>();
  const styles = new Set<string>();
  const visit = (k: string) => {
    const chunk = manifest[k];
    if (!chunk) throw new Error(`prerender: ${k} is not in the build manifest`);
    if (scripts.has(chunk.file)) return;
    scripts.add(chunk.file);
    for (const css of chunk.css ?? []) styles.add(css);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  visit(key);
  return { scripts, styles };
}

/**
 * The page's stylesheets (a few KB) go inside it, so nothing but the HTML stands between the
 * request and the first paint. Each keeps a disabled link (never fetched): Vite's loader, which
 * fetches a route's stylesheets before running its module, sees it and does not fetch it again.
 */
function inlineStyles(html: string): string {
  return html.replace(
    /<link rel="stylesheet" crossorigin href="\/([^"]+\.css)">/g,
    (_, file: string) => {
      const css = readFileSync(path.join(dist, file), 'utf8');
      if (/<\/style/i.test(css)) throw new Error(`prerender: ${file} cannot be inlined`);
      return `<style>${css}</style><link rel="stylesheet" href="/${file}" disabled>`;
    },
  );
}

/**
 * How a hydrated page (and the booth page) loads the app: after the browser has painted it. The scripts (about
 * 100 KB compressed) would otherwise share a phone's bandwidth with the page and, on a fast
 * line, run before the first frame and hold it back; the page reads, and its links work, before
 * it hydrates. The modules to load are listed in the page (`#app-modules`, JSON: the CSP allows
 * no inline script), the entry first; the rest are preloaded beside it, as Vite's own
 * modulepreload links would.
 */
/**
 * How long a page whose app starts on use waits, once loaded, before starting it all the same
 * (then in the browser's next idle moment): the app is ready when the visitor's first tap comes
 * after reading the page, and its start does not share the page's load.
 */
const IDLE_START_MS = 3000;

const APP_LOADER = `// Loads the app once a prerendered page has painted (apps/web/scripts/prerender.ts).
const IDLE_START_MS = ${IDLE_START_MS};
const [entry, ...modules] = JSON.parse(document.getElementById('app-modules').textContent);
const root = document.getElementById('root');
const preload = (href) => {
  const link = document.createElement('link');
  link.rel = 'modulepreload';
  link.crossOrigin = '';
  link.href = href;
  document.head.append(link);
};
// A browser with no stored session (the app's user key) is sent to sign in: the page it goes to
// rides in this one (#signed-out-page), shown now at its address, the way back remembered as the
// app's route guard remembers it; its scripts are fetched beside the app's.
let signedIn = true;
try {
  signedIn = Boolean(localStorage.getItem('user'));
} catch {}
const signedOutPage = document.getElementById('signed-out-page');
const signedOutModules = document.getElementById('app-modules-signed-out');
if (!signedIn && signedOutPage) {
  try {
    sessionStorage.setItem('redirectAfterLogin', location.pathname + location.search + location.hash);
  } catch {}
  history.replaceState(history.state, '', signedOutPage.dataset.path);
  root.replaceChildren(signedOutPage.content.cloneNode(true));
  if (signedOutPage.dataset.title) document.title = signedOutPage.dataset.title;
}
// A sign-in this tab left at Create Your Account or Enter OTP (a phone discarded the tab while
// its visitor read the SMS; src/features/auth/sign-in-progress.ts): the app opens on that step,
// so it starts now, and the phone entry painted from the HTML is hidden meanwhile (#root's
// data-resuming, which the app removes), as nothing typed into it would be wanted.
let resuming = false;
try {
  const progress = JSON.parse(sessionStorage.getItem('${SIGN_IN_PROGRESS_KEY}') || 'null');
  resuming =
    !signedIn &&
    location.pathname === '${VISITOR_LOGIN.path}' &&
    progress?.pool === '${VISITOR_LOGIN.pool}' &&
    progress.step !== 'phone' &&
    Math.abs(Date.now() - progress.at) < ${SIGN_IN_PROGRESS_MS};
} catch {}
if (resuming) root.dataset.resuming = 'sign-in';
// A signed-in visitor who answered Yes, I'm Here at this booth in this tab (back from the payment
// app in a reloaded tab; src/features/booth/here-hint.ts): the dialog the HTML shows is hidden and
// the app starts now, to show the booth as the visit has it.
if (signedIn && !resuming) {
  try {
    const booth = new RegExp('${BOOTH_PATH_PATTERN}').exec(location.pathname);
    resuming = booth !== null && sessionStorage.getItem('${HERE_HINT_KEY}') === booth[1];
  } catch {}
  if (resuming) root.dataset.resuming = 'booth';
}
// What the visitor types and submits before the app has started is kept for the app, which
// renders the page afresh (src/lib/early-input.ts replays it): fields by their place in the
// page, and the submit held until then. On every page this loader starts: the sign-in screen
// shown here, the pages whose app starts on use, and those whose app starts at once (the wall's
// search box is in its HTML: a search typed and sent in that moment would reload the page).
const INTENT = ['pointerdown', 'touchstart', 'keydown', 'focusin'];
const onUse =
  !resuming &&
  root.dataset.appStart === 'use' &&
  (!signedIn || !['hydrate', 'wall'].includes(root.dataset.prerendered));
const fields = () => [...root.querySelectorAll('input, textarea, select')];
const early = {
  values: [],
  kinds: [],
  focused: -1,
  submit: -1,
  click: -1,
  clickIn: null,
  clickInIndex: -1,
  page: location.pathname,
};
const kindOf = (field) => (field.tagName + ':' + field.type).toLowerCase();
const onInput = (event) => {
  const index = fields().indexOf(event.target);
  if (index >= 0) {
    early.values[index] = event.target.value;
    early.kinds[index] = kindOf(event.target);
  }
};
// The field the visitor is in: the app puts them back there (its page focuses its first).
const onFocus = (event) => {
  const index = fields().indexOf(event.target);
  if (index >= 0) {
    early.focused = index;
    early.kinds[index] = kindOf(event.target);
  }
};
const onSubmit = (event) => {
  event.preventDefault();
  early.submit = [...root.querySelectorAll('form')].indexOf(event.target);
};
// A tap on a button that only the app works (a slideshow's arrows, a wall card's Like): the app
// taps it again once it has taken over. A button in an item (a wall card: data-media-id) is
// found again in that item, wherever the app's list has it. A link that signs in and comes back
// (data-sign-in-returns) remembers the page as the app's own link would.
const BUTTONS = 'button:not([type="submit"])';
const onClick = (event) => {
  const button = event.target.closest?.(BUTTONS);
  const index = button ? [...root.querySelectorAll(BUTTONS)].indexOf(button) : -1;
  if (index >= 0) {
    const item = button.closest('[data-media-id]');
    early.click = index;
    early.clickLabel = button.getAttribute('aria-label') ?? button.textContent;
    early.clickIn = item && item.getAttribute('data-media-id');
    early.clickInIndex = item ? [...item.querySelectorAll(BUTTONS)].indexOf(button) : -1;
  }
  if (event.target.closest?.('a[data-sign-in-returns]')) {
    try {
      sessionStorage.setItem('redirectAfterLogin', location.pathname + location.search);
    } catch {}
  }
};
root.addEventListener('input', onInput, true);
root.addEventListener('focusin', onFocus, true);
root.addEventListener('submit', onSubmit, true);
root.addEventListener('click', onClick, true);
early.stop = () => {
  root.removeEventListener('input', onInput, true);
  root.removeEventListener('focusin', onFocus, true);
  root.removeEventListener('submit', onSubmit, true);
  root.removeEventListener('click', onClick, true);
};
// What was typed before this script ran (it runs once the HTML is parsed, and a visitor may be
// quicker): the fields' values as they stand, and the field the visitor is in.
fields().forEach((field, index) => {
  const changed =
    field.tagName === 'SELECT'
      ? [...field.options].some((option) => option.selected !== option.defaultSelected)
      : field.value !== field.defaultValue;
  if (changed) {
    early.values[index] = field.value;
    early.kinds[index] = kindOf(field);
  }
});
onFocus({ target: document.activeElement });
window.flashboothEarlyInput = early;
let started = false;
const start = () => {
  if (started) return;
  started = true;
  for (const type of INTENT) removeEventListener(type, start, true);
  for (const href of modules) preload(href);
  if (!signedIn && signedOutModules) JSON.parse(signedOutModules.textContent).forEach(preload);
  import(entry);
};
// When the app starts (#root's data-app-start, written by the prerender): \`now\`, once the page
// has painted (its content needs the app: a list it fetches); \`use\`, when the visitor first
// reaches for the page (a touch, a key, a field) or, failing that, once the page has loaded and
// the phone has been idle a while: the HTML already shows what the app would draw, its links
// and forms work (what is typed or tapped meanwhile is kept), so nothing runs before it is needed.
// A signed-in visitor on a page rendered signed out needs the app's own page at once.
if (onUse) {
  for (const type of INTENT) addEventListener(type, start, { capture: true, passive: true });
  const whenIdle = () =>
    setTimeout(() => {
      if (window.requestIdleCallback) requestIdleCallback(start, { timeout: 2000 });
      else start();
    }, IDLE_START_MS);
  if (document.readyState === 'complete') whenIdle();
  else addEventListener('load', whenIdle, { once: true });
} else {
  requestAnimationFrame(() => setTimeout(start, 0));
  // A tab opened in the background paints no frame until it is shown.
  setTimeout(start, 1000);
}
// A visitor already in a field (or done typing in one) before this script ran needs the app now.
if (early.values.length > 0 || early.focused >= 0) start();
`;

/**
 * The wall's list (its loading skeleton) between the markers the server replaces with the first
 * page of cards (apps/server/src/modules/wall/wall-page.ts WALL_LIST_MARKERS).
 */
function markWallList(body: string): string {
  const skeleton = /<div aria-busy="true">[\s\S]*?<\/ul><\/div>/g;
  if (body.match(skeleton)?.length !== 1) throw new Error('prerender: the wall has no one list');
  return body.replace(skeleton, (list) => `<!--wall-list-->${list}<!--/wall-list-->`);
}

/** The loader as a hashed asset (cached like the others); its address. */
async function writeAppLoader(): Promise<string> {
  // Minified as the app's own chunks are: its comments are for whoever reads this file.
  const { code } = await transformWithEsbuild(APP_LOADER, 'app-loader.js', {
    minify: true,
    format: 'esm',
    target: 'es2020',
  });
  const hash = createHash('sha256').update(code).digest('base64url').slice(0, 8);
  const file = `assets/app-loader-${hash}.js`;
  writeFileSync(path.join(dist, file), code);
  return `/${file}`;
}

const ENTRY_SCRIPT = /<script type="module" crossorigin src="(\/[^"]+\.js)"><\/script>\s*/;
const MODULEPRELOAD = /<link rel="modulepreload" crossorigin href="(\/[^"]+\.js)">\s*/g;

/**
 * A hydrated page starts the app through the loader, after its first paint; `signedOutScripts`
 * are what the loader fetches besides for a browser with no stored session. On a page whose app
 * starts on use the loader is fetched at low priority: nothing of the first paint waits for it (a
 * module script never blocks rendering), so it does not share a slow line with the page's image,
 * and Lighthouse's simulation, which counts any high-priority script that arrived before the
 * first paint as blocking it, no longer puts a second round trip on the first paint's path.
 */
function loadAfterPaint(
  html: string,
  routeModules: string[],
  loader: string,
  signedOutScripts?: string[],
  lowPriority = false,
): string {
  const entryScript = ENTRY_SCRIPT.exec(html);
  if (!entryScript) throw new Error('prerender: index.html has no entry script');
  const modules = [entryScript[1]!];
  const rest = html.replace(entryScript[0], '').replace(MODULEPRELOAD, (_, href: string) => {
    modules.push(href);
    return '';
  });
  modules.push(...routeModules.filter((href) => !modules.includes(href)));
  return rest.replace(
    '</head>',
    `<script type="application/json" id="app-modules">${JSON.stringify(modules)}</script>` +
      (signedOutScripts
        ? `<script type="application/json" id="app-modules-signed-out">${JSON.stringify(
            signedOutScripts.filter((href) => !modules.includes(href)),
          )}</script>`
        : '') +
      `<script type="module" crossorigin src="${loader}"${
        lowPriority ? ' fetchpriority="low"' : ''
      }></script></head>`,
  );
}

async function prerender(): Promise<void> {
  // Inside the package, so Node finds the libraries the build leaves external (one React).
  const ssrDir = path.join(webRoot, 'node_modules/.prerender');
  try {
    await build({
      root: webRoot,
      configFile: path.join(webRoot, 'vite.config.ts'),
      logLevel: 'warn',
      build: {
        ssr: 'src/entry-prerender.tsx',
        outDir: ssrDir,
        emptyOutDir: true,
        manifest: false,
        copyPublicDir: false,
        rollupOptions: { output: { entryFileNames: 'entry-prerender.mjs' } },
      },
    });
    const entry = (await import(
      pathToFileURL(path.join(ssrDir, 'entry-prerender.mjs')).href
    )) as PrerenderEntry;
    entry.configure(PLACEHOLDERS);

    const manifest = JSON.parse(
      readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'),
    ) as Record<string, ManifestChunk>;
    const entryKey = Object.keys(manifest).find((key) => manifest[key]!.isEntry)!;
    const inShell = chunkFiles(manifest, entryKey);
    const shell = readFileSync(path.join(dist, 'index.html'), 'utf8');
    if (!shell.includes('<div id="root"></div>') || !/<title>[^<]*<\/title>/.test(shell)) {
      throw new Error('prerender: index.html has no empty #root or no <title>');
    }

    const loader = await writeAppLoader();
    mkdirSync(path.join(dist, PRERENDERED_DIR), { recursive: true });
    const pages: { path: string; file: string }[] = [];
    const written = new Map<string, string>();
    let boothFrame:
      { file: string; paths: string[]; placeholders: typeof BOOTH_PLACEHOLDERS } | undefined;
    for (const page of PAGES) {
      const rendered =
        page.mode === 'hydrate' || page.mode === 'wall'
          ? await entry.renderPage(page.url)
          : page.mode === 'booth'
            ? await entry.renderBoothPage(page.url, BOOTH_PLACEHOLDERS)
            : await entry.renderBoothFrame(page.url);
      // React puts the page's <title> (and any other head element) first: move it to the head.
      const hoisted = /^(?:<(?:title|meta|link)\b[^>]*>(?:[^<]*<\/title>)?)*/.exec(rendered)![0];
      const body =
        page.mode === 'wall'
          ? markWallList(rendered.slice(hoisted.length))
          : rendered.slice(hoisted.length);
      const title = /<title>[^<]*<\/title>/.exec(hoisted)?.[0];
      const { scripts, styles } = chunkFiles(manifest, page.module);
      const routeStyles = [...styles].filter((file) => !inShell.styles.has(file));
      const routeModules = [...scripts].filter((file) => !inShell.scripts.has(file));
      const signedOut = page.signedOut && (await signedOutPage(entry, page.signedOut.url));
      const next = page.signedOut && chunkFiles(manifest, page.signedOut.module);
      const signedOutStyles = next
        ? [...next.styles].filter((f) => !inShell.styles.has(f) && !routeStyles.includes(f))
        : [];
      const signedOutScripts = next
        ? [...next.scripts].filter((f) => !inShell.scripts.has(f)).map((f) => `/${f}`)
        : undefined;
      const withRoute = shell
        .replace(
          '<div id="root"></div>',
          `<div id="root" data-prerendered="${page.mode}"${
            page.start ? ` data-app-start="${page.start}"` : ''
          }>${body}</div>${signedOut ?? ''}`,
        )
        .replace(
          '</head>',
          hoisted.replace(/<title>[^<]*<\/title>/, '') +
            [...routeStyles, ...signedOutStyles]
              .map((file) => `<link rel="stylesheet" crossorigin href="/${file}">`)
              .join('') +
            routeModules
              .map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`)
              .join('') +
            '</head>',
        );
      let html = inlineStyles(
        // The booth page, like the hydrated ones, reads from its HTML: its scripts wait for the
        // first paint rather than share the line with it.
        page.mode !== 'frame'
          ? loadAfterPaint(
              withRoute,
              routeModules.map((file) => `/${file}`),
              loader,
              signedOutScripts,
              page.start === 'use',
            )
          : withRoute,
      );
      if (title) html = html.replace(/<title>[^<]*<\/title>/, title);
      if (!html.includes(body)) throw new Error(`prerender: ${page.url} did not fit the shell`);

      // Pages that render alike (the booth frame's two addresses) share one file.
      let file = written.get(html);
      if (!file) {
        const name = page.path === '/' ? 'index' : page.path.slice(1).replace(/[/:]+/g, '-');
        file = `${PRERENDERED_DIR}/${name}.html`;
        writeFileSync(path.join(dist, file), html);
        written.set(html, file);
      }
      if (page.mode === 'booth') {
        if (!Object.values(BOOTH_PLACEHOLDERS).every((value) => html.includes(value))) {
          throw new Error('prerender: the booth page does not show the booth placeholders');
        }
        boothFrame = { file, paths: BOOTH_PATHS, placeholders: BOOTH_PLACEHOLDERS };
      } else {
        pages.push({ path: page.path, file });
      }
      console.log(
        `prerendered ${page.path.padEnd(32)} ${file} (${(html.length / 1024).toFixed(1)} KB)`,
      );
    }
    writeFileSync(
      path.join(dist, 'prerendered.json'),
      `${JSON.stringify({ placeholders: PLACEHOLDERS, pages, boothFrame }, null, 2)}\n`,
    );
    // The server replaces each placeholder whole or in halves at the `@` (an address may be
    // shown broken there): anything else left over would reach visitors as it is.
    const parts = Object.values(PLACEHOLDERS).flatMap((value) => value.split('@'));
    for (const file of written.values()) {
      const rest = parts.reduce(
        (text, part) => text.replaceAll(part, ''),
        readFileSync(path.join(dist, file), 'utf8'),
      );
      const stray = /fb-[\w.-]*invalid/.exec(rest);
      if (stray) throw new Error(`prerender: ${file} holds a placeholder in pieces: ${stray[0]}`);
    }
  } finally {
    rmSync(ssrDir, { recursive: true, force: true });
  }
}

const COMPRESSIBLE = /\.(?:js|mjs|css|svg|html|json|txt|xml|webmanifest)$/;

/** Files the server fills in before sending (it compresses those itself, once). */
const isTemplate = (relative: string) =>
  relative === 'index.html' ||
  relative === 'prerendered.json' ||
  relative.startsWith(`${PRERENDERED_DIR}/`) ||
  relative.startsWith('.vite/');

function compressAll(): void {
  let files = 0;
  let raw = 0;
  let brotli = 0;
  for (const entry of readdirSync(dist, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !COMPRESSIBLE.test(entry.name)) continue;
    const file = path.join(entry.parentPath, entry.name);
    if (isTemplate(path.relative(dist, file).split(path.sep).join('/'))) continue;
    const bytes = readFileSync(file);
    const br = brotliCompressSync(bytes, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
        [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    });
    const gz = gzipSync(bytes, { level: 9 });
    // A copy no smaller than the file is not worth a Content-Encoding (the server sends the file).
    if (br.length < bytes.length) writeFileSync(`${file}.br`, br);
    if (gz.length < bytes.length) writeFileSync(`${file}.gz`, gz);
    files += 1;
    raw += bytes.length;
    brotli += Math.min(br.length, bytes.length);
  }
  console.log(
    `compressed ${files} files: ${(raw / 1024).toFixed(1)} KB → ${(brotli / 1024).toFixed(1)} KB Brotli`,
  );
}

await prerender();
compressAll();
