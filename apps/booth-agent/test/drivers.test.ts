import { chmod, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { FolderCamera } from '../src/camera/folder-camera.js';
import { SimulatedCamera } from '../src/camera/simulated-camera.js';
import { CupsPrinter } from '../src/printer/cups-printer.js';
import { SimulatedPrinter } from '../src/printer/simulated-printer.js';

const tempDir = () => mkdtemp(path.join(os.tmpdir(), 'flashbooth-agent-'));

describe('SimulatedCamera', () => {
  it('takes distinct 1620×1080 JPEG photos', async () => {
    const camera = new SimulatedCamera({ now: () => new Date('2026-01-02T03:04:05Z') });
    const [first, second] = await Promise.all([camera.capture(0), camera.capture(1)]);
    const meta = await sharp(first).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 1620, 1080]);
    expect(first.equals(second)).toBe(false);
    // Different shots have clearly different colours.
    const [a, b] = await Promise.all([first, second].map((p) => sharp(p).stats()));
    const meanDiff = a!.channels.reduce(
      (sum, c, i) => sum + Math.abs(c.mean - b!.channels[i]!.mean),
      0,
    );
    expect(meanDiff).toBeGreaterThan(20);
  });
});

describe('FolderCamera', () => {
  it('returns the folder photos in natural name order and starts over', async () => {
    const dir = await tempDir();
    for (const name of ['shot-10.jpg', 'shot-2.jpg', 'notes.txt', 'shot-1.png']) {
      await writeFile(path.join(dir, name), name);
    }
    const camera = new FolderCamera(dir);
    const taken = [];
    for (let i = 0; i < 4; i += 1) taken.push((await camera.capture(i)).toString());
    expect(taken).toEqual(['shot-1.png', 'shot-2.jpg', 'shot-10.jpg', 'shot-1.png']);
  });

  it('says clearly when the folder is empty or missing', async () => {
    await expect(new FolderCamera(await tempDir()).capture(0)).rejects.toThrow(
      /no JPG or PNG photos/,
    );
    await expect(new FolderCamera('/nonexistent/flashbooth').capture(0)).rejects.toThrow(
      /does not exist/,
    );
  });
});

describe('SimulatedPrinter', () => {
  it('writes the print and its ticket to the spool folder', async () => {
    const spool = await tempDir();
    const printer = new SimulatedPrinter(spool);
    const { jobId } = await printer.print({
      image: Buffer.from('jpeg bytes'),
      copies: 2,
      strips: 2,
      jobName: 'Media 41',
    });
    const files = (await readdir(spool)).sort();
    expect(files).toEqual([`${jobId}.jpg`, `${jobId}.json`]);
    expect((await readFile(path.join(spool, `${jobId}.jpg`))).toString()).toBe('jpeg bytes');
    expect(JSON.parse(await readFile(path.join(spool, `${jobId}.json`), 'utf8'))).toMatchObject({
      copies: 2,
      strips: 2,
    });
  });
});

describe('CupsPrinter', () => {
  async function fakeLp(script: string): Promise<{ lp: string; dir: string }> {
    const dir = await tempDir();
    const lp = path.join(dir, 'lp');
    await writeFile(lp, `#!/usr/bin/env bash\n${script}\n`);
    await chmod(lp, 0o755);
    return { lp, dir };
  }

  it('hands the print to lp without a shell and reads the job id', async () => {
    const { lp, dir } = await fakeLp(
      `printf '%s\\n' "$@" > "$(dirname "$0")/args.txt"\necho "request id is fake-42 (1 file(s))"`,
    );
    const printer = new CupsPrinter({ printerName: 'DNP_DS620', lpPath: lp });
    const { jobId } = await printer.print({
      image: Buffer.from('x'),
      copies: 1,
      strips: 2,
      jobName: 'Media 7; rm -rf /',
    });
    expect(jobId).toBe('fake-42');
    const args = (await readFile(path.join(dir, 'args.txt'), 'utf8')).trim().split('\n');
    expect(args.slice(0, 8)).toEqual([
      '-d',
      'DNP_DS620',
      '-n',
      '1',
      '-t',
      'Media 7; rm -rf /',
      '-o',
      'media=w288h432-div2',
    ]);
    expect(args[8]).toMatch(/print\.jpg$/);
  });

  it('reports what lp said when it fails', async () => {
    const { lp } = await fakeLp(`echo "lp: The printer or class does not exist." >&2\nexit 1`);
    const printer = new CupsPrinter({ printerName: 'Missing', lpPath: lp });
    await expect(
      printer.print({ image: Buffer.from('x'), copies: 1, strips: 1, jobName: 'job' }),
    ).rejects.toThrow('lp: The printer or class does not exist.');
  });

  it('refuses a printer name that could be read as an option', () => {
    expect(() => new CupsPrinter({ printerName: '-oevil' })).toThrow(/Invalid CUPS printer name/);
  });
});
