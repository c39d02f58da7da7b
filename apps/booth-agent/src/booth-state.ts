import type { AgentLog } from './log.js';
import { describeError } from './reports.js';
import { type BoothState, StateFile } from './state.js';
import { readCurrentRelease } from './updater.js';

export interface BoothStateStoreOptions {
  /** Prints left on the first run; afterwards the state file's count wins. */
  printsLeft: number;
  /** This build's version, reported unless an installed release names another. */
  buildVersion: string;
  /** The state file; without it everything lives in memory only. */
  stateFile?: string;
  /** The clock (tests); the boot number starts from it. */
  now?: () => Date;
  /** Where releases are installed (`current.json` names the installed one). */
  releasesDir?: string;
  log: AgentLog;
}

/**
 * The booth's state (prints left, applied settings revision, installed version, unsent error
 * reports) and its file: loaded once before the first connection, saved after every change.
 */
export class BoothStateStore {
  /** Everything kept across restarts; the parts of the agent change it and then `persist`. */
  state: BoothState;
  private readonly file: StateFile | undefined;
  private loaded = false;

  constructor(private readonly options: BoothStateStoreOptions) {
    const { printsLeft } = options;
    if (!Number.isInteger(printsLeft) || printsLeft < 0) {
      throw new Error(`printsLeft must be a whole number of at least 0, got ${printsLeft}`);
    }
    this.state = {
      prints_left: printsLeft,
      settings_revision: 0,
      software_version: options.buildVersion,
      pending_reports: [],
    };
    this.file = options.stateFile ? new StateFile(options.stateFile, options.log) : undefined;
  }

  /**
   * Once: the state file's values replace the first-run defaults, and the installed release
   * (current.json) decides the version reported. The file is written back at once, so an
   * unwritable state file stops the start instead of losing every restock.
   */
  async load(): Promise<void> {
    if (this.loaded) return;
    const { releasesDir, buildVersion, log } = this.options;
    const saved = this.file ? await this.file.load(this.state) : this.state;
    const installed = releasesDir ? await readCurrentRelease(releasesDir) : undefined;
    const version = installed?.version ?? buildVersion;
    if (saved.software_version !== version) {
      log.info(
        { from: saved.software_version, to: version },
        'the software version changed since the last run',
      );
    }
    // This start's boot number: the clock's milliseconds, or one past the last start's when the
    // clock is behind it (so every report of this run orders after the last run's).
    const clock = (this.options.now?.() ?? new Date()).getTime();
    const boot = Math.max(clock, (saved.last_boot ?? 0) + 1);
    this.state = { ...saved, software_version: version, last_boot: boot };
    if (this.file) {
      try {
        await this.file.save(this.state);
      } catch (error) {
        throw new Error(
          `Cannot write the booth state file ${this.file.file} (${describeError(error)}): check BOOTH_STATE_FILE and the folder's permissions.`,
          { cause: error },
        );
      }
    }
    this.loaded = true;
  }

  /** This start's boot number (status reports' `order.boot`); set by `load`. */
  get boot(): number {
    if (!this.loaded || this.state.last_boot === undefined) {
      throw new Error('the booth state is not loaded yet');
    }
    return this.state.last_boot;
  }

  /** Saves the state; a failure is logged, never thrown (a session must not fail for it). */
  async persist(): Promise<void> {
    if (!this.file) return;
    try {
      await this.file.save(this.state);
    } catch (error) {
      this.options.log.error(
        { err: error, file: this.file.file },
        'could not save the booth state (prints left may be wrong after a restart)',
      );
    }
  }

  /** Resolves once every write asked for so far has landed (or failed). */
  async settled(): Promise<void> {
    await this.file?.settled();
  }
}
