import { randomUUID } from 'node:crypto';
import {
  type CaptureCommandPayload,
  CaptureCommandPayloadSchema,
  type DeviceCommandMessage,
  DeviceCommandMessageSchema,
  type DeviceErrorReport,
  type DeviceReplyMessage,
  DeviceSettingsMessageSchema,
  type DeviceStatusMessage,
  DeviceUpdatePayloadSchema,
  mqttTopics,
  PRINTS_LEFT_MAX,
  PRINTS_LEFT_WARNING,
} from '@flashbooth/contracts';
import mqtt, { type MqttClient } from 'mqtt';
import type { Camera } from './camera/camera.js';
import { composePrint } from './compose.js';
import { type AgentLog, consoleLog } from './log.js';
import type { Printer } from './printer/printer.js';
import {
  describeError,
  lowRollMessage,
  rollEmptyMessage,
  sessionFailureMessage,
  type SessionProgress,
  updateFailureMessage,
} from './reports.js';
import { type BoothState, StateFile } from './state.js';
import { printLayout, type Template } from './template.js';
import {
  type InstalledRelease,
  installRelease,
  readCurrentRelease,
  UpdateError,
} from './updater.js';

export interface BoothAgentOptions {
  /** The broker: the server's embedded one (mqtt://host:1884) or the fleet's (MQTT_URL). */
  mqttUrl: string;
  /** The device's serial: its MQTT user name and client id. */
  thingName: string;
  /** The broker password shown once when the device was registered. */
  secret: string;
  camera: Camera;
  printer: Printer;
  /**
   * This build's version. Reported in every status and ping reply unless an installed release
   * (`<releasesDir>/current.json`) names another.
   */
  softwareVersion: string;
  /**
   * Prints left on the roll on the first run (a full roll, 700, when not given); afterwards the
   * state file's count wins.
   */
  printsLeft?: number;
  /**
   * The JSON file that keeps prints left, the applied settings revision, the installed version
   * and unsent error reports across restarts. Without it all of that lives in memory only.
   */
  stateFile?: string;
  /**
   * Where the `update` command installs releases (`<version>/<file>` and `current.json`).
   * Without it the booth refuses updates.
   */
  releasesDir?: string;
  /**
   * Called once a release is installed and `current.json` names it. The running process keeps
   * the old code until its supervisor restarts it (README, "Software updates").
   */
  onUpdated?: (release: InstalledRelease) => void;
  log?: AgentLog;
  /** Clock for command expiry (tests pin it). */
  now?: () => Date;
  /** Wait between reconnection attempts after the broker is lost (default 2 s). */
  reconnectPeriodMs?: number;
  /** How long one connection attempt may take (default 10 s). */
  connectTimeoutMs?: number;
  /**
   * The server's base URL (http://host:port), against which relative upload and foreground URLs
   * are resolved (the local object store hands out relative ones unless PUBLIC_URL is set).
   */
  serverUrl?: string;
  /** Session timings; tests shorten them. */
  timers?: Partial<AgentTimers>;
}

export interface AgentTimers {
  /** The visitor's countdown before each photo (DESIGN 2b: 10 s). */
  countdownMs: number;
  /** Wait before retrying a failed upload (doubled each time). */
  uploadRetryMs: number;
  /** Attempts per upload. */
  uploadAttempts: number;
  /** Fetching the template's foreground and each upload request. */
  httpTimeoutMs: number;
  /** Downloading a release file, body included. */
  releaseDownloadMs: number;
}

const DEFAULT_TIMERS: AgentTimers = {
  countdownMs: 10_000,
  uploadRetryMs: 2000,
  uploadAttempts: 4,
  httpTimeoutMs: 30_000,
  releaseDownloadMs: 15 * 60_000,
};

/**
 * `idle` between sessions; `ready` from the accepted capture through the countdowns and photos
 * (the visitor's screen polls for it); `processing` while composing and printing; `uploading`;
 * `updating` while a release downloads and installs (the visitor's screen treats every status
 * but `idle` as busy); `offline` once stopped (and, through the last will, after a crash).
 */
export type BoothStatus = 'idle' | 'ready' | 'processing' | 'uploading' | 'updating' | 'offline';

export const BOOTH_MESSAGES = {
  busy: 'This photobooth is busy with another session. Please try again in a moment.',
  rollEmpty: 'The photobooth is out of paper. Please ask the staff to refill the printer.',
  foreground: 'The photobooth could not load the template artwork.',
  updateBusy:
    'The photobooth is busy (a capture session or another update). Send the update again once it is idle.',
  updatesDisabled:
    'This photobooth cannot install updates: no releases folder is configured (BOOTH_RELEASES_DIR).',
} as const;

/**
 * Error reports kept while the broker is away; beyond this the oldest are dropped (and logged),
 * so a booth cut off for days neither grows without bound nor floods the log when it returns.
 */
export const MAX_PENDING_REPORTS = 100;

/** MQTT 3.1.1 CONNACK codes 4 and 5 (v5: 134, 135): retrying with the same login cannot help. */
const REFUSED_LOGIN = new Set([4, 5, 134, 135]);

/** Remembered command ids: QoS 1 may deliver a command twice, the booth acts on it once. */
const SEEN_IDS_KEPT = 200;

/** A timestamp as the API writes them: UTC, no zone suffix (DESIGN 2). */
const utcStamp = (date: Date) => date.toISOString().slice(0, 19);

/**
 * The command's deadline in ms, or undefined when it has none or it cannot be read. The
 * contract's timestamps are UTC; one written without a zone suffix is read as UTC too, never as
 * the booth's local time.
 */
export function commandDeadline(expiresAt: string | undefined): number | undefined {
  if (!expiresAt) return undefined;
  const zoned = /(?:z|[+-]\d\d:?\d\d)$/i.test(expiresAt) ? expiresAt : `${expiresAt}Z`;
  const at = Date.parse(zoned);
  return Number.isFinite(at) ? at : undefined;
}

/**
 * The program inside a booth, on its side of the MQTT link (docs/architecture.md, "Devices and
 * the MQTT link"): it logs in as its thing name with its secret, leaves a retained `offline` last
 * will, reports a retained status on connect, and answers the server's commands on their
 * `reply_to` topic with the command's id.
 *
 * Commands: `ping` answers the current status; `capture` (DESIGN 2b) fetches the foreground,
 * accepts, reports `ready`, counts down and takes each photo, composes, prints (one print off the
 * roll), and PUTs the print to every upload URL, then reports `idle`; `update` downloads a
 * release, checks its size and SHA-256 and installs it (updater.ts).
 *
 * Failures that staff must hear about (a failed session, a refused capture for an empty roll,
 * the roll running low, a failed update) go to the device's error log as DeviceErrorReports on
 * the errors topic, queued while the broker is away. Restocks arrive as retained settings.
 */
export class BoothAgent {
  readonly thingName: string;
  readonly camera: Camera;
  readonly printer: Printer;
  private readonly log: AgentLog;
  private readonly now: () => Date;
  private client: MqttClient | undefined;
  private currentStatus: BoothStatus = 'offline';
  /** Everything kept across restarts; saved after every change when there is a state file. */
  private state: BoothState;
  private readonly stateFile: StateFile | undefined;
  private stateLoaded = false;
  private readonly seen = new Set<string>();
  private stopping = false;
  private readonly timers: AgentTimers;
  /** The capture session or software update in progress, if any: one at a time. */
  private session: Promise<void> | undefined;
  /** Set while error reports are being sent; `flushAgain` asks it for another round. */
  private flushing = false;
  private flushAgain = false;

  constructor(private readonly options: BoothAgentOptions) {
    this.thingName = options.thingName;
    this.camera = options.camera;
    this.printer = options.printer;
    this.log = options.log ?? consoleLog();
    this.now = options.now ?? (() => new Date());
    this.timers = { ...DEFAULT_TIMERS, ...options.timers };
    const printsLeft = options.printsLeft ?? PRINTS_LEFT_MAX;
    if (!Number.isInteger(printsLeft) || printsLeft < 0) {
      throw new Error(`printsLeft must be a whole number of at least 0, got ${printsLeft}`);
    }
    this.state = {
      prints_left: printsLeft,
      settings_revision: 0,
      software_version: options.softwareVersion,
      pending_reports: [],
    };
    this.stateFile = options.stateFile ? new StateFile(options.stateFile, this.log) : undefined;
  }

  get status(): BoothStatus {
    return this.currentStatus;
  }

  get printsLeft(): number {
    return this.state.prints_left;
  }

  /** The newest settings revision applied (0: none yet). */
  get settingsRevision(): number {
    return this.state.settings_revision;
  }

  /** The version reported to the server: the installed release's, else this build's. */
  get softwareVersion(): string {
    return this.state.software_version;
  }

  /** Error reports not yet acknowledged by the broker. */
  get pendingReports(): readonly DeviceErrorReport[] {
    return this.state.pending_reports;
  }

  get connected(): boolean {
    return this.client?.connected ?? false;
  }

  /** Resolves when the capture session or update in progress (if any) has ended. */
  async idle(): Promise<void> {
    await this.session;
  }

  private get statusTopic(): string {
    return mqttTopics.status(this.thingName);
  }

  private get commandsTopic(): string {
    return mqttTopics.commands(this.thingName);
  }

  private get settingsTopic(): string {
    return mqttTopics.settings(this.thingName);
  }

  private get errorsTopic(): string {
    return mqttTopics.errors(this.thingName);
  }

  private statusMessage(): DeviceStatusMessage {
    return {
      status: this.currentStatus,
      software_version: this.state.software_version,
      prints_left: this.state.prints_left,
      settings_revision: this.state.settings_revision,
      at: utcStamp(this.now()),
    };
  }

  /**
   * Once, before the first connection: the state file's values replace the first-run defaults,
   * and the installed release (current.json) decides the version reported. The file is written
   * back at once, so an unwritable state file stops the start instead of losing every restock.
   */
  private async loadState(): Promise<void> {
    if (this.stateLoaded) return;
    const saved = this.stateFile ? await this.stateFile.load(this.state) : this.state;
    const installed = this.options.releasesDir
      ? await readCurrentRelease(this.options.releasesDir)
      : undefined;
    const version = installed?.version ?? this.options.softwareVersion;
    if (saved.software_version !== version) {
      this.log.info(
        { from: saved.software_version, to: version },
        'the software version changed since the last run',
      );
    }
    this.state = { ...saved, software_version: version };
    if (this.stateFile) {
      try {
        await this.stateFile.save(this.state);
      } catch (error) {
        throw new Error(
          `Cannot write the booth state file ${this.stateFile.file} (${describeError(error)}): check BOOTH_STATE_FILE and the folder's permissions.`,
          { cause: error },
        );
      }
    }
    this.stateLoaded = true;
  }

  /** Saves the state; a failure is logged, never thrown (a session must not fail for it). */
  private async persist(): Promise<void> {
    if (!this.stateFile) return;
    try {
      await this.stateFile.save(this.state);
    } catch (error) {
      this.log.error(
        { err: error, file: this.stateFile.file },
        'could not save the booth state (prints left may be wrong after a restart)',
      );
    }
  }

  /**
   * Connects and resolves once the booth is subscribed to its commands and has reported `idle`.
   * A broker that is down is retried (a booth may start before its server); a refused login
   * rejects, since retrying the same secret cannot succeed.
   */
  async start(): Promise<void> {
    if (this.client) throw new Error('The booth agent is already started.');
    this.stopping = false;
    await this.loadState();
    const { mqttUrl, thingName, secret, log } = { ...this.options, log: this.log };
    const will = JSON.stringify({ status: 'offline' } satisfies DeviceStatusMessage);
    const client = mqtt.connect(mqttUrl, {
      clientId: thingName,
      username: thingName,
      password: secret,
      clean: true,
      // Subscribed again explicitly on every connect, before the status says idle.
      resubscribe: false,
      reconnectPeriod: this.options.reconnectPeriodMs ?? 2000,
      connectTimeout: this.options.connectTimeoutMs ?? 10_000,
      will: { topic: this.statusTopic, payload: Buffer.from(will), qos: 1, retain: true },
    });
    this.client = client;

    let settle: { resolve: () => void; reject: (error: Error) => void } | undefined;
    const started = new Promise<void>((resolve, reject) => {
      settle = { resolve, reject };
    });

    client.on('connect', () => {
      // Replies and status reports are small: no Nagle delay (docs/benchmarks.md).
      (client.stream as { setNoDelay?: (on: boolean) => unknown } | undefined)?.setNoDelay?.(true);
      this.online(client).then(
        () => {
          log.info({ thingName, url: mqttUrl }, 'booth connected and idle');
          settle?.resolve();
          settle = undefined;
        },
        (error: unknown) => {
          log.error({ err: error, thingName }, 'booth could not come online');
          // Drop the connection: the next attempt subscribes and reports again.
          client.stream.destroy();
        },
      );
    });
    client.on('message', (topic, payload) => {
      if (topic === this.settingsTopic) {
        this.applySettings(payload).catch((error: unknown) =>
          log.error({ err: error, thingName }, 'settings handling failed'),
        );
        return;
      }
      if (topic !== this.commandsTopic) return;
      this.receive(client, payload).catch((error: unknown) =>
        log.error({ err: error, thingName }, 'command handling failed'),
      );
    });
    client.on('error', (error) => {
      const code = (error as { code?: unknown }).code;
      if (typeof code === 'number' && REFUSED_LOGIN.has(code)) {
        log.error({ thingName, url: mqttUrl, code }, 'the broker refused this booth’s login');
        if (settle) {
          settle.reject(
            new Error(
              `The broker at ${mqttUrl} refused the login of ${thingName}: check the thing name and secret.`,
              { cause: error },
            ),
          );
          settle = undefined;
          this.client = undefined;
          client.end(true);
        }
        return;
      }
      log.warn({ err: error, thingName }, 'MQTT error');
    });
    client.on('offline', () => {
      if (!this.stopping) log.warn({ url: mqttUrl }, 'broker unreachable, retrying');
    });

    await started;
  }

  /**
   * On every (re)connection: subscribe to the commands and the settings (the retained settings
   * arrive right after), report the current status, then send the error reports kept meanwhile.
   */
  private async online(client: MqttClient): Promise<void> {
    const granted = await client.subscribeAsync(
      { [this.commandsTopic]: { qos: 1 }, [this.settingsTopic]: { qos: 1 } },
      {},
    );
    const refused = new Set(granted.filter((g) => g.qos === 128).map((g) => g.topic));
    if (refused.has(this.commandsTopic)) {
      throw new Error(`the broker refused the subscription to ${this.commandsTopic}`);
    }
    if (refused.has(this.settingsTopic)) {
      // The booth still works; restocks wait until the broker allows it (its ACL is too old).
      this.log.warn({ topic: this.settingsTopic }, 'the broker refused the settings subscription');
    }
    if (this.currentStatus === 'offline') this.currentStatus = 'idle';
    await this.publishStatus(client);
    if (this.state.prints_left < PRINTS_LEFT_WARNING) {
      this.log.warn(
        { thingName: this.thingName, printsLeft: this.state.prints_left },
        'the paper roll is nearly empty',
      );
    }
    void this.flushReports();
  }

  /**
   * A settings message (retained, so one arrives on every connection). Only a revision newer
   * than the one applied counts: the retained message repeats an applied restock on every
   * reconnect, and the prints printed since must not be undone.
   */
  private async applySettings(payload: Buffer): Promise<void> {
    // An empty retained message clears the topic; there is nothing to apply.
    if (payload.length === 0) return;
    let json: unknown;
    try {
      json = JSON.parse(payload.toString('utf8'));
    } catch {
      this.log.warn({ thingName: this.thingName }, 'ignoring settings that are not JSON');
      return;
    }
    const parsed = DeviceSettingsMessageSchema.safeParse(json);
    if (!parsed.success) {
      this.log.warn(
        { thingName: this.thingName, issues: parsed.error.issues.map((issue) => issue.message) },
        'ignoring malformed settings',
      );
      return;
    }
    const { revision, prints_left: printsLeft } = parsed.data;
    if (revision <= this.state.settings_revision) {
      this.log.debug(
        { revision, applied: this.state.settings_revision },
        'settings already applied',
      );
      return;
    }
    this.state.settings_revision = revision;
    this.state.prints_left = printsLeft;
    this.log.info({ revision, printsLeft }, 'applied new settings (restock)');
    await this.persist();
    await this.publishStatusQuietly();
  }

  private async publishStatus(client: MqttClient): Promise<void> {
    await client.publishAsync(this.statusTopic, JSON.stringify(this.statusMessage()), {
      qos: 1,
      retain: true,
    });
  }

  private async receive(client: MqttClient, payload: Buffer): Promise<void> {
    let json: unknown;
    try {
      json = JSON.parse(payload.toString('utf8'));
    } catch {
      this.log.warn({ thingName: this.thingName }, 'ignoring a command that is not JSON');
      return;
    }
    const parsed = DeviceCommandMessageSchema.safeParse(json);
    if (!parsed.success) {
      this.log.warn(
        { thingName: this.thingName, issues: parsed.error.issues.map((issue) => issue.message) },
        'ignoring a malformed command',
      );
      return;
    }
    const command = parsed.data;
    if (this.seen.has(command.id)) return;
    this.remember(command.id);

    if (this.expired(command)) {
      this.log.info(
        { id: command.id, command: command.command, expires_at: command.expires_at },
        'ignoring an expired command',
      );
      return;
    }
    switch (command.command) {
      case 'ping':
        await this.reply(client, command, {
          status: this.currentStatus,
          software_version: this.state.software_version,
          prints_left: this.state.prints_left,
          // As in the status: whoever stores prints_left can tell a pre-restock count.
          settings_revision: this.state.settings_revision,
        });
        return;
      case 'capture':
        await this.capture(client, command);
        return;
      case 'update':
        await this.update(client, command);
        return;
    }
  }

  private expired(command: DeviceCommandMessage): boolean {
    const deadline = commandDeadline(command.expires_at);
    return deadline !== undefined && deadline < this.now().getTime();
  }

  /** Checks and accepts a capture command, then runs the session in the background. */
  private async capture(client: MqttClient, command: DeviceCommandMessage): Promise<void> {
    const parsed = CaptureCommandPayloadSchema.safeParse(command.payload);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
      this.log.error({ id: command.id, issues }, 'malformed capture command');
      await this.reply(client, command, {
        error: `Invalid capture command (${issues.join('; ')}).`,
      });
      return;
    }
    const payload = parsed.data;
    if (this.session || this.currentStatus !== 'idle') {
      await this.reply(client, command, { error: BOOTH_MESSAGES.busy });
      return;
    }
    if (this.state.prints_left < 1) {
      this.log.error({ id: command.id, printsLeft: this.state.prints_left }, 'roll empty');
      await this.reply(client, command, { error: BOOTH_MESSAGES.rollEmpty });
      this.reportError(rollEmptyMessage(payload.capture_id), {
        captureId: payload.capture_id,
        delivered: [],
      });
      return;
    }
    // Claimed before the first await, so a second capture arriving meanwhile is refused.
    let release!: () => void;
    this.session = new Promise<void>((resolve) => {
      release = resolve;
    });
    this.currentStatus = 'ready';
    let foreground: Buffer | null;
    try {
      // Before accepting: a template the booth cannot render is refused, so the server gives
      // the visitor's entitlement back instead of charging for a print that never comes.
      foreground = payload.template.foreground_url
        ? await this.download(payload.template.foreground_url)
        : null;
    } catch (error) {
      this.log.error({ err: error, captureId: payload.capture_id }, 'foreground fetch failed');
      this.endSession(release);
      await this.reply(client, command, { error: BOOTH_MESSAGES.foreground });
      const progress: SessionProgress = { stage: 'foreground', photo: 0, delivered: [] };
      this.reportError(sessionFailureMessage(payload, progress, error), {
        captureId: payload.capture_id,
        delivered: [],
      });
      return;
    }
    if (this.expired(command)) {
      // The server gave up while the foreground loaded, and has already undone the capture.
      this.log.warn({ captureId: payload.capture_id }, 'capture expired before it was accepted');
      this.endSession(release);
      return;
    }
    await this.reply(client, command, { status: 'accepted' });
    this.log.info(
      { captureId: payload.capture_id, photos: payload.total_captures },
      'capture session started',
    );
    await this.publishStatusQuietly();
    const progress: SessionProgress = { stage: 'camera', photo: 0, delivered: [] };
    void this.runSession(payload, foreground, progress)
      .catch((error: unknown) => {
        this.log.error(
          { err: error, captureId: payload.capture_id, stage: progress.stage },
          'capture session failed',
        );
        this.reportError(sessionFailureMessage(payload, progress, error), {
          captureId: payload.capture_id,
          delivered: [...progress.delivered],
        });
      })
      .finally(() => {
        this.endSession(release);
        void this.publishStatusQuietly();
      });
  }

  private endSession(release: () => void): void {
    if (this.currentStatus !== 'offline') this.currentStatus = 'idle';
    this.session = undefined;
    release();
  }

  /**
   * Countdown and photo per capture, compose, print, upload. `progress` tells the caller where
   * a failure happened and what was already delivered.
   */
  private async runSession(
    payload: CaptureCommandPayload,
    foreground: Buffer | null,
    progress: SessionProgress,
  ) {
    const { countdownMs } = this.timers;
    const photos: Buffer[] = [];
    for (let index = 0; index < payload.total_captures; index += 1) {
      await sleep(countdownMs);
      progress.photo = index;
      photos.push(await this.camera.capture(index));
    }

    progress.stage = 'compose';
    await this.setStatus('processing');
    const template: Template = { ...payload.template, foreground };
    const image = await composePrint(template, photos, {
      onWarning: (message) =>
        this.log.warn({ captureId: payload.capture_id, template: template.id }, message),
    });
    const firstMedia = payload.uploads[0]?.media_id;
    progress.stage = 'print';
    const { jobId } = await this.printer.print({
      image,
      copies: 1,
      strips: printLayout(template).strips,
      jobName: firstMedia !== undefined ? `media-${firstMedia}` : `capture-${payload.capture_id}`,
    });
    const before = this.state.prints_left;
    this.state.prints_left = Math.max(0, before - 1);
    this.log.info({ captureId: payload.capture_id, jobId }, 'printed');
    await this.persist();
    if (this.state.prints_left < PRINTS_LEFT_WARNING) {
      this.log.warn(
        { thingName: this.thingName, printsLeft: this.state.prints_left },
        'the paper roll is nearly empty',
      );
      // Reported when the count crosses the line, not on every print below it; a restock above
      // the line arms it again.
      if (before >= PRINTS_LEFT_WARNING) this.reportError(lowRollMessage(this.state.prints_left));
    }

    // The new prints_left goes out with this status, which is how staff see the roll running low.
    await this.setStatus('uploading');
    for (const upload of payload.uploads) {
      progress.mediaId = upload.media_id;
      progress.stage = 'upload';
      await this.upload(upload.upload_url, upload.content_type, image);
      // The server checks the file and marks the item uploaded (it makes the preview afterwards).
      progress.stage = 'confirm';
      await this.confirmUpload(upload.media_id);
      progress.delivered.push(upload.media_id);
      this.log.info({ captureId: payload.capture_id, mediaId: upload.media_id }, 'uploaded');
    }
  }

  /**
   * The `update` command: refused while busy, answered `up_to_date` for the version already
   * installed; otherwise the release is downloaded, verified and installed (updater.ts) while
   * the booth reports `updating`, and the reply says `updated` once `current.json` names it.
   */
  private async update(client: MqttClient, command: DeviceCommandMessage): Promise<void> {
    const parsed = DeviceUpdatePayloadSchema.safeParse(command.payload);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
      this.log.error({ id: command.id, issues }, 'malformed update command');
      await this.reply(client, command, {
        error: `Invalid update command (${issues.join('; ')}).`,
      });
      return;
    }
    const release = parsed.data;
    const running = this.state.software_version;
    if (release.version === running) {
      await this.reply(client, command, { status: 'up_to_date' });
      return;
    }
    if (this.session || this.currentStatus !== 'idle') {
      await this.reply(client, command, { error: BOOTH_MESSAGES.updateBusy });
      return;
    }
    const releasesDir = this.options.releasesDir;
    if (!releasesDir) {
      this.log.error({ id: command.id }, 'update refused: no releases folder is configured');
      await this.reply(client, command, { error: BOOTH_MESSAGES.updatesDisabled });
      return;
    }
    // Claimed before the first await, like a capture session: one job at a time.
    let done!: () => void;
    this.session = new Promise<void>((resolve) => {
      done = resolve;
    });
    this.currentStatus = 'updating';
    this.log.info({ version: release.version, release: release.release_id }, 'updating');
    await this.publishStatusQuietly();

    let installed: InstalledRelease;
    try {
      installed = await installRelease({
        url: this.resolveUrl(release.url),
        release,
        releasesDir,
        timeoutMs: this.timers.releaseDownloadMs,
        now: this.now(),
      });
    } catch (error) {
      const reason = error instanceof UpdateError ? error.message : describeError(error);
      this.log.error({ err: error, version: release.version }, 'software update failed');
      this.endSession(done);
      await this.publishStatusQuietly();
      await this.reply(client, command, {
        error: `The software update to ${release.version} failed: ${reason}`.slice(0, 1000),
      });
      this.reportError(updateFailureMessage(release, running, reason));
      return;
    }
    this.state.software_version = installed.version;
    await this.persist();
    this.log.info(
      { version: installed.version, file: installed.file },
      'release installed; the booth runs it after a restart',
    );
    this.endSession(done);
    // The new version is in the status before the reply, as the contract asks.
    await this.publishStatusQuietly();
    await this.reply(client, command, { status: 'updated' });
    try {
      this.options.onUpdated?.(installed);
    } catch (error) {
      this.log.error({ err: error }, 'the onUpdated hook failed');
    }
  }

  /**
   * Adds an entry to the device's error log (QoS 1, not retained; `report_id` lets the server
   * ignore a duplicate). It is kept (in the state file too) until the broker acknowledges it,
   * so a report made while the broker is away goes out on the next connection. A session's
   * report names the capture and the media already uploaded and confirmed.
   */
  reportError(
    message: string,
    session?: { captureId: string; delivered: readonly number[] },
  ): DeviceErrorReport {
    const report: DeviceErrorReport = {
      report_id: randomUUID(),
      message: message.slice(0, 4000),
      ...(session
        ? { capture_id: session.captureId, delivered_media_ids: [...session.delivered] }
        : {}),
      at: utcStamp(this.now()),
    };
    this.log.warn({ reportId: report.report_id, captureId: session?.captureId }, message);
    const pending = this.state.pending_reports;
    pending.push(report);
    if (pending.length > MAX_PENDING_REPORTS) {
      const dropped = pending.splice(0, pending.length - MAX_PENDING_REPORTS);
      this.log.error(
        { dropped: dropped.map((entry) => entry.message) },
        'too many unsent error reports: dropped the oldest',
      );
    }
    void this.persist();
    void this.flushReports();
    return report;
  }

  /**
   * Sends the kept error reports, oldest first, one at a time, each removed once the broker
   * acknowledges it. Stops when the connection is gone; `online` calls it again. A publish
   * caught by a dropped connection stays in the MQTT client's own queue, which re-sends it on
   * reconnection and only then settles, so this never sends a report twice itself.
   */
  private async flushReports(): Promise<void> {
    if (this.flushing) {
      this.flushAgain = true;
      return;
    }
    this.flushing = true;
    try {
      do {
        this.flushAgain = false;
        for (;;) {
          const client = this.client;
          const report = this.state.pending_reports[0];
          if (!report || !client?.connected) break;
          await client.publishAsync(this.errorsTopic, JSON.stringify(report), { qos: 1 });
          // By identity: the queue may have dropped its oldest entries meanwhile.
          this.state.pending_reports = this.state.pending_reports.filter(
            (entry) => entry !== report,
          );
          await this.persist();
        }
      } while (this.flushAgain);
    } catch (error) {
      this.log.warn(
        { err: error, pending: this.state.pending_reports.length },
        'error reports not sent yet; kept for the next connection',
      );
    } finally {
      this.flushing = false;
    }
  }

  private async setStatus(status: BoothStatus): Promise<void> {
    if (this.currentStatus === 'offline') return;
    this.currentStatus = status;
    await this.publishStatusQuietly();
  }

  /** A status report that cannot fail the session (the broker may be away for a moment). */
  private async publishStatusQuietly(): Promise<void> {
    const client = this.client;
    if (!client?.connected) return;
    try {
      await withTimeout(this.publishStatus(client), 5000);
    } catch (error) {
      this.log.warn({ err: error }, 'status report failed');
    }
  }

  private resolveUrl(url: string): URL {
    try {
      return new URL(url, this.options.serverUrl);
    } catch (error) {
      throw new Error(
        this.options.serverUrl
          ? `Invalid URL "${url}"`
          : `The server sent the relative URL "${url}" but no server URL is configured (BOOTH_SERVER_URL)`,
        { cause: error },
      );
    }
  }

  private async download(url: string): Promise<Buffer> {
    const response = await fetch(this.resolveUrl(url), {
      signal: AbortSignal.timeout(this.timers.httpTimeoutMs),
    });
    if (!response.ok) throw new Error(`GET foreground: HTTP ${response.status}`);
    return Buffer.from(await response.arrayBuffer());
  }

  /** PUT with retries: a venue network drops now and then, and the link stays valid. */
  private async upload(url: string, contentType: string, body: Buffer): Promise<void> {
    const target = this.resolveUrl(url);
    const { uploadAttempts, uploadRetryMs, httpTimeoutMs } = this.timers;
    let lastError: unknown;
    for (let attempt = 1; attempt <= uploadAttempts; attempt += 1) {
      try {
        const response = await fetch(target, {
          method: 'PUT',
          headers: { 'content-type': contentType },
          body: new Uint8Array(body),
          signal: AbortSignal.timeout(httpTimeoutMs),
        });
        if (response.ok) return;
        const text = (await response.text().catch(() => '')).slice(0, 200);
        lastError = new Error(`PUT upload: HTTP ${response.status} ${text}`.trim());
        // A refused link (expired, wrong type, too large) will not start working.
        if (response.status >= 400 && response.status < 500 && response.status !== 429) break;
      } catch (error) {
        lastError = error;
      }
      if (attempt < uploadAttempts) await sleep(uploadRetryMs * 2 ** (attempt - 1));
    }
    throw lastError instanceof Error ? lastError : new Error(String(lastError));
  }

  /** POST /api/device/media/{id}/uploaded as this booth (`Authorization: Device thing:secret`). */
  private async confirmUpload(mediaId: number): Promise<void> {
    if (!this.options.serverUrl) {
      throw new Error('Cannot confirm uploads: no server URL is configured (BOOTH_SERVER_URL)');
    }
    const target = new URL(`/api/device/media/${mediaId}/uploaded`, this.options.serverUrl);
    const { uploadAttempts, uploadRetryMs, httpTimeoutMs } = this.timers;
    let lastError: unknown;
    for (let attempt = 1; attempt <= uploadAttempts; attempt += 1) {
      try {
        const response = await fetch(target, {
          method: 'POST',
          headers: { authorization: `Device ${this.options.thingName}:${this.options.secret}` },
          signal: AbortSignal.timeout(httpTimeoutMs),
        });
        if (response.ok) return;
        const text = (await response.text().catch(() => '')).slice(0, 200);
        lastError = new Error(`Confirm upload: HTTP ${response.status} ${text}`.trim());
        // 409: the object is not visible yet (eventual consistency): worth another try.
        if (response.status >= 400 && response.status < 500 && response.status !== 409) break;
      } catch (error) {
        lastError = error;
      }
      if (attempt < uploadAttempts) await sleep(uploadRetryMs * 2 ** (attempt - 1));
    }
    throw lastError instanceof Error ? lastError : new Error(String(lastError));
  }

  private async reply(
    client: MqttClient,
    command: DeviceCommandMessage,
    body: Omit<DeviceReplyMessage, 'id'>,
  ): Promise<void> {
    const reply: DeviceReplyMessage = { id: command.id, ...body };
    await client.publishAsync(command.reply_to, JSON.stringify(reply), { qos: 1 });
  }

  private remember(id: string): void {
    this.seen.add(id);
    if (this.seen.size > SEEN_IDS_KEPT) {
      const oldest = this.seen.values().next().value;
      if (oldest !== undefined) this.seen.delete(oldest);
    }
  }

  /**
   * Reports `offline` (retained; a clean DISCONNECT does not fire the last will) and
   * disconnects. Safe to call more than once.
   */
  async stop(timeoutMs = 3000): Promise<void> {
    const client = this.client;
    this.client = undefined;
    this.stopping = true;
    if (!client) return;
    this.currentStatus = 'offline';
    if (this.session) this.log.warn({ thingName: this.thingName }, 'stopping during a session');
    try {
      if (client.connected) {
        try {
          await withTimeout(this.publishStatus(client), timeoutMs);
          await withTimeout(client.endAsync(false), timeoutMs);
          this.log.info({ thingName: this.thingName }, 'booth offline');
          return;
        } catch (error) {
          this.log.warn({ err: error, thingName: this.thingName }, 'could not report offline');
        }
      }
      // Not connected (or stuck): drop the socket; the broker publishes the last will.
      await client.endAsync(true);
    } finally {
      // The last state write lands before the process (or the next agent on this file) goes on.
      await this.stateFile?.settled();
    }
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
