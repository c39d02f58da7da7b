import { execFile } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { BOOTH_AGENT_VERSION } from '../src/version.js';

const BIN = fileURLToPath(new URL('../bin/flashbooth-booth', import.meta.url));
const run = promisify(execFile);

/** The command as an operator runs it, from another folder; its exit code and output. */
async function flashboothBooth(...args: string[]) {
  try {
    const { stdout, stderr } = await run(BIN, args, { cwd: os.tmpdir(), timeout: 30_000 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? '', stderr: failed.stderr ?? '' };
  }
}

describe('bin/flashbooth-booth', () => {
  it('runs from any folder: help, version, a command’s usage, and an unknown command', async () => {
    const [help, version, enrollUsage, unknown] = await Promise.all([
      flashboothBooth('--help'),
      flashboothBooth('version'),
      flashboothBooth('enroll', 'https://booths.example'),
      flashboothBooth('bogus'),
    ]);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('enroll <server-url> <code>');
    expect(version).toMatchObject({ code: 0, stdout: `${BOOTH_AGENT_VERSION}\n` });
    expect(enrollUsage.code).toBe(1);
    expect(enrollUsage.stderr).toContain('Usage: flashbooth-booth enroll <server-url> <code>');
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Unknown command: bogus');
  });
});
