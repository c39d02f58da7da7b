/**
 * The web app's initial JavaScript per visitor route, read from the build's manifest: the entry
 * chunk, the route's lazily loaded module and their static imports. Sizes raw, gzip -9 and
 * Brotli (quality 11, as the build writes the `.br` copies the server sends).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

interface ManifestChunk {
  file: string;
  imports?: string[];
  isEntry?: boolean;
}

export interface RouteSize {
  route: string;
  raw: number;
  gzip: number;
  brotli: number;
}

export const VISITOR_ROUTES: [route: string, manifestKey: string][] = [
  ['/ (landing)', 'src/app/routes/landing.tsx'],
  ['/b/{id} (booth)', 'src/app/routes/regular/booth.tsx'],
  ['/regular/login', 'src/app/routes/regular/login.tsx'],
  ['/regular/media', 'src/app/routes/regular/media.tsx'],
  ['/regular/wall', 'src/app/routes/regular/wall.tsx'],
  ['/regular/profile', 'src/app/routes/regular/profile.tsx'],
  ['/privacy-policy', 'src/app/routes/legal-privacy.tsx'],
];

export function webSizes(
  dist = path.resolve(import.meta.dirname, '../apps/web/dist'),
): RouteSize[] {
  const manifest = JSON.parse(
    readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'),
  ) as Record<string, ManifestChunk>;
  const sizes = new Map<string, Omit<RouteSize, 'route'>>();
  const sizeOf = (file: string) => {
    let size = sizes.get(file);
    if (!size) {
      const bytes = readFileSync(path.join(dist, file));
      const br = path.join(dist, `${file}.br`);
      size = {
        raw: bytes.length,
        gzip: gzipSync(bytes, { level: 9 }).length,
        brotli: existsSync(br)
          ? readFileSync(br).length
          : brotliCompressSync(bytes, {
              params: { [constants.BROTLI_PARAM_QUALITY]: 11 },
            }).length,
      };
      sizes.set(file, size);
    }
    return size;
  };
  const collect = (key: string, seen: Set<string>) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const dep of manifest[key]?.imports ?? []) collect(dep, seen);
  };
  const entryKey = Object.keys(manifest).find((key) => manifest[key]!.isEntry)!;
  const entry = { route: 'entry chunk alone', ...sizeOf(manifest[entryKey]!.file) };
  return [
    entry,
    ...VISITOR_ROUTES.map(([route, key]) => {
      const seen = new Set<string>();
      collect(entryKey, seen);
      if (manifest[key]) collect(key, seen);
      const total = { route, raw: 0, gzip: 0, brotli: 0 };
      for (const k of seen) {
        const size = sizeOf(manifest[k]!.file);
        total.raw += size.raw;
        total.gzip += size.gzip;
        total.brotli += size.brotli;
      }
      return total;
    }),
  ];
}

/** The aim for the script a visitor page loads before its first interaction (issue 41). */
export const FIRST_INTERACTION_AIM_BYTES = 60 * 1024;

export interface FirstInteractionSize {
  page: string;
  /** Brotli bytes of every script the page runs before the visitor's first touch, key or field. */
  brotli: number;
  files: string[];
}

const brotliOf = (bytes: Buffer) =>
  brotliCompressSync(bytes, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 11,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    },
  }).length;

/**
 * The script each visitor page loads before the first interaction, read from the pages the build
 * wrote (apps/web/scripts/prerender.ts) as the server sends them: the page's own script tags and
 * module preloads, and, where the page's loader starts the app at once (`data-app-start="now"`,
 * or a page that is the app's shell), the modules it loads and their static imports. A page that
 * starts the app on use (`use`) loads only its loader until then. The share page is the server's
 * (`/p/share.js`, `shareScript`).
 */
export function scriptBeforeFirstInteraction(
  shareScript: string,
  dist = path.resolve(import.meta.dirname, '../apps/web/dist'),
): FirstInteractionSize[] {
  const manifest = JSON.parse(
    readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'),
  ) as Record<string, ManifestChunk>;
  const byFile = new Map(Object.values(manifest).map((chunk) => [chunk.file, chunk]));
  const prerendered = JSON.parse(readFileSync(path.join(dist, 'prerendered.json'), 'utf8')) as {
    pages: { path: string; file: string }[];
    boothFrame?: { file: string };
  };
  const fileOf = (route: string) => {
    const page = prerendered.pages.find((p) => p.path === route);
    return page ? page.file : 'index.html';
  };
  const sizeOfFile = (file: string) => {
    const br = path.join(dist, `${file}.br`);
    return existsSync(br) ? readFileSync(br).length : brotliOf(readFileSync(path.join(dist, file)));
  };
  const measure = (page: string, htmlFile: string): FirstInteractionSize => {
    const html = readFileSync(path.join(dist, htmlFile), 'utf8');
    const files = new Set<string>();
    const add = (href: string) => {
      const file = href.replace(/^\//, '');
      if (files.has(file)) return;
      files.add(file);
      // A module's static imports load with it.
      for (const key of byFile.get(file)?.imports ?? []) add(manifest[key]!.file);
    };
    for (const [, src] of html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"/g)) add(src!);
    for (const [, href] of html.matchAll(/<link rel="modulepreload"[^>]*\bhref="([^"]+)"/g)) {
      add(href!);
    }
    const start = /<div id="root"[^>]*\bdata-app-start="(\w+)"/.exec(html)?.[1];
    const modules = /<script type="application\/json" id="app-modules">([^<]*)<\/script>/.exec(
      html,
    )?.[1];
    if (modules && start !== 'use') for (const href of JSON.parse(modules) as string[]) add(href);
    let brotli = 0;
    for (const file of files) brotli += sizeOfFile(file);
    return { page, brotli, files: [...files] };
  };
  const booth = prerendered.boothFrame?.file ?? fileOf('/b/:deviceId');
  return [
    measure('/ (landing)', fileOf('/')),
    // The same page for both: the loader shows the sign-in screen it carries to a signed-out
    // visitor, and starts the app on use for both.
    measure('/b/{id} signed out', booth),
    measure('/b/{id} signed in', booth),
    measure('/regular/login', fileOf('/regular/login')),
    measure('/regular/wall signed out', fileOf('/regular/wall')),
    {
      page: '/p/{id} (share page)',
      brotli: brotliOf(Buffer.from(shareScript)),
      files: ['/p/share.js'],
    },
  ];
}
