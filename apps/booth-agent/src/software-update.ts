import { type DeviceCommandMessage, DeviceUpdatePayloadSchema } from '@flashbooth/contracts';
import type { AgentLog } from './log.js';
import { BOOTH_MESSAGES, type Reply } from './replies.js';
import type { ReportOutbox } from './report-outbox.js';
import { describeError, updateFailureMessage } from './reports.js';
import type { BoothState } from './state.js';
import type { StatusBoard } from './status.js';
import { type InstalledRelease, installRelease, UpdateError } from './updater.js';

export interface SoftwareUpdateOptions {
  /**
   * Where releases are installed (`<version>/<file>` and `current.json`). Without it the booth
   * refuses updates.
   */
  releasesDir?: string;
  /** Downloading a release file, body included. */
  releaseDownloadMs: number;
  /** Called once a release is installed and `current.json` names it. */
  onUpdated?: (release: InstalledRelease) => void;
  board: StatusBoard;
  /** The version reported; saved once a release is installed. */
  store: { readonly state: BoothState; persist(): Promise<void> };
  outbox: Pick<ReportOutbox, 'report'>;
  /** A release URL as an absolute URL (a relative one is the server's). */
  resolveUrl: (url: string) => URL;
  /** Downloads, verifies and installs (updater.ts; tests pass a stand-in). */
  install?: typeof installRelease;
  now: () => Date;
  log: AgentLog;
}

/**
 * The `update` command: refused while busy, answered `up_to_date` for the version already
 * installed; otherwise the release is downloaded, verified and installed (updater.ts) while the
 * booth reports `updating`, and the reply says `updated` once `current.json` names it. A failure
 * is answered with an error and goes to the device's error log; the old version stays.
 */
export class SoftwareUpdate {
  constructor(private readonly options: SoftwareUpdateOptions) {}

  async handle(command: DeviceCommandMessage, reply: Reply): Promise<void> {
    const { board, store, outbox, log } = this.options;
    const parsed = DeviceUpdatePayloadSchema.safeParse(command.payload);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
      log.error({ id: command.id, issues }, 'malformed update command');
      await reply({ error: `Invalid update command (${issues.join('; ')}).` });
      return;
    }
    const release = parsed.data;
    const running = store.state.software_version;
    if (release.version === running) {
      await reply({ status: 'up_to_date' });
      return;
    }
    if (!board.free) {
      await reply({ error: BOOTH_MESSAGES.updateBusy });
      return;
    }
    const releasesDir = this.options.releasesDir;
    if (!releasesDir) {
      log.error({ id: command.id }, 'update refused: no releases folder is configured');
      await reply({ error: BOOTH_MESSAGES.updatesDisabled });
      return;
    }
    // Claimed before the first await, like a capture session: one job at a time.
    const end = board.claim('updating');
    log.info({ version: release.version, release: release.release_id }, 'updating');
    await board.publishQuietly();

    let installed: InstalledRelease;
    try {
      const install = this.options.install ?? installRelease;
      installed = await install({
        url: this.options.resolveUrl(release.url),
        release,
        releasesDir,
        timeoutMs: this.options.releaseDownloadMs,
        now: this.options.now(),
      });
    } catch (error) {
      const reason = error instanceof UpdateError ? error.message : describeError(error);
      log.error({ err: error, version: release.version }, 'software update failed');
      end();
      await board.publishQuietly();
      await reply({
        error: `The software update to ${release.version} failed: ${reason}`.slice(0, 1000),
      });
      outbox.report(updateFailureMessage(release, running, reason));
      return;
    }
    store.state.software_version = installed.version;
    await store.persist();
    log.info(
      { version: installed.version, file: installed.file },
      'release installed; the booth runs it after a restart',
    );
    end();
    // The new version is in the status before the reply, as the contract asks.
    await board.publishQuietly();
    await reply({ status: 'updated' });
    try {
      this.options.onUpdated?.(installed);
    } catch (error) {
      log.error({ err: error }, 'the onUpdated hook failed');
    }
  }
}
