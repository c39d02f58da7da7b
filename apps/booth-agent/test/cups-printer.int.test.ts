import { chmod, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CupsPrinter, printDpi, withJfifHeader } from '../src/printer/cups-printer.js';

// Runs a stand-in `lp` script, so it is an integration test (a child process per print).
const tempDir = () => mkdtemp(path.join(os.tmpdir(), 'flashbooth-agent-'));

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

  it('reports what lp said when it fails, telling a missing queue from a stopped CUPS', async () => {
    const { lp } = await fakeLp(`echo "lp: The printer or class does not exist." >&2\nexit 1`);
    // lp says the same when no scheduler answers: `lpstat -r` tells which.
    const running = await fakeLp('echo "scheduler is running"');
    const printer = new CupsPrinter({ printerName: 'Missing', lpPath: lp, lpstatPath: running.lp });
    await expect(
      printer.print({ image: Buffer.from('x'), copies: 1, strips: 1, jobName: 'job' }),
    ).rejects.toThrow(
      'CUPS has no print queue named Missing (lp: The printer or class does not exist.): lpstat -p lists the queues; check BOOTH_PRINTER',
    );
    const stopped = await fakeLp('echo "scheduler is not running"\nexit 1');
    const down = new CupsPrinter({ printerName: 'Missing', lpPath: lp, lpstatPath: stopped.lp });
    await expect(
      down.print({ image: Buffer.from('x'), copies: 1, strips: 1, jobName: 'job' }),
    ).rejects.toThrow(/^CUPS is not running: start it/);
    const other = await fakeLp(`echo "lp: Unsupported document-format" >&2\nexit 1`);
    await expect(
      new CupsPrinter({ printerName: 'DNP', lpPath: other.lp, lpstatPath: running.lp }).print({
        image: Buffer.from('x'),
        copies: 1,
        strips: 1,
        jobName: 'job',
      }),
    ).rejects.toThrow('lp: Unsupported document-format');
  });

  it('gives CUPS a JPEG with a JFIF header: 6 in on its long side', () => {
    // sharp writes no APPn segment without metadata; CUPS's image filters refuse such a file.
    const bare = Buffer.from([0xff, 0xd8, 0xff, 0xdb, 0x00, 0x43]);
    const fixed = withJfifHeader(bare, printDpi(3600, 2400));
    expect(fixed.subarray(0, 4)).toEqual(Buffer.from([0xff, 0xd8, 0xff, 0xe0]));
    expect(fixed.subarray(6, 11).toString('latin1')).toBe('JFIF\0');
    expect(fixed.readUInt8(13)).toBe(1);
    expect([fixed.readUInt16BE(14), fixed.readUInt16BE(16)]).toEqual([600, 600]);
    expect(fixed.subarray(20)).toEqual(bare.subarray(2));
    // One with an APPn segment already is left as it is.
    expect(withJfifHeader(fixed, 300)).toBe(fixed);
    expect(printDpi(1800, 1200)).toBe(300);
  });
});
