/**
 * The Lighthouse CLI (mobile preset: simulated slow 4G, 4× CPU slowdown; the CLI's own defaults,
 * nothing changed) on the visitor pages, with Debian's Chromium: `/`, the booth page `/b/1`
 * signed in and signed out (the page a QR code opens: the server's HTML shows the booth, and a
 * signed-out browser is shown the sign-in screen it carries), `/regular/login`, `/regular/wall`
 * signed out and the share page `/p/{public_id}` of a visitor's photo (made public), signed out;
 * BENCH_LIGHTHOUSE_RUNS (3) runs each, printing the medians (docs/benchmarks.md), first against
 * the server as `npm start` serves it, then as production serves it.
 *
 * Each run is the CLI itself (`lighthouse URL --port=…`, its default settings) on a Chromium
 * started as the CLI starts it (chrome-launcher, the CLI's default flags, fresh profile); a
 * signed-in run first puts its own session (refresh cookie, stored user) in that profile through
 * a page that loads no app code, and keeps it (`--disable-storage-reset`). A run that loses its
 * trace or a metric fails the whole benchmark, naming the page: no run is dropped or replaced.
 * The machine's load (`/proc/loadavg`) is printed with every page; a run waits (up to
 * BENCH_LOAD_WAIT_S, 300 s) for the 1-minute load to fall under BENCH_MAX_LOAD (2.5) first and
 * marks the page when it did not.
 *
 * Servers: `npm start`'s (built web app, demo data, the two simulated booths) on a free loopback
 * port with a fresh data folder; then production's (`NODE_ENV=production`, with the settings a
 * production start requires: AUTH_SECRET, PUBLIC_URL, SMS_PROVIDER, PAYMENT_PROVIDER) on the same
 * data folder, so the same booth, visitor and photo (production starts no demo booths: booth 1 is
 * offline there). BENCH_MODES=start,production picks; BENCH_URL measures another server alone (a
 * server with the development SMS outbox and demo data).
 * Usage: npm run build && npm run bench:lighthouse
 * (WEB_DIST_DIR sizes another build folder; BENCH_PAGES=/,/b/1,/p measures only those;
 * BENCH_VERBOSE=1 prints every run, the audits below full marks and the largest contentful paint
 * element; BENCH_REPORT_DIR=folder keeps every run's full JSON report there, named by mode, page
 * and run, for its critical request chain, main-thread breakdown, long tasks and network requests.)
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { launch as launchChrome, type LaunchedChrome } from 'chrome-launcher';
import puppeteer from 'puppeteer-core';
import { freePort, startServer, waitFor } from './app-process.js';
import { webSizes } from './web-sizes.js';

const RUNS = Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 3);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** What the CLI is given on this machine (root: no sandbox; no GPU). */
const CHROME_FLAGS = ['--headless', '--no-sandbox', '--disable-gpu'];
const LIGHTHOUSE_CLI = createRequire(import.meta.url).resolve('lighthouse/cli/index.js');
const MAX_LOAD = Number(process.env.BENCH_MAX_LOAD ?? 2.5);
const LOAD_WAIT_S = Number(process.env.BENCH_LOAD_WAIT_S ?? 300);
const REPORT_DIR = process.env.BENCH_REPORT_DIR ? path.resolve(process.env.BENCH_REPORT_DIR) : '';
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
  { label: '/regular/wall (signed out)', path: '/regular/wall', signedIn: false },
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

/** The machine's load averages (1, 5, 15 minutes) as /proc/loadavg has them. */
function loadavg(): string {
  return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
}

/** Waits for the 1-minute load to fall under MAX_LOAD; answers whether it did. */
async function quietMachine(): Promise<boolean> {
  const deadline = Date.now() + LOAD_WAIT_S * 1000;
  while (Number(loadavg().split(' ')[0]) >= MAX_LOAD) {
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 10_000));
  }
  return true;
}

interface LighthouseResult {
  runtimeError?: { code: string; message: string };
  runWarnings?: string[];
  categories: Record<string, { score: number | null; auditRefs: { id: string }[] }>;
  audits: Record<string, { score: number | null; numericValue?: number; details?: unknown }>;
}

/** The CLI's JSON report of one page, on the Chromium listening at `port`. */
async function runCli(
  url: string,
  port: number,
  keepStorage: boolean,
  reportFile?: string,
): Promise<LighthouseResult> {
  const args = [
    LIGHTHOUSE_CLI,
    url,
    `--port=${port}`,
    '--output=json',
    '--output-path=stdout',
    '--only-categories=performance,accessibility,best-practices,seo',
    '--quiet',
    ...(keepStorage ? ['--disable-storage-reset'] : []),
  ];
  const { stdout } = await promisify(execFile)(process.execPath, args, {
    maxBuffer: 256 * 1024 * 1024,
  });
  if (reportFile) {
    mkdirSync(path.dirname(reportFile), { recursive: true });
    writeFileSync(reportFile, stdout);
  }
  return JSON.parse(stdout) as LighthouseResult;
}

async function measure(
  base: string,
  page: Page,
  session?: Session,
  reportFile?: string,
): Promise<Figures> {
  const chrome: LaunchedChrome = await launchChrome({
    chromePath: CHROMIUM,
    chromeFlags: CHROME_FLAGS,
  });
  try {
    if (session) {
      // The session is the only state, set on a page that loads no app code.
      const browser = await puppeteer.connect({ browserURL: `http://127.0.0.1:${chrome.port}` });
      const tab = await browser.newPage();
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
      await tab.close();
      await browser.disconnect();
    }
    const { categories, audits, runtimeError, runWarnings } = await runCli(
      `${base}${page.path}`,
      chrome.port,
      session !== undefined,
      reportFile,
    );
    // A lost trace (NO_NAVSTART, NO_FCP, …) is the run's failure, never a number.
    if (runtimeError) throw new Error(`${page.path}: ${runtimeError.code} ${runtimeError.message}`);
    const score = (id: string) => {
      const value = categories[id]?.score;
      if (typeof value !== 'number') throw new Error(`${page.path}: no ${id} score`);
      return Math.round(value * 100);
    };
    const value = (id: string) => {
      const numeric = audits[id]?.numericValue;
      if (typeof numeric !== 'number') throw new Error(`${page.path}: no ${id} value (lost trace)`);
      return numeric;
    };
    const notes = Object.entries(categories)
      .filter(([id]) => id !== 'performance')
      .flatMap(([, category]) => category.auditRefs.map((ref) => ref.id))
      .filter((id) => audits[id]?.score !== null && (audits[id]?.score ?? 1) < 1);
    notes.push(...(runWarnings ?? []).map((warning) => `warning: ${warning}`));
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
    chrome.kill();
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const only = process.env.BENCH_PAGES?.split(',');
// BENCH_PAGES names the share page `/p`.
const wanted = (p: Page) => !only || only.includes(p.path.startsWith('/p/') ? '/p' : p.path);

/** Measures every page against `base`, RUNS times each; prints and answers the medians. */
async function measureAll(
  title: string,
  base: string,
  sessions: () => Promise<Session>,
): Promise<void> {
  console.log(`\n${title}: Lighthouse CLI, mobile preset, ${RUNS} runs per page, medians`);
  console.log(
    `${'page'.padEnd(28)} perf  a11y  b-p   SEO   FCP      LCP      TBT     CLS    bytes     load (1, 5, 15 min)`,
  );
  for (const page of PAGES.filter(wanted)) {
    const runs: Figures[] = [];
    const loads: string[] = [];
    let loaded = false;
    for (let run = 0; run < RUNS; run += 1) {
      if (!(await quietMachine())) loaded = true;
      loads.push(loadavg());
      const session = page.signedIn ? await sessions() : undefined;
      try {
        const reportFile = REPORT_DIR
          ? path.join(
              REPORT_DIR,
              `${title.split(' ')[0]!.replace(/\W/g, '')}-${page.label.replace(/\W+/g, '_')}-${run + 1}.json`,
            )
          : undefined;
        runs.push(await measure(base, page, session, reportFile));
      } catch (error) {
        throw new Error(
          `${title}, ${page.label}, run ${run + 1} of ${RUNS}: ${(error as Error).message}`,
          {
            cause: error,
          },
        );
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
        `   ${loads[0]}${loaded ? `  LOADED (over ${MAX_LOAD})` : ''}`,
      ].join(' '),
    );
    if (process.env.BENCH_VERBOSE) {
      console.log(
        `  runs: perf ${runs.map((r) => r.performance).join(', ')}; TBT ${runs.map((r) => r.tbt.toFixed(0)).join(', ')} ms; loads ${loads.join(' | ')}`,
      );
      console.log(`  ${JSON.stringify(runs.map((r) => r.notes))}`);
    }
  }
}

const modes = (process.env.BENCH_MODES ?? 'start,production').split(',');
const phone = `+9170${String(Date.now() % 100_000_000).padStart(8, '0')}`;
// One secret for both servers: the sessions made on the first are good on the second.
const authSecret = randomBytes(32).toString('base64url');
const limits = {
  // Every session of the run signs in from 127.0.0.1.
  OTP_SEND_LIMIT_PER_IP: '100000',
  OTP_SEND_LIMIT_PER_PHONE: '1000',
  AUTH_SECRET: authSecret,
};
const signedInRuns = PAGES.filter((p) => p.signedIn && wanted(p)).length * RUNS;

console.log(`machine load before (1, 5, 15 min): ${loadavg()}`);
if (process.env.BENCH_URL) {
  const base = process.env.BENCH_URL.replace(/\/$/, '');
  const first = await signIn(base, phone);
  const [photo] = await captureAtDemoBooth(base, first.token);
  PAGES.push({
    label: '/p/{id} (share page)',
    path: await sharePageOf(base, first.token, photo!),
    signedIn: false,
  });
  await measureAll(base, base, () => signIn(base, phone));
} else {
  // One data folder for both servers, kept between them.
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'flashbooth-lighthouse-'));
  const start = await startServer(limits, { dataDir });
  const sessions: Session[] = [];
  try {
    const first = await signIn(start.base, phone);
    const [photo] = await captureAtDemoBooth(start.base, first.token);
    // The share page of that photo, signed out (a friend opening a shared link).
    PAGES.push({
      label: '/p/{id} (share page)',
      path: await sharePageOf(start.base, first.token, photo!),
      signedIn: false,
    });
    if (modes.includes('start')) {
      await measureAll('npm start', start.base, () => signIn(start.base, phone));
    }
    // Production reads no development SMS outbox: its sessions are made here, one per run.
    if (modes.includes('production')) {
      for (let i = 0; i < signedInRuns; i += 1) sessions.push(await signIn(start.base, phone));
    }
  } finally {
    await start.stop();
  }
  if (modes.includes('production')) {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    const production = await startServer(
      {
        ...limits,
        NODE_ENV: 'production',
        PUBLIC_URL: base,
        SMS_PROVIDER: 'outbox',
        PAYMENT_PROVIDER: 'sandbox',
      },
      { port, dataDir },
    );
    try {
      await measureAll('production (NODE_ENV=production)', base, async () => {
        const session = sessions.shift();
        if (!session) throw new Error('no session left for production');
        return session;
      });
    } finally {
      await production.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  } else {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
console.log(`machine load after (1, 5, 15 min): ${loadavg()}`);

console.log('\nWeb app initial JavaScript per route (bytes on the wire: Brotli, as served):');
const dist = process.env.WEB_DIST_DIR ? path.resolve(process.env.WEB_DIST_DIR) : undefined;
for (const row of webSizes(dist)) {
  console.log(
    `${row.route.padEnd(20)} raw ${(row.raw / 1024).toFixed(1).padStart(6)} KB   gzip ${(row.gzip / 1024).toFixed(1).padStart(6)} KB   brotli ${(row.brotli / 1024).toFixed(1).padStart(6)} KB`,
  );
}
