/**
 * Times the booth's print composition (packages/print-composition/src/compose.ts): a landscape3 and
 * a portrait6 print from full-size camera frames (3000×2000 JPEG) with a canvas-sized PNG
 * foreground, as a real booth composes them. Inputs are made once; each run only composes.
 * Usage: node --import tsx scripts/bench-compose.ts   (BENCH_RUNS, default 20, after 2 warm-ups)
 */
import os from 'node:os';
import sharp from 'sharp';
import { captureCount } from '@flashbooth/contracts';
import {
  canvasSize,
  composePrint,
  LAYOUTS,
  samplePhoto,
  type LayoutName,
  type Template,
} from '@flashbooth/print-composition';

const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const WARM_UPS = 2;
const FILTERS = ['none', 'warm', 'grayscale', 'vintage', 'sepia', 'high-contrast'];

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

/** A branding overlay like Template Studio's: an opaque band and a logo box, transparent elsewhere. */
async function foregroundFor(name: LayoutName): Promise<Buffer> {
  const { width, height } = canvasSize(LAYOUTS[name].orientation);
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect x="0" y="${height - 300}" width="${width}" height="300" fill="#1d3557"/>
    <rect x="${width - 700}" y="${height - 640}" width="600" height="300" rx="50" fill="#e63946"/>
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

async function bench(name: LayoutName): Promise<void> {
  const layout = LAYOUTS[name];
  const template: Template = {
    id: 1,
    name,
    orientation: layout.orientation,
    is_cut: name === 'portrait6',
    is_duplicated: false,
    images: layout.images.map((slot, i) => ({
      ...slot,
      filter: FILTERS[i % FILTERS.length] ?? 'none',
    })),
    foreground: await foregroundFor(name),
  };
  // The simulated camera's photos, at a camera's full size.
  const takenAt = new Date();
  const photos = await Promise.all(
    Array.from({ length: captureCount(template.images.length, template.is_duplicated) }, (_, i) =>
      samplePhoto(i, { width: 3000, height: 2000, takenAt }),
    ),
  );

  const times: number[] = [];
  let bytes = 0;
  for (let run = 0; run < WARM_UPS + RUNS; run += 1) {
    const start = performance.now();
    const print = await composePrint(template, photos);
    const elapsed = performance.now() - start;
    if (run >= WARM_UPS) times.push(elapsed);
    bytes = print.length;
  }
  times.sort((a, b) => a - b);
  const { width, height } = canvasSize(layout.orientation);
  console.log(
    `${name.padEnd(10)} ${width}×${height}, ${photos.length} photos 3000×2000, foreground: ` +
      `median ${percentile(times, 50).toFixed(0)} ms, p95 ${percentile(times, 95).toFixed(0)} ms, ` +
      `min ${times[0]?.toFixed(0)} ms, print ${(bytes / 1024).toFixed(0)} KiB (${RUNS} runs)`,
  );
}

console.log(
  `Node ${process.version}, ${os.cpus().length} CPUs, sharp ${sharp.versions.sharp}, ` +
    `libvips threads per image ${sharp.concurrency()}, UV_THREADPOOL_SIZE ${process.env.UV_THREADPOOL_SIZE ?? '4 (default)'}`,
);
await bench('landscape3');
await bench('portrait6');
