/**
 * Template Studio in Chromium (playwright-core, Debian's /usr/bin/chromium): the time from
 * choosing a 3600×2400 landscape3 design to both outputs on screen, and the longest main-thread
 * task meanwhile (PerformanceObserver 'longtask': tasks over 50 ms; none means every task was
 * shorter). BENCH_STUDIO_RUNS (5) runs in one page; the first is cold (worker start, sample
 * photos fetched and decoded), the median is of the warm ones.
 *
 * The server is `npm start`'s (built web app, demo data) started as a child process on a free
 * loopback port with a fresh data folder, or BENCH_URL when given (a server with the development
 * SMS outbox and demo data). The seeded super user (+919000000001) signs in through the API.
 * Usage: npm run build && npm run bench:studio
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import sharp from 'sharp';
import { startServer } from './app-process.js';

const RUNS = Number(process.env.BENCH_STUDIO_RUNS ?? 5);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const STAFF_PHONE = '+919000000001';

/** A design like a real one: a gradient, shapes and text (PNG, a few hundred KB). */
function benchDesign(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="3600" height="2400">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#ff5a7a"/><stop offset="1" stop-color="#ffb547"/></linearGradient></defs>
    <rect width="3600" height="2400" fill="url(#g)"/>
    <circle cx="2700" cy="1700" r="420" fill="#ffffff" fill-opacity="0.25"/>
    <text x="1900" y="1500" font-family="DejaVu Sans" font-weight="bold" font-size="220"
      fill="#ffffff">Summer Party</text>
    <text x="1900" y="1760" font-family="DejaVu Sans" font-size="110" fill="#ffffff">14 May 2026</text>
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** Installed before the app: long tasks (buffered) and when a file was last chosen. */
const PAGE_PROBE = `
  window.__longTasks = [];
  new PerformanceObserver((list) => window.__longTasks.push(...list.getEntries()))
    .observe({ type: 'longtask', buffered: true });
  document.addEventListener('change', () => (window.__chosenAt = performance.now()), true);
  window.__figures = (end) => {
    const during = window.__longTasks.filter(
      (task) => task.startTime + task.duration >= window.__chosenAt && task.startTime <= end);
    return {
      ms: end - window.__chosenAt,
      longest: Math.max(0, ...during.map((task) => task.duration)),
      longTasks: during.length,
      starts: during.map((task) => Math.round(task.startTime - window.__chosenAt)),
    };
  };
`;

/** Resolves with performance.now() once both output previews have loaded. */
const WHEN_SHOWN = `new Promise((resolve) => {
  const check = () => {
    const images = [...document.querySelectorAll('.studio-output img')];
    if (images.length === 2 && images.every((image) => image.complete && image.naturalWidth)) {
      observer.disconnect();
      document.removeEventListener('load', check, true);
      resolve(performance.now());
    }
  };
  const observer = new MutationObserver(check);
  observer.observe(document.body, { subtree: true, childList: true, attributes: true });
  document.addEventListener('load', check, true);
})`;

interface Run {
  /** When each long task began, in ms after the file was chosen. */
  starts: number[];
  ms: number;
  longest: number;
  longTasks: number;
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
};

async function main() {
  const server = process.env.BENCH_URL
    ? { base: process.env.BENCH_URL.replace(/\/$/, ''), stop: async () => {} }
    : await startServer();
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
  const cleanups: (() => void)[] = [];
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    // Long tasks from the first moment, and the time of every file choice. The page's code is
    // text here: this project's scripts compile without the DOM library.
    await page.addInitScript({ content: PAGE_PROBE });
    const signIn = await page.request.post(`${server.base}/api/enterprise/auth/sign-in`, {
      data: { phone: STAFF_PHONE },
    });
    if (!signIn.ok()) throw new Error(`sign-in: ${signIn.status()} ${await signIn.text()}`);
    const outbox = (await (
      await page.request.get(`${server.base}/api/dev/sms?phone=${encodeURIComponent(STAFF_PHONE)}`)
    ).json()) as { items: { code: string }[] };
    const verify = await page.request.post(`${server.base}/api/enterprise/auth/verify`, {
      data: { phone: STAFF_PHONE, code: outbox.items[0]!.code },
    });
    if (!verify.ok()) throw new Error(`verify: ${verify.status()} ${await verify.text()}`);
    const { user } = (await verify.json()) as { user: unknown };
    await page.goto(`${server.base}/enterprise/login`);
    await page.evaluate(`localStorage.setItem('user', ${JSON.stringify(JSON.stringify(user))})`);
    await page.goto(`${server.base}/enterprise/template-studio`);
    await page.getByTestId('studio-idle').waitFor();

    const design = await benchDesign();
    // A file on disk: the browser reads it itself, as when a person picks one (a buffer would be
    // copied into the page by script, a main-thread task of the benchmark's own).
    const designFile = path.join(
      mkdtempSync(path.join(os.tmpdir(), 'studio-design-')),
      'design.png',
    );
    writeFileSync(designFile, design);
    cleanups.push(() => rmSync(path.dirname(designFile), { recursive: true, force: true }));
    const runs: Run[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      await page.getByLabel('landscape1').check();
      await page.getByLabel('landscape3').check();
      await page.getByTestId('studio-idle').waitFor();
      await page.evaluate('window.__longTasks.length = 0');
      // Ends when both previews have loaded (the outputs are on screen).
      const finished = page.evaluate(WHEN_SHOWN) as Promise<number>;
      await page.getByLabel('Design (JPG or PNG)').setInputFiles(designFile);
      const doneAt = await finished;
      // Let a long task that ended with the result be reported.
      await page.waitForTimeout(200);
      const figures = (await page.evaluate(`window.__figures(${doneAt})`)) as Run;
      runs.push(figures);
      console.log(
        `run ${run + 1}${run === 0 ? ' (cold)' : ''}: ${figures.ms.toFixed(0)} ms, ` +
          `long tasks ${figures.longTasks}, longest ${figures.longest.toFixed(0)} ms` +
          (figures.starts.length ? ` (starting at +${figures.starts.join(', +')} ms)` : ''),
      );
    }
    const warm = runs.length > 1 ? runs.slice(1) : runs;
    const version = execFileSync(CHROMIUM, ['--version'], { stdio: ['ignore', 'pipe', 'ignore'] })
      .toString()
      .trim();
    console.log(
      `\nTemplate Studio, 3600×2400 landscape3 design (${(design.length / 1024).toFixed(0)} KB PNG), ${version}`,
    );
    console.log(`cold run:            ${runs[0]!.ms.toFixed(0)} ms`);
    console.log(
      `warm median:         ${median(warm.map((run) => run.ms)).toFixed(0)} ms (${warm.length} runs)`,
    );
    console.log(
      `longest main-thread task during any run: ${Math.max(...runs.map((run) => run.longest)).toFixed(0)} ms ` +
        `(0 = no task over 50 ms)`,
    );
    console.log(
      `machine: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, load ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
  } finally {
    for (const cleanup of cleanups) cleanup();
    await browser.close();
    await server.stop();
  }
}

await main();
