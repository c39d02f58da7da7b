/**
 * Lighthouse (mobile preset: simulated slow 4G and 4× CPU slowdown) on the visitor pages, with
 * Debian's Chromium: `/`, the booth page `/b/1` signed in and signed out (the page a QR code
 * opens: the server's HTML shows the booth, then the app asks a signed-out visitor to sign in),
 * `/regular/login`, My Media of a signed-in
 * visitor and the share page `/p/{public_id}` of that visitor's photo (made public), signed out,
 * BENCH_LIGHTHOUSE_RUNS (3) runs each, printing the medians (docs/benchmarks.md).
 *
 * The server is `npm start`'s (built web app, demo data, the two simulated booths) started as a
 * child process on a free loopback port with a fresh data folder, or BENCH_URL when given (a
 * server with the development SMS outbox and demo data). The signed-in pages use one visitor
 * who has captured a photo at the demo booth; each run gets its own session (refresh cookie and
 * stored user), set before Lighthouse loads the page in a fresh browser profile.
 * Usage: npm run build && npm run bench:lighthouse
 * (WEB_DIST_DIR serves and sizes another build folder; BENCH_PAGES=/,/b/1,/p measures only those; BENCH_VERBOSE=1 prints every run, the audits below
 * full marks and the largest contentful paint element.)
 */
import path from 'node:path';
import lighthouse from 'lighthouse';
import puppeteer, { type Browser } from 'puppeteer-core';
import { startServer, waitFor } from './app-process.js';
import { webSizes } from './web-sizes.js';

const RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// The flags that work on this machine (no sandbox, no GPU, no background traffic).
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

interface Session {
  /** The refresh cookie as set by verify. */
  cookie: { name: string; value: string; path: string };
  /** The user record the web app keeps in local storage (`user`). */
  user: unknown;
}

interface Page {
  label: string;
  path: string;
  signedIn: boolean;
}

const PAGES: Page[] = [
  { label: '/ (landing)', path: '/', signedIn: false },
  { label: '/b/1 (booth, signed in)', path: '/b/1', signedIn: true },
  { label: '/b/1 (booth, signed out)', path: '/b/1', signedIn: false },
  { label: '/regular/login', path: '/regular/login', signedIn: false },
  { label: '/regular/media (signed in)', path: '/regular/media', signedIn: true },
];

interface Figures {
  performance: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
  fcp: number;
  lcp: number;
  tbt: number;
  cls: number;
  bytes: number;
  /** Audits below full marks outside performance, and the largest contentful paint element. */
  notes: string[];
}

async function json<T>(response: Response): Promise<T> {
  if (!response.ok) throw new Error(`${response.url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** Signs a visitor in through the API (code from the development SMS outbox). */
async function signIn(base: string, phone: string): Promise<Session & { token: string }> {
  const post = (url: string, body: unknown) =>
    fetch(`${base}/api/regular/auth/${url}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const sent = await post('sign-in', { phone });
  if (sent.status === 404) {
    await json(await post('sign-up', { phone, name: 'Bench Visitor' }));
    await json(await post('sign-in', { phone }));
  } else {
    await json(sent);
  }
  const { items } = await json<{ items: { code: string }[] }>(
    await fetch(`${base}/api/dev/sms?phone=${encodeURIComponent(phone)}`),
  );
  const verified = await post('verify', { phone, code: items[0]!.code });
  const body = await json<{ access_token: string; user: unknown }>(verified);
  const setCookie = verified.headers.getSetCookie()[0]!;
  const [pair, ...attributes] = setCookie.split(';').map((part) => part.trim());
  const [name, ...value] = pair!.split('=');
  const cookiePath = attributes.find((a) => a.toLowerCase().startsWith('path='))?.slice(5) ?? '/';
  return {
    token: body.access_token,
    user: body.user,
    cookie: { name: name!, value: value.join('='), path: cookiePath },
  };
}

/** One capture at the free demo booth (device 1), waited for until the photo is uploaded. */
async function captureAtDemoBooth(base: string, token: string): Promise<number[]> {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const { items } = await json<{ items: { id: number; name: string }[] }>(
    await fetch(`${base}/api/regular/devices/1/templates?limit=9`, { headers }),
  );
  // The one-photo layout, so the booth's countdown runs once.
  const template = items.find((t) => t.name === 'Golden Hour') ?? items[0]!;
  const { media_ids } = await waitFor('the demo booth to accept a capture', async () => {
    const response = await fetch(`${base}/api/regular/devices/1/capture`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ template_id: template.id }),
    });
    return response.ok ? ((await response.json()) as { media_ids: number[] }) : undefined;
  });
  await waitFor(
    'the capture to upload',
    async () => {
      const { media_items } = await json<{ media_items: { is_uploaded: boolean }[] }>(
        await fetch(`${base}/api/regular/media/uploaded?media_ids=${media_ids.join(',')}`, {
          headers,
        }),
      );
      return media_items.every((item) => item.is_uploaded) ? true : undefined;
    },
    120_000,
  );
  return media_ids;
}

/**
 * Makes the visitor's photo public and answers its share page's address (`/p/{public_id}`, My
 * Media's `share_path`). Its share image is made on the first request: one request here, so every
 * measured run finds it in the object store, as every visitor after the first does.
 */
async function sharePageOf(base: string, token: string, mediaId: number): Promise<string> {
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  await json(
    await fetch(`${base}/api/regular/media/${mediaId}`, {
      method: 'PATCH',
      headers,
      body: JSON.stringify({ is_public: true }),
    }),
  );
  const { items } = await json<{ items: { id: number; share_path: string | null }[] }>(
    await fetch(`${base}/api/regular/media?limit=10`, { headers }),
  );
  const sharePath = items.find((item) => item.id === mediaId)?.share_path;
  if (!sharePath) throw new Error(`media ${mediaId} has no share page once public`);
  await fetch(`${base}${sharePath}`).then((response) => response.text());
  for (const width of ['600', '1200']) {
    await fetch(`${base}${sharePath}/image.jpg?w=${width}`).then((response) => response.blob());
  }
  return sharePath;
}

async function launch(): Promise<Browser> {
  return puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS.filter((flag) => flag !== '--headless'),
    defaultViewport: null,
  });
}

async function measure(base: string, page: Page, session?: Session): Promise<Figures> {
  const browser = await launch();
  try {
    const tab = await browser.newPage();
    if (session) {
      // A fresh profile: the session is the only state, set on a page that loads no app code.
      await browser.setCookie({
        name: session.cookie.name,
        value: session.cookie.value,
        path: session.cookie.path,
        domain: new URL(base).hostname,
        httpOnly: true,
        sameSite: 'Strict',
      });
      await tab.goto(`${base}/api/health`);
      // (Runs in the page; this file is compiled without the DOM's types.)
      await tab.evaluate((user) => {
        const page = globalThis as unknown as {
          localStorage: { setItem(k: string, v: string): void };
        };
        page.localStorage.setItem('user', JSON.stringify(user));
      }, session.user);
    }
    const result = await lighthouse(
      `${base}${page.path}`,
      {
        output: 'json',
        logLevel: 'error',
        onlyCategories: ['performance', 'accessibility', 'best-practices', 'seo'],
        // Keeps the session; the cache is empty anyway (a fresh profile per run).
        disableStorageReset: session !== undefined,
      },
      undefined,
      tab,
    );
    if (!result) throw new Error('Lighthouse returned no result');
    const { categories, audits, runtimeError } = result.lhr;
    if (runtimeError) throw new Error(`${page.path}: ${runtimeError.code} ${runtimeError.message}`);
    const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
    const value = (id: string) => audits[id]?.numericValue ?? Number.NaN;
    const notes = Object.entries(categories)
      .filter(([id]) => id !== 'performance')
      .flatMap(([, category]) => category.auditRefs.map((ref) => ref.id))
      .filter((id) => audits[id]?.score !== null && (audits[id]?.score ?? 1) < 1);
    const lcpElement = (
      audits['lcp-breakdown-insight']?.details as
        { items?: { type: string; snippet?: string; nodeLabel?: string }[] } | undefined
    )?.items?.find((item) => item.type === 'node');
    if (lcpElement) notes.push(`LCP element ${lcpElement.snippet} ${lcpElement.nodeLabel}`);
    return {
      notes,
      performance: score('performance'),
      accessibility: score('accessibility'),
      bestPractices: score('best-practices'),
      seo: score('seo'),
      fcp: value('first-contentful-paint'),
      lcp: value('largest-contentful-paint'),
      tbt: value('total-blocking-time'),
      cls: value('cumulative-layout-shift'),
      bytes: value('total-byte-weight'),
    };
  } finally {
    await browser.close();
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const server = process.env.BENCH_URL
  ? { base: process.env.BENCH_URL.replace(/\/$/, ''), stop: async () => {} }
  : await startServer({
      // Every session of the run signs in from 127.0.0.1.
      OTP_SEND_LIMIT_PER_IP: '100000',
      OTP_SEND_LIMIT_PER_PHONE: '1000',
    });
try {
  console.log(`Lighthouse mobile preset, ${RUNS} runs per page, medians; server ${server.base}`);
  const phone = `+9170${String(Date.now() % 100_000_000).padStart(8, '0')}`;
  const first = await signIn(server.base, phone);
  const [photo] = await captureAtDemoBooth(server.base, first.token);
  // The share page of that photo, signed out (a friend opening a shared link).
  PAGES.push({
    label: '/p/{id} (share page)',
    path: await sharePageOf(server.base, first.token, photo!),
    signedIn: false,
  });

  const header = `${'page'.padEnd(28)} perf  a11y  b-p   SEO   FCP      LCP      TBT     CLS    bytes`;
  console.log(header);
  const only = process.env.BENCH_PAGES?.split(',');
  // BENCH_PAGES names the share page `/p`.
  const wanted = (p: Page) => !only || only.includes(p.path.startsWith('/p/') ? '/p' : p.path);
  for (const page of PAGES.filter(wanted)) {
    const runs: Figures[] = [];
    for (let run = 0, failures = 0; run < RUNS;) {
      const session = page.signedIn ? await signIn(server.base, phone) : undefined;
      try {
        runs.push(await measure(server.base, page, session));
        run += 1;
      } catch (error) {
        // Lighthouse now and then loses a trace on a loaded machine (NO_NAVSTART): run again.
        failures += 1;
        if (failures > 2) throw error;
        console.warn(`  ${page.path}: ${(error as Error).message}; running again`);
      }
    }
    const m = (key: Exclude<keyof Figures, 'notes'>) => median(runs.map((run) => run[key]));
    console.log(
      [
        page.label.padEnd(28),
        String(m('performance')).padStart(4),
        String(m('accessibility')).padStart(5),
        String(m('bestPractices')).padStart(5),
        String(m('seo')).padStart(5),
        `${(m('fcp') / 1000).toFixed(2)} s`.padStart(8),
        `${(m('lcp') / 1000).toFixed(2)} s`.padStart(8),
        `${m('tbt').toFixed(0)} ms`.padStart(8),
        m('cls').toFixed(3).padStart(7),
        `${(m('bytes') / 1024).toFixed(1)} KB`.padStart(10),
      ].join(' '),
    );
    if (process.env.BENCH_VERBOSE) console.log(JSON.stringify(runs));
  }

  console.log('\nWeb app initial JavaScript per route (bytes on the wire: Brotli, as served):');
  const dist = process.env.WEB_DIST_DIR ? path.resolve(process.env.WEB_DIST_DIR) : undefined;
  for (const row of webSizes(dist)) {
    console.log(
      `${row.route.padEnd(20)} raw ${(row.raw / 1024).toFixed(1).padStart(6)} KB   gzip ${(row.gzip / 1024).toFixed(1).padStart(6)} KB   brotli ${(row.brotli / 1024).toFixed(1).padStart(6)} KB`,
    );
  }
} finally {
  await server.stop();
}
