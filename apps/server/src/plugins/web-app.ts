import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { WallPage } from '@flashbooth/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import type { BoothPageData } from '../modules/templates/booth-page-source.js';
import { escapeHtml, scriptSafeJson } from '../lib/html.js';
import { openableFromOutside } from '../lib/opener-policy.js';
import {
  fillWallPage,
  unfilledWallPage,
  WALL_LIST_MARKERS,
  WallPageCache,
} from '../modules/wall/wall-page.js';

/** Files with build-time Brotli and gzip copies (apps/web/scripts/prerender.ts). */
const PRECOMPRESSED = /\.(?:js|mjs|css|svg|html|json|txt|xml|webmanifest)(?:\.br|\.gz)?$/;

type Encoding = 'br' | 'gzip' | 'identity';

/** The best of Brotli, gzip and none that the client accepts (RFC 9110 §12.5.3, q-values). */
function negotiateEncoding(header: string | undefined): Encoding {
  if (!header) return 'identity';
  const quality = new Map<string, number>();
  for (const part of header.toLowerCase().split(',')) {
    const [token, ...params] = part.trim().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
    if (token) quality.set(token.trim(), q === undefined ? 1 : Number(q));
  }
  const accepts = (encoding: string) => (quality.get(encoding) ?? quality.get('*') ?? 0) > 0;
  if (accepts('br')) return 'br';
  if (accepts('gzip')) return 'gzip';
  return 'identity';
}

/**
 * An HTML page filled in once at start (runtime settings), compressed on first use per
 * encoding and kept, so a page costs no compression work per request.
 */
class HtmlPage {
  private readonly bodies = new Map<Encoding, Buffer>();
  private readonly hash: string;

  /**
   * `entry`: a page a visitor opens from outside the app (a prerendered visitor page, a booth
   * page, the wall), sent without the opener policy (lib/opener-policy.ts); the app's shell
   * keeps it. `brotliQuality`: 11 for a page made once; less for one rendered again and again.
   */
  constructor(
    html: string,
    private readonly entry = false,
    private readonly brotliQuality: number = constants.BROTLI_MAX_QUALITY,
  ) {
    const body = Buffer.from(html);
    this.bodies.set('identity', body);
    this.hash = createHash('sha256').update(body).digest('base64url').slice(0, 22);
  }

  body(encoding: Encoding): Buffer {
    let body = this.bodies.get(encoding);
    if (!body) {
      const identity = this.bodies.get('identity')!;
      body =
        encoding === 'br'
          ? brotliCompressSync(identity, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: this.brotliQuality,
                [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
                [constants.BROTLI_PARAM_SIZE_HINT]: identity.length,
              },
            })
          : gzipSync(identity, { level: 9 });
      this.bodies.set(encoding, body);
    }
    return body;
  }

  /** One strong validator per representation (each encoding is a different byte sequence). */
  etag(encoding: Encoding): string {
    return `"${this.hash}${encoding === 'identity' ? '' : `-${encoding}`}"`;
  }

  send(
    request: FastifyRequest,
    reply: FastifyReply,
    options: { cacheControl?: string; status?: number } = {},
  ): FastifyReply {
    if (this.entry) openableFromOutside(reply);
    const encoding = negotiateEncoding(request.headers['accept-encoding']);
    const etag = this.etag(encoding);
    reply
      .code(options.status ?? 200)
      .type('text/html; charset=utf-8')
      .header('Cache-Control', options.cacheControl ?? 'no-cache')
      .header('Vary', 'Accept-Encoding')
      .header('ETag', etag);
    const ifNoneMatch = request.headers['if-none-match'];
    if (ifNoneMatch?.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag)) {
      return reply.code(304).send();
    }
    if (encoding !== 'identity') reply.header('Content-Encoding', encoding);
    return reply.send(this.body(encoding));
  }
}

/** What the build's prerender wrote (apps/web/scripts/prerender.ts). */
interface PrerenderManifest {
  /** What the pages hold in place of the installation's settings. */
  placeholders: { supportEmail: string; partnershipEmail: string; demoFormUrl: string };
  /** A route path (Fastify syntax) and the page answering it, relative to the build folder. */
  pages: { path: string; file: string }[];
  /**
   * The booth page with its location dialog open, rendered with placeholders for the booth's
   * name and venue, which the server fills in per booth (the routes listed stay answered by
   * their page in `pages` when the booth is unknown).
   */
  boothFrame?: { file: string; paths: string[]; placeholders: BoothPlaceholders };
}

interface BoothPlaceholders {
  deviceName: string;
  orgName: string;
}

interface RuntimeConfig {
  supportEmail: string;
  partnershipEmail: string;
  demoFormUrl: string;
  allowTimingScale: boolean;
  /** PUBLIC_URL, for addresses the app prints (the booth's QR poster); absent when not set. */
  publicUrl?: string;
  /**
   * The passkeys' relying party: the app offers passkeys only on an origin listed here under
   * this id, where the browser would otherwise refuse them (e.g. 127.0.0.1 for `localhost`).
   */
  passkeys: { rpId: string; origins: string[] };
}

/**
 * The installation's settings in a page: for the script (`<!--app-config-->`) and in place of
 * the placeholders the prerender rendered. An address is replaced in two halves, as the page
 * may show it broken after the `@`.
 */
function fillIn(
  html: string,
  config: RuntimeConfig,
  placeholders?: PrerenderManifest['placeholders'],
): string {
  let filled = html;
  if (placeholders) {
    for (const key of ['supportEmail', 'partnershipEmail'] as const) {
      const placeholder = placeholders[key];
      const value = config[key];
      const [pLocal, pDomain] = [placeholder.split('@')[0]!, placeholder.split('@')[1]!];
      const at = value.indexOf('@');
      filled = filled
        .replaceAll(pLocal, escapeHtml(value.slice(0, at)))
        .replaceAll(pDomain, escapeHtml(value.slice(at + 1)));
    }
    filled = filled.replaceAll(placeholders.demoFormUrl, escapeHtml(config.demoFormUrl));
  }
  return filled.replace(
    '<!--app-config-->',
    `<script id="app-config" type="application/json">${scriptSafeJson(config)}</script>`,
  );
}

/** The id in a booth page's address, or null when it is not a database id. */
export function boothIdOf(param: string): number | null {
  if (!/^[1-9]\d{0,9}$/.test(param)) return null;
  const id = Number(param);
  return id <= 2_147_483_647 ? id : null;
}

/**
 * One booth's page: the frame with its name and venue in place of the placeholders (as the
 * location dialog shows them: a booth without a venue shows a dash) and, for the app, the booth
 * and its first templates as JSON (`#booth-data`), so the page reads from the HTML alone and the
 * app starts with no request for them. Every value is escaped for where it stands.
 */
export function fillBoothFrame(
  html: string,
  placeholders: BoothPlaceholders,
  data: BoothPageData,
  renderedAt: number,
): string {
  const inlined = scriptSafeJson({
    device_id: data.device.id,
    rendered_at: renderedAt,
    device: data.device,
    templates: data.templates,
  });
  return html
    .replaceAll(placeholders.deviceName, escapeHtml(data.device.name))
    .replaceAll(placeholders.orgName, escapeHtml(data.device.org_name ?? '—'))
    .replace(
      '</head>',
      `<script type="application/json" id="booth-data">${inlined}</script></head>`,
    );
}

/** Where the booth pages' content comes from (BoothPageSource). */
export interface BoothPages {
  boothPage(deviceId: number): Promise<BoothPageData | undefined>;
}

/**
 * Where the wall page's cards come from: the first page as a signed-out visitor reads it
 * (WallService.list without a caller), and the version of the wall's page cache (undefined
 * while it keeps nothing), which says when the page may have changed.
 */
export interface WallPages {
  firstPage(): Promise<WallPage>;
  version(): number | undefined;
}

/** The public wall's address (prerendered with its list between markers the server fills). */
export const WALL_PAGE_PATH = '/regular/wall';
/**
 * Brotli quality of the filled wall page: it is rendered again whenever the wall changes (at
 * most every few seconds), so it is compressed fast (about 1 ms here) rather than smallest.
 */
const WALL_PAGE_BROTLI_QUALITY = 6;

/** How long a booth's rendered page is reused, here and in caches on the way. */
export const BOOTH_PAGE_TTL_SECONDS = 30;
/** Booth pages kept at most (the least recently rendered go first). */
const BOOTH_PAGE_CACHE_SIZE = 500;

/**
 * Booth pages rendered per booth and kept for BOOTH_PAGE_TTL_SECONDS: a crowd scanning one
 * booth's QR code costs one database read and one compression per half minute. Concurrent
 * requests for one booth share its rendering.
 */
class BoothPageCache {
  private readonly entries = new Map<number, { expires: number; page: Promise<HtmlPage | null> }>();

  constructor(
    private readonly render: (deviceId: number) => Promise<HtmlPage | null>,
    private readonly now: () => number = Date.now,
  ) {}

  get(deviceId: number): Promise<HtmlPage | null> {
    const now = this.now();
    const cached = this.entries.get(deviceId);
    if (cached && cached.expires > now) return cached.page;
    this.entries.delete(deviceId);
    if (this.entries.size >= BOOTH_PAGE_CACHE_SIZE) {
      this.entries.delete(this.entries.keys().next().value!);
    }
    const page = this.render(deviceId);
    this.entries.set(deviceId, { expires: now + BOOTH_PAGE_TTL_SECONDS * 1000, page });
    // A failure is not kept: the next request tries again.
    page.catch(() => this.entries.delete(deviceId));
    return page;
  }
}

/**
 * Serves the built web app. Hashed files under /assets are cached for a year as immutable;
 * everything else is revalidated. Text files go as their build-time Brotli or gzip copy when the
 * client accepts one. index.html (the app for every client-side route) and the prerendered pages
 * (the landing, the legal pages, the booth page's frame) get the runtime settings at start.
 * API paths get JSON 404s.
 */
export async function registerWebApp(
  app: FastifyInstance,
  config: Config,
  options: { booths?: BoothPages; wall?: WallPages } = {},
): Promise<void> {
  const dist = config.web.distDir;
  const indexFile = path.join(dist, 'index.html');
  const built = existsSync(indexFile);
  if (!built) app.log.warn({ distDir: dist }, 'web app not built: run `npm run build`');

  const runtimeConfig: RuntimeConfig = {
    supportEmail: config.web.supportEmail,
    partnershipEmail: config.web.partnershipEmail,
    demoFormUrl: config.web.demoFormUrl,
    allowTimingScale: !config.isProduction,
    ...(config.publicUrl ? { publicUrl: config.publicUrl } : {}),
    passkeys: { rpId: config.webauthn.rpId, origins: config.webauthn.origins },
  };
  const manifestFile = path.join(dist, 'prerendered.json');
  const manifest: PrerenderManifest | undefined = existsSync(manifestFile)
    ? (JSON.parse(readFileSync(manifestFile, 'utf8')) as PrerenderManifest)
    : undefined;

  const indexPage = new HtmlPage(
    built
      ? fillIn(readFileSync(indexFile, 'utf8'), runtimeConfig)
      : '<!doctype html><title>Flashbooth</title><p>The web app is not built yet. Run <code>npm run build</code>.</p>',
  );

  if (built) {
    await app.register(fastifyStatic, {
      root: dist,
      index: false,
      wildcard: false,
      // The compressed copies are sent in place of their file, never under their own names; the
      // HTML templates only after filling in (below).
      globIgnore: ['**/*.br', '**/*.gz', 'index.html', 'prerendered.json', 'prerendered/**'],
      preCompressed: true,
      // Our setHeaders decides caching; the plugin's own header would override it.
      cacheControl: false,
      setHeaders: (res, filePath) => {
        // Hashed bundles never change; everything else is revalidated.
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
        } else {
          res.setHeader('Cache-Control', 'no-cache');
        }
        if (PRECOMPRESSED.test(filePath)) res.setHeader('Vary', 'Accept-Encoding');
      },
    });

    // The booth page filled per booth, when the build has its frame and the app its source.
    const boothFrameFile = manifest?.boothFrame && path.join(dist, manifest.boothFrame.file);
    const boothFrame =
      manifest?.boothFrame && options.booths && boothFrameFile && existsSync(boothFrameFile)
        ? (() => {
            const { placeholders, paths } = manifest.boothFrame;
            const template = fillIn(
              readFileSync(boothFrameFile, 'utf8'),
              runtimeConfig,
              manifest.placeholders,
            );
            const source = options.booths;
            return {
              paths,
              pages: new BoothPageCache(async (deviceId) => {
                const data = await source.boothPage(deviceId);
                return data
                  ? new HtmlPage(fillBoothFrame(template, placeholders, data, Date.now()), true)
                  : null;
              }),
            };
          })()
        : undefined;

    // Addresses that render alike (`/` and `/brochure`) share one page.
    const pages = new Map<string, HtmlPage>();
    for (const { path: route, file } of manifest?.pages ?? []) {
      let page = pages.get(file);
      if (!page) {
        const filePath = path.join(dist, file);
        if (!existsSync(filePath)) {
          // A half-written build: the app's own shell still answers this address.
          app.log.warn({ file: filePath }, 'prerendered page missing: serving the app shell');
          continue;
        }
        page = new HtmlPage(
          fillIn(readFileSync(filePath, 'utf8'), runtimeConfig, manifest!.placeholders),
          true,
        );
        pages.set(file, page);
      }
      const html = page;
      // The wall with its first page of cards (modules/wall/wall-page.ts), rendered again when
      // the wall changes; the skeleton with the app started at once when it cannot be read.
      const wallTemplate =
        route === WALL_PAGE_PATH
          ? fillIn(
              readFileSync(path.join(dist, file), 'utf8'),
              runtimeConfig,
              manifest!.placeholders,
            )
          : undefined;
      if (wallTemplate !== undefined && WALL_LIST_MARKERS.test(wallTemplate)) {
        const unfilled = new HtmlPage(unfilledWallPage(wallTemplate), true);
        const source = options.wall;
        const wallPages =
          source &&
          new WallPageCache(
            async () =>
              new HtmlPage(
                fillWallPage(wallTemplate, await source.firstPage(), Date.now()),
                true,
                WALL_PAGE_BROTLI_QUALITY,
              ),
            () => source.version(),
          );
        app.get(route, { schema: { hide: true } }, async (request, reply) => {
          if (!wallPages) return unfilled.send(request, reply);
          let filled: HtmlPage;
          try {
            filled = await wallPages.get();
          } catch (error) {
            request.log.error({ err: error }, 'wall page: could not read the wall');
            return unfilled.send(request, reply);
          }
          return filled.send(request, reply);
        });
        continue;
      }
      if (boothFrame?.paths.includes(route)) {
        app.get<{ Params: { deviceId: string } }>(
          route,
          { schema: { hide: true } },
          async (request, reply) => {
            const deviceId = boothIdOf(request.params.deviceId);
            let filled: HtmlPage | null = null;
            try {
              filled = deviceId === null ? null : await boothFrame.pages.get(deviceId);
            } catch (error) {
              // The app loads the booth itself (and says what went wrong if it cannot).
              request.log.error({ err: error, deviceId }, 'booth page: could not read the booth');
              return html.send(request, reply);
            }
            // An unknown booth: the frame, whose app shows the not-found panel.
            if (!filled) return html.send(request, reply, { status: 404 });
            return filled.send(request, reply, {
              cacheControl: `public, max-age=${BOOTH_PAGE_TTL_SECONDS}`,
            });
          },
        );
        continue;
      }
      app.get(route, { schema: { hide: true } }, (request, reply) => html.send(request, reply));
    }
  }

  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith('/api/') || request.url === '/api' || request.method !== 'GET') {
      return reply.status(404).send({ message: 'Not found.', code: 'not_found' });
    }
    return indexPage.send(request, reply);
  });
}
