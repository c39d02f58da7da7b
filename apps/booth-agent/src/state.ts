import { randomUUID } from 'node:crypto';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { type DeviceErrorReport, DeviceErrorReportSchema } from '@flashbooth/contracts';
import type { AgentLog } from './log.js';

/**
 * What a booth keeps across restarts (README, "Running a booth against any server"). Stored as
 * one small JSON file with these snake_case fields plus `format` and `saved_at`.
 */
export interface BoothState {
  /** Prints left on the roll. */
  prints_left: number;
  /** The newest settings revision applied (0: none yet); reported in every status. */
  settings_revision: number;
  /** The software version installed, reported as `software_version`. */
  software_version: string;
  /**
   * Error reports the broker has not acknowledged yet, oldest first: a report made just before
   * a power cut still reaches the device's error log (it may decide a visitor's refund).
   */
  pending_reports: DeviceErrorReport[];
  /** When the server last confirmed one of the booth's uploads (UTC), reported in its health. */
  last_delivery_at?: string | null;
  /**
   * The agent's last start (its status reports' `order.boot`): each start takes a larger one,
   * even when the clock went back (a Raspberry Pi without a clock, before the network time).
   */
  last_boot?: number;
}

/** Bumped when the file's meaning changes; a file of another format is not trusted. */
const STATE_FORMAT = 1;

/**
 * Writes `data` to `file` so that a reader (or a restart after a power cut) sees either the old
 * or the new content, never a mix: a flushed temporary file in the same folder, renamed over it.
 */
export async function writeFileAtomically(file: string, data: string | Buffer): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`;
  try {
    const handle = await open(temp, 'w');
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

const isCount = (value: unknown): value is number =>
  typeof value === 'number' && Number.isInteger(value) && value >= 0;

/**
 * The state in `json`, or the reason it is not a valid state. Queued reports that no longer
 * match the contract are dropped rather than condemning the whole file.
 */
function parseState(json: unknown): BoothState | string {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return 'not an object';
  const data = json as Record<string, unknown>;
  if (data.format !== STATE_FORMAT) return `unknown format ${JSON.stringify(data.format)}`;
  if (!isCount(data.prints_left)) return 'prints_left is not a whole number of at least 0';
  if (!isCount(data.settings_revision)) {
    return 'settings_revision is not a whole number of at least 0';
  }
  if (typeof data.software_version !== 'string' || data.software_version === '') {
    return 'software_version is missing';
  }
  const queued = Array.isArray(data.pending_reports) ? data.pending_reports : [];
  const pending = queued.flatMap((report) => {
    const parsed = DeviceErrorReportSchema.safeParse(report);
    return parsed.success ? [parsed.data] : [];
  });
  return {
    prints_left: data.prints_left,
    settings_revision: data.settings_revision,
    software_version: data.software_version,
    pending_reports: pending,
    ...(typeof data.last_delivery_at === 'string'
      ? { last_delivery_at: data.last_delivery_at.slice(0, 40) }
      : {}),
    ...(isCount(data.last_boot) && data.last_boot <= Number.MAX_SAFE_INTEGER
      ? { last_boot: data.last_boot }
      : {}),
  };
}

/** The booth's state file: read once at start, rewritten whole after every change. */
export class StateFile {
  /** The last write queued; writes run one after another, in the order they were asked for. */
  private writing: Promise<void> = Promise.resolve();

  constructor(
    readonly file: string,
    private readonly log: AgentLog,
  ) {}

  /**
   * The saved state, or `defaults` on the first run. A file that cannot be read or understood
   * is logged, kept beside as `<file>.corrupt-<time>` for a technician, and replaced by the
   * defaults: a booth that restarts must come back, even with the wrong roll count (staff can
   * restock it from the console).
   */
  async load(defaults: BoothState): Promise<BoothState> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
        this.log.info({ file: this.file }, 'no booth state file yet: starting from the defaults');
        return defaults;
      }
      this.log.error(
        { file: this.file, err: error, defaults: describeDefaults(defaults) },
        'cannot read the booth state file: starting from the defaults',
      );
      return defaults;
    }
    let problem: string;
    try {
      const parsed = parseState(JSON.parse(text));
      if (typeof parsed !== 'string') return parsed;
      problem = parsed;
    } catch (error) {
      problem = `not JSON (${(error as Error).message})`;
    }
    const aside = `${this.file}.corrupt-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    await rename(this.file, aside).catch(() => undefined);
    this.log.error(
      { file: this.file, problem, keptAs: aside, defaults: describeDefaults(defaults) },
      'the booth state file is corrupt: starting from the defaults (check prints left in the staff console)',
    );
    return defaults;
  }

  /** Queues a write of `state` as it is now; resolves once it is on disk. */
  save(state: BoothState): Promise<void> {
    const text = `${JSON.stringify(
      { format: STATE_FORMAT, ...state, saved_at: new Date().toISOString() },
      null,
      2,
    )}\n`;
    const write = this.writing.then(() => writeFileAtomically(this.file, text));
    this.writing = write.catch(() => undefined);
    return write;
  }

  /** Resolves once every write asked for so far has finished (or failed). */
  async settled(): Promise<void> {
    await this.writing;
  }
}

function describeDefaults(state: BoothState) {
  return {
    prints_left: state.prints_left,
    settings_revision: state.settings_revision,
    software_version: state.software_version,
  };
}
