import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SimulatedPrinter } from './simulated-printer.js';

const tempDir = () => mkdtemp(path.join(os.tmpdir(), 'flashbooth-agent-'));

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

  it('reports an idle queue', async () => {
    expect(await new SimulatedPrinter(await tempDir()).status()).toEqual({
      state: 'idle',
      message: null,
    });
  });
});
