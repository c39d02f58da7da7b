import {
  DEVICE_MESSAGES,
  type DeviceCommand,
  type DeviceErrorReport,
  type DeviceReplyMessage,
  type DeviceSettingsMessage,
  type DeviceStatusMessage,
} from '@flashbooth/contracts';
import { AppError } from '../../errors.js';

export type StatusHandler = (
  thingName: string,
  status: DeviceStatusMessage,
) => Promise<void> | void;

export type ErrorReportHandler = (
  thingName: string,
  report: DeviceErrorReport,
) => Promise<void> | void;

/**
 * The server's line to the booths: commands as request/response with correlation ids and a
 * timeout, the booths' status and error reports, and the retained settings the server publishes.
 * One implementation (MQTT) serves the embedded broker and any external one; tests may pass
 * their own.
 */
export interface DeviceLink {
  readonly kind: 'embedded' | 'external' | 'test';
  /**
   * Where a client on this machine reaches the broker once started: for the embedded broker the
   * port it actually bound (MQTT_PORT=0 picks one), so the in-process demo booth can connect.
   */
  readonly brokerUrl?: string | undefined;
  /** Connects (and, embedded, starts the broker). */
  start(): Promise<void>;
  /** Rejects every pending request, disconnects (and stops the embedded broker). */
  stop(): Promise<void>;
  /**
   * Sends a command and resolves with the booth's reply. Rejects with `service_unavailable`
   * (`DEVICE_MESSAGES.noAnswer`) when no reply arrives within `timeoutMs`, and with
   * `unprocessable` carrying the booth's text when the booth answers with an error.
   */
  request(
    thingName: string,
    command: DeviceCommand,
    payload: Record<string, unknown>,
    timeoutMs: number,
  ): Promise<DeviceReplyMessage>;
  /**
   * Whether the broker knows the booth is away, so a command cannot reach it: no connection of
   * that client id (embedded broker), or its last status was `offline` (its last will). A ping
   * then answers at once instead of after the timeout. Links that cannot tell leave it out.
   */
  isAway?(thingName: string): boolean | Promise<boolean>;
  /**
   * Called for every status report this instance is to record: every report, retained ones
   * included (so a restart catches up); or, while `reportsSplit`, each live report on one instance
   * of the group and the retained ones on each instance as it connects.
   */
  onStatus(handler: StatusHandler): void;
  /**
   * True while each live status report reaches one instance only (an MQTT shared subscription,
   * MQTT_SHARE_GROUP): a change recorded from a report must then be told to the other instances.
   * False or absent: every instance hears every report itself.
   */
  readonly reportsSplit?: boolean;
  /** Called for every well-formed error report (possibly twice: QoS 1). */
  onErrorReport(handler: ErrorReportHandler): void;
  /**
   * Publishes the booth's settings retained (QoS 1), so a booth that is away gets them when it
   * reconnects. Rejects when the broker does not take the message.
   */
  publishSettings(thingName: string, settings: DeviceSettingsMessage): Promise<void>;
  /** Throws when the broker is not reachable (health). */
  ping(): Promise<void>;
}

export const noAnswer = (cause?: unknown) =>
  new AppError('service_unavailable', DEVICE_MESSAGES.noAnswer, { cause });
