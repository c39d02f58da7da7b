import { chmod, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CupsPrinter } from '../src/printer/cups-printer.js';

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

  it('reports what lp said when it fails', async () => {
    const { lp } = await fakeLp(`echo "lp: The printer or class does not exist." >&2\nexit 1`);
    const printer = new CupsPrinter({ printerName: 'Missing', lpPath: lp });
    await expect(
      printer.print({ image: Buffer.from('x'), copies: 1, strips: 1, jobName: 'job' }),
    ).rejects.toThrow('lp: The printer or class does not exist.');
  });
});
