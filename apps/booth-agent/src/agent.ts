import {
  type CaptureCommandPayload,
  CaptureCommandPayloadSchema,
  type DeviceCommandMessage,
  DeviceCommandMessageSchema,
  type DeviceReplyMessage,
  type DeviceStatusMessage,
  mqttTopics,
  PRINTS_LEFT_MAX,
  PRINTS_LEFT_WARNING,
} from '@flashbooth/contracts';
import mqtt, { type MqttClient } from 'mqtt';
import type { Camera } from './camera/camera.js';
import { composePrint } from './compose.js';
import { type AgentLog, consoleLog } from './log.js';
import type { Printer } from './printer/printer.js';
import { printLayout, type Template } from './template.js';

export interface BoothAgentOptions {
  /** The broker: the server's embedded one (mqtt://host:1884) or the fleet's (MQTT_URL). */
  mqttUrl: string;
  /** The device's serial: its MQTT user name and client id. */
  thingName: string;
  /** The broker password shown once when the device was registered. */
  secret: string;
  camera: Camera;
  printer: Printer;
  /** Reported in every status and ping reply. */
  softwareVersion: string;
  /** Prints left on the roll; a full roll (700) when not given. */
  printsLeft?: number;
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
}

const DEFAULT_TIMERS: AgentTimers = {
  countdownMs: 10_000,
  uploadRetryMs: 2000,
  uploadAttempts: 4,
  httpTimeoutMs: 30_000,
};

/**
 * `idle` between sessions; `ready` from the accepted capture through the countdowns and photos
 * (the visitor's screen polls for it); `processing` while composing and printing; `uploading`;
 * `offline` once stopped (and, through the last will, after a crash).
 */
export type BoothStatus = 'idle' | 'ready' | 'processing' | 'uploading' | 'offline';

export const BOOTH_MESSAGES = {
  busy: 'This photobooth is busy with another session. Please try again in a moment.',
  rollEmpty: 'The photobooth is out of paper. Please ask the staff to refill the printer.',
  foreground: 'The photobooth could not load the template artwork.',
} as const;

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
 * roll), and PUTs the print to every upload URL, then reports `idle`. `update` has no payload in
 * the contract yet and is refused with an error reply. The contract has no error topic: session
 * errors go to the log.
 */
export class BoothAgent {
  readonly thingName: string;
  readonly camera: Camera;
  readonly printer: Printer;
  private readonly log: AgentLog;
  private readonly now: () => Date;
  private client: MqttClient | undefined;
  private currentStatus: BoothStatus = 'offline';
  private printsLeftValue: number;
  private readonly seen = new Set<string>();
  private stopping = false;
  private readonly timers: AgentTimers;
  /** The capture session in progress, if any. */
  private session: Promise<void> | undefined;

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
    this.printsLeftValue = printsLeft;
  }

  get status(): BoothStatus {
    return this.currentStatus;
  }

  get printsLeft(): number {
    return this.printsLeftValue;
  }

  get connected(): boolean {
    return this.client?.connected ?? false;
  }

  /** Resolves when the capture session in progress (if any) has ended. */
  async idle(): Promise<void> {
    await this.session;
  }

  private get statusTopic(): string {
    return mqttTopics.status(this.thingName);
  }

  private get commandsTopic(): string {
    return mqttTopics.commands(this.thingName);
  }

  private statusMessage(): DeviceStatusMessage {
    return {
      status: this.currentStatus,
      software_version: this.options.softwareVersion,
      prints_left: this.printsLeftValue,
      at: utcStamp(this.now()),
    };
  }

  /**
   * Connects and resolves once the booth is subscribed to its commands and has reported `idle`.
   * A broker that is down is retried (a booth may start before its server); a refused login
   * rejects, since retrying the same secret cannot succeed.
   */
  async start(): Promise<void> {
    if (this.client) throw new Error('The booth agent is already started.');
    this.stopping = false;
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

  /** On every (re)connection: subscribe to the commands, then report the current status. */
  private async online(client: MqttClient): Promise<void> {
    const granted = await client.subscribeAsync(this.commandsTopic, { qos: 1 });
    if (granted.some((grant) => grant.qos === 128)) {
      throw new Error(`the broker refused the subscription to ${this.commandsTopic}`);
    }
    if (this.currentStatus === 'offline') this.currentStatus = 'idle';
    await this.publishStatus(client);
    if (this.printsLeftValue < PRINTS_LEFT_WARNING) {
      this.log.warn(
        { thingName: this.thingName, printsLeft: this.printsLeftValue },
        'the paper roll is nearly empty',
      );
    }
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
          software_version: this.options.softwareVersion,
          prints_left: this.printsLeftValue,
        });
        return;
      case 'capture':
        await this.capture(client, command);
        return;
      case 'update':
        this.log.warn({ id: command.id }, 'software update is not supported yet');
        await this.reply(client, command, {
          error: `This photobooth cannot install updates yet (booth agent ${this.options.softwareVersion}).`,
        });
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
    if (this.printsLeftValue < 1) {
      this.log.error({ id: command.id, printsLeft: this.printsLeftValue }, 'roll empty');
      await this.reply(client, command, { error: BOOTH_MESSAGES.rollEmpty });
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
    void this.runSession(payload, foreground)
      .catch((error: unknown) =>
        this.log.error({ err: error, captureId: payload.capture_id }, 'capture session failed'),
      )
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

  /** Countdown and photo per capture, compose, print, upload. */
  private async runSession(payload: CaptureCommandPayload, foreground: Buffer | null) {
    const { countdownMs } = this.timers;
    const photos: Buffer[] = [];
    for (let index = 0; index < payload.total_captures; index += 1) {
      await sleep(countdownMs);
      photos.push(await this.camera.capture(index));
    }

    await this.setStatus('processing');
    const template: Template = { ...payload.template, foreground };
    const image = await composePrint(template, photos, {
      onWarning: (message) =>
        this.log.warn({ captureId: payload.capture_id, template: template.id }, message),
    });
    const firstMedia = payload.uploads[0]?.media_id;
    const { jobId } = await this.printer.print({
      image,
      copies: 1,
      strips: printLayout(template).strips,
      jobName: firstMedia !== undefined ? `media-${firstMedia}` : `capture-${payload.capture_id}`,
    });
    this.printsLeftValue = Math.max(0, this.printsLeftValue - 1);
    this.log.info({ captureId: payload.capture_id, jobId }, 'printed');
    if (this.printsLeftValue < PRINTS_LEFT_WARNING) {
      this.log.warn(
        { thingName: this.thingName, printsLeft: this.printsLeftValue },
        'the paper roll is nearly empty',
      );
    }

    // The new prints_left goes out with this status, which is how staff see the roll running low.
    await this.setStatus('uploading');
    for (const upload of payload.uploads) {
      await this.upload(upload.upload_url, upload.content_type, image);
      // The server checks the file, makes the preview and marks the item uploaded.
      await this.confirmUpload(upload.media_id);
      this.log.info({ captureId: payload.capture_id, mediaId: upload.media_id }, 'uploaded');
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
