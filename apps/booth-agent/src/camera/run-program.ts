import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export interface RunOptions {
  /** Killed (SIGTERM, then SIGKILL 2 s later) when it runs longer than this. */
  timeoutMs: number;
  /** Extra environment variables, added to the agent's own. */
  env?: NodeJS.ProcessEnv;
  /** Standard output beyond this is an error: a program gone wrong must not fill the memory. */
  maxOutputBytes?: number;
  /** The folder it runs in (for a program that writes its file where it runs). */
  cwd?: string;
  /**
   * Its scheduling priority (nice value, 0 to 19): background work such as encoding runs below
   * the camera and the agent, so a capture never waits for it.
   */
  niceness?: number;
}

export interface RunResult {
  stdout: Buffer;
  stderr: string;
}

export type ProgramFailure = 'not_found' | 'timeout' | 'exit' | 'too_much_output';

/** A program that could not be started, ran too long or exited with a failure. */
export class ProgramError extends Error {
  constructor(
    message: string,
    readonly failure: ProgramFailure,
    /** What the program wrote to standard error (and output), for the caller to read. */
    readonly output: string,
    readonly exitCode: number | null = null,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'ProgramError';
  }
}

const KILL_GRACE_MS = 2000;
const MAX_STDERR_CHARS = 64 * 1024;

/**
 * Runs `command` with `args` as separate arguments (no shell, so nothing in them is ever read as
 * shell syntax) and resolves with its output when it exits with status 0. Camera programs can
 * hang on a camera that stopped answering, so each run has a deadline.
 */
export function runProgram(
  command: string,
  args: string[],
  options: RunOptions,
): Promise<RunResult> {
  const maxOutput = options.maxOutputBytes ?? 64 * 1024 * 1024;
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      ...(options.cwd ? { cwd: options.cwd } : {}),
      env: options.env ? { ...process.env, ...options.env } : process.env,
    });
    if (options.niceness !== undefined && child.pid !== undefined) {
      try {
        os.setPriority(child.pid, options.niceness);
      } catch {
        // Not allowed here (a container's limits): it runs at the agent's priority.
      }
    }
    const chunks: Buffer[] = [];
    let outputBytes = 0;
    let stderr = '';
    let failure: ProgramFailure | undefined;
    let killTimer: NodeJS.Timeout | undefined;

    const stop = (why: ProgramFailure) => {
      if (failure) return;
      failure = why;
      child.kill('SIGTERM');
      // A program stuck in a USB call may ignore SIGTERM.
      killTimer = setTimeout(() => child.kill('SIGKILL'), KILL_GRACE_MS);
      killTimer.unref();
    };
    const deadline = setTimeout(() => stop('timeout'), options.timeoutMs);

    child.stdout.on('data', (chunk: Buffer) => {
      outputBytes += chunk.length;
      if (outputBytes > maxOutput) stop('too_much_output');
      else chunks.push(chunk);
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      if (stderr.length < MAX_STDERR_CHARS) stderr += chunk;
    });

    child.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(deadline);
      clearTimeout(killTimer);
      if (error.code === 'ENOENT') {
        reject(
          new ProgramError(
            `${command} is not installed (not found on PATH)`,
            'not_found',
            '',
            null,
            { cause: error },
          ),
        );
      } else {
        reject(
          new ProgramError(`${command} could not be started: ${error.message}`, 'exit', '', null, {
            cause: error,
          }),
        );
      }
    });
    child.on('close', (code, signal) => {
      clearTimeout(deadline);
      clearTimeout(killTimer);
      const stdout = Buffer.concat(chunks);
      if (failure === 'timeout') {
        return reject(
          new ProgramError(
            `${command} did not finish within ${options.timeoutMs} ms and was stopped`,
            'timeout',
            stderr,
          ),
        );
      }
      if (failure === 'too_much_output') {
        return reject(
          new ProgramError(
            `${command} wrote more than ${maxOutput} bytes`,
            'too_much_output',
            stderr,
          ),
        );
      }
      if (code !== 0) {
        const how =
          code === null ? `was killed (${signal ?? 'signal'})` : `exited with status ${code}`;
        const said = lastLines(stderr || stdout.toString('utf8'));
        return reject(
          new ProgramError(
            `${command} ${how}${said ? `: ${said}` : ''}`,
            'exit',
            `${stderr}\n${stdout.toString('utf8')}`,
            code,
          ),
        );
      }
      resolve({ stdout, stderr });
    });
  });
}

/** The last few meaningful lines of a program's complaint, on one line, for an error message. */
export function lastLines(text: string, count = 3): string {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line.length > 0)
    .slice(-count)
    .join(' / ')
    .slice(0, 300);
}

/** A deadline for a message: "30 s", "0.3 s". */
export const seconds = (ms: number): string => `${Number((ms / 1000).toFixed(1))} s`;

/**
 * Runs `work` with a new empty folder under the system's temporary folder (for a program that
 * writes its photo to a file), and removes the folder and whatever is in it afterwards.
 */
export async function withScratchFolder<T>(
  prefix: string,
  work: (dir: string) => Promise<T>,
): Promise<T> {
  const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
  try {
    return await work(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
