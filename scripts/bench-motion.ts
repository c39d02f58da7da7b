/**
 * Times the booth's motion encoding (apps/booth-agent/src/motion/encoder.ts) on ONE core: from
 * the last recorded frame to a ready MP4, poster and animated WebP preview, for a 720p boomerang
 * (the simulated camera's 1.5-s burst, 45 frames of 1280×720, played forward and back and looped
 * to 5.9 s) with a print-sized PNG foreground burned in. The process re-runs itself under
 * `taskset -c 0` (when the machine has it), ffmpeg runs with `-threads 1` and sharp with one
 * thread, as on a booth whose other core is busy. Prints each run, the median and the files'
 * sizes.
 * Usage: npm run bench:motion   (BENCH_RUNS, default 5, after 1 warm-up)
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { canvasSize } from '@flashbooth/print-composition';
import { SimulatedCamera } from '../apps/booth-agent/src/camera/simulated-camera.js';
import { FfmpegMotionEncoder } from '../apps/booth-agent/src/motion/encoder.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const WARM_UPS = 1;

/**
 * CPU seconds used so far by this process and by its finished children (ffmpeg), from
 * /proc/self/stat (utime, stime, cutime, cstime in clock ticks of 1/100 s). On a shared machine
 * the wall time includes waiting for the CPU; the CPU time is what one idle core would take.
 */
function cpuSeconds(): number | undefined {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14 to 17 of proc(5), counted from the state (field 3) at index 0.
    const ticks = [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i]), 0);
    return ticks / 100;
  } catch {
    return undefined;
  }
}

/** Runs this script again pinned to CPU 0, unless it already is or taskset is missing. */
function pinned(): boolean {
  if (process.env.BENCH_MOTION_PINNED === '1') return true;
  const has = spawnSync('taskset', ['--version'], { stdio: 'ignore' }).status === 0;
  if (!has) {
    console.warn('taskset not found: running unpinned (ffmpeg -threads 1, sharp 1 thread)');
    return true;
  }
  const run = spawnSync(
    'taskset',
    ['-c', '0', process.execPath, ...process.execArgv, ...process.argv.slice(1)],
    { stdio: 'inherit', env: { ...process.env, BENCH_MOTION_PINNED: '1' } },
  );
  process.exit(run.status ?? 1);
}

async function main(): Promise<void> {
  if (!pinned()) return;
  sharp.concurrency(1);
  const root = await mkdtemp(path.join(os.tmpdir(), 'flashbooth-bench-motion-'));
  try {
    const framesDir = path.join(root, 'frames');
    await mkdir(framesDir);
    const { frames, fps } = await new SimulatedCamera({ realTime: false }).record({
      mode: 'clip',
      count: 0,
      intervalMs: 0,
      seconds: 1.5,
      fps: 30,
      size: { width: 1280, height: 720 },
      dir: framesDir,
    });
    // A branding overlay like Template Studio's: an opaque band and a logo box.
    const { width, height } = canvasSize('landscape');
    const foreground = await sharp(
      Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
        <rect x="0" y="${height - 160}" width="${width}" height="160" fill="#1d3557"/>
        <rect x="${width - 520}" y="40" width="460" height="200" rx="40" fill="#e63946"/>
      </svg>`),
    )
      .png()
      .toBuffer();
    const encoder = new FfmpegMotionEncoder({ threads: 1, niceness: 0 });
    const times: number[] = [];
    const cpus: number[] = [];
    const parts: { video: number; poster: number; preview: number }[] = [];
    let last: Awaited<ReturnType<FfmpegMotionEncoder['encode']>> | undefined;
    for (let run = 0; run < WARM_UPS + RUNS; run += 1) {
      const outDir = path.join(root, `out-${run}`);
      const started = performance.now();
      const cpuBefore = cpuSeconds();
      last = await encoder.encode({
        kind: 'boomerang',
        speed: 1,
        frames,
        fps,
        foreground,
        // The one-photo layout's 3:2 slot.
        aspect: { width: 2880, height: 1920 },
        outDir,
        gif: false,
      });
      const ms = performance.now() - started;
      const cpuAfter = cpuSeconds();
      const cpu =
        cpuBefore !== undefined && cpuAfter !== undefined ? cpuAfter - cpuBefore : undefined;
      if (run >= WARM_UPS) {
        times.push(ms);
        parts.push(last.ms);
        if (cpu !== undefined) cpus.push(cpu);
        console.log(
          `run ${run - WARM_UPS + 1}: ${(ms / 1000).toFixed(2)} s` +
            (cpu !== undefined ? ` (CPU ${cpu.toFixed(2)} s)` : ''),
        );
      }
    }
    if (!last) return;
    const sorted = [...times].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
    const cpuSorted = [...cpus].sort((a, b) => a - b);
    const cpuMedian = cpuSorted[Math.floor(cpuSorted.length / 2)];
    const size = async (file: string) => `${((await stat(file)).size / 1024).toFixed(0)} KB`;
    const probe = execFileSync('ffprobe', [
      ...['-v', 'error', '-select_streams', 'v:0'],
      ...['-show_entries', 'stream=codec_name,profile,pix_fmt,width,height,r_frame_rate'],
      ...['-show_entries', 'format=duration', '-of', 'compact=p=0:nk=0', last.video],
    ])
      .toString()
      .trim()
      .replace(/\n/g, ' | ');
    const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
    console.log('');
    console.log(`Motion at the booth: ${frames.length} frames 1280×720 → boomerang, one core`);
    console.log(
      `CPU: ${cpu}; load average at the end: ${os
        .loadavg()
        .map((l) => l.toFixed(2))
        .join(' ')}`,
    );
    console.log(`MP4: ${probe}`);
    console.log(
      `last frame → MP4 + poster + preview: median ${(median / 1000).toFixed(2)} s, ` +
        `best ${((sorted[0] ?? 0) / 1000).toFixed(2)} s, worst ${((sorted.at(-1) ?? 0) / 1000).toFixed(2)} s ` +
        `(${RUNS} runs; clip ${last.seconds.toFixed(2)} s, burst 1.5 s)`,
    );
    const medianOf = (values: number[]) =>
      [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
    console.log(
      `of which (medians): MP4 ${(medianOf(parts.map((p) => p.video)) / 1000).toFixed(2)} s, ` +
        `poster ${(medianOf(parts.map((p) => p.poster)) / 1000).toFixed(2)} s, ` +
        `preview ${(medianOf(parts.map((p) => p.preview)) / 1000).toFixed(2)} s`,
    );
    if (cpuMedian !== undefined) {
      console.log(`CPU time (agent + ffmpeg) per encoding: median ${cpuMedian.toFixed(2)} s`);
    }
    console.log(
      `sizes: MP4 ${await size(last.video)}, poster ${await size(last.poster)}, preview ${await size(last.preview)}`,
    );
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

await main();
