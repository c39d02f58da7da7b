import { execFileSync } from 'node:child_process';
import { chmod, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CupsPrinter } from '../src/printer/cups-printer.js';

// CupsPrinter.status runs lpstat: a stand-in script, and the real one where cups-client is installed.
async function fakeLpstat(body: string): Promise<{ lpstat: string; dir: string }> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'flashbooth-lpstat-'));
  const lpstat = path.join(dir, 'lpstat');
  await writeFile(
    lpstat,
    `#!/bin/sh\nprintf '%s\\n' "$@" > "$(dirname "$0")/args.txt"\necho "$LC_ALL" > "$(dirname "$0")/locale.txt"\n${body}\n`,
  );
  await chmod(lpstat, 0o755);
  return { lpstat, dir };
}

const hasLpstat = (() => {
  try {
    execFileSync('sh', ['-c', 'command -v lpstat'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

describe('CupsPrinter.status', () => {
  it('asks lpstat about its queue in the C locale and reads the answer', async () => {
    const { lpstat, dir } = await fakeLpstat(
      [
        "printf 'printer DNP_DS620 disabled since Fri 27 Nov 2026 08:12:03 PM UTC -\\n'",
        "printf '\\tMedia empty or jammed\\n\\tDescription: DNP DS620\\n\\tAlerts: media-empty-error paused\\n'",
        "printf 'DNP_DS620 accepting requests since Fri 27 Nov 2026 08:12:03 PM UTC\\n'",
      ].join('\n'),
    );
    const printer = new CupsPrinter({ printerName: 'DNP_DS620', lpstatPath: lpstat });
    expect(await printer.status()).toEqual({
      state: 'paper_out',
      message:
        'The printer is out of paper (Media empty or jammed): load paper, then resume the queue: cupsenable DNP_DS620',
    });
    expect((await readFile(path.join(dir, 'args.txt'), 'utf8')).trim().split('\n')).toEqual([
      '-l',
      '-p',
      'DNP_DS620',
      '-a',
      'DNP_DS620',
    ]);
    expect((await readFile(path.join(dir, 'locale.txt'), 'utf8')).trim()).toBe('C');
  });

  it('says what to do when lpstat fails or is missing, and never rejects', async () => {
    const { lpstat } = await fakeLpstat(
      `echo 'lpstat: Invalid destination name in list "Booth".' >&2\nexit 1`,
    );
    expect(await new CupsPrinter({ printerName: 'Booth', lpstatPath: lpstat }).status()).toEqual({
      state: 'unknown',
      message:
        'CUPS has no print queue named Booth: lpstat -p lists the queues; check BOOTH_PRINTER',
    });
    const missing = new CupsPrinter({ printerName: 'Booth', lpstatPath: '/nonexistent/lpstat' });
    expect(await missing.status()).toEqual({
      state: 'unknown',
      message: 'lpstat is not installed: sudo apt-get install cups-client',
    });
  });

  it.skipIf(!hasLpstat)('reads the real lpstat about a queue that does not exist', async () => {
    const status = await new CupsPrinter({ printerName: 'flashbooth-no-such-queue' }).status();
    // Without a CUPS scheduler (CI) or with one that lacks the queue.
    expect(status.state).toBe('unknown');
    expect(status.message).toMatch(
      /^(CUPS is not running|CUPS has no print queue named flashbooth-no-such-queue)/,
    );
  });
});
