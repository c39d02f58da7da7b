import { randomUUID } from 'node:crypto';
import {
  type DeviceCommand,
  type DeviceCommandMessage,
  DeviceErrorReportSchema,
  type DeviceReplyMessage,
  DeviceReplyMessageSchema,
  type DeviceSettingsMessage,
  DeviceStatusMessageSchema,
  mqttTopics,
} from '@flashbooth/contracts';
import type { FastifyBaseLogger } from 'fastify';
import mqtt, { type IConnackPacket, type IPublishPacket, type MqttClient } from 'mqtt';
import { AppError } from '../../errors.js';
import {
  type DeviceLink,
  type ErrorReportHandler,
  noAnswer,
  type StatusHandler,
} from './device-link.js';
import type { EmbeddedBroker } from './embedded-broker.js';
import { SERVER_CLIENT_ID_PREFIX } from './mqtt-access.js';

export interface MqttDeviceLinkOptions {
  /** An external broker's URL; ignored when `broker` is given. */
  url?: string | undefined;
  /** The embedded broker, started before and stopped after the client. */
  broker?: EmbeddedBroker;
  username?: string | undefined;
  password?: string | undefined;
  /** Names this instance's reply topic; several instances share one broker. */
  instanceId?: string;
  /**
   * An external broker shared by several instances (MQTT_SHARE_GROUP): the live status reports
   * are recorded through an MQTT 5 shared subscription of this group, so by one instance each.
   * Ignored with the embedded broker (one instance).
   */
  shareGroup?: string | undefined;
  log: FastifyBaseLogger;
  /** How long start() waits for the first connection (external brokers keep retrying after). */
  connectTimeoutMs?: number;
}

interface Pending {
  resolve: (reply: DeviceReplyMessage) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/**
 * MQTT 5 subscription identifiers with a share group: the live reports to record come through
 * the shared subscription; the retained ones through a plain subscription each instance holds for
 * a moment as it connects; a booth's retained status, when asked whether it is away, through a
 * subscription to its status topic held until it arrived.
 */
const RECORD = 1;
const CATCH_UP = 2;
const LOOK_UP = 3;
/** How long the catch-up subscription stays (a broker may send the retained ones a little late). */
const CATCH_UP_MS = 2000;
/** How long a look-up waits for the retained status (none: the booth never reported). */
const LOOK_UP_MS = 500;
/** A SUBACK code of 128 or more refuses the topic (3.1.1: 128; MQTT 5: 0x80 to 0xA2). */
const refusedGrant = (granted: { topic: string; qos: number }[] | undefined) =>
  granted?.find((grant) => grant.qos >= 128);

const STATUS_TOPIC = /^flashbooth\/devices\/([^/]+)\/status$/;
const ERRORS_TOPIC = /^flashbooth\/devices\/([^/]+)\/errors$/;
/** How long publishSettings waits for the broker's acknowledgement. */
const PUBLISH_TIMEOUT_MS = 5000;

/** The MQTT implementation of DeviceLink: the same code for the embedded and external brokers. */
export class MqttDeviceLink implements DeviceLink {
  readonly kind: 'embedded' | 'external';
  readonly instanceId: string;
  private client: MqttClient | undefined;
  private readonly pending = new Map<string, Pending>();
  private readonly handlers: StatusHandler[] = [];
  private readonly errorHandlers: ErrorReportHandler[] = [];
  private stopped = false;
  private subscribed = false;
  /** The current connection records status reports through the shared subscription. */
  private split = false;
  /**
   * Each booth's last reported status (retained ones and last wills included), while this
   * instance hears every report (not split).
   */
  private readonly lastStatus = new Map<string, string>();
  /** Look-ups of a booth's retained status in progress (split), by thing name. */
  private readonly lookUps = new Map<
    string,
    { status: Promise<string | undefined>; found: (status: string | undefined) => void }
  >();
  private catchUpTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: MqttDeviceLinkOptions) {
    this.kind = options.broker ? 'embedded' : 'external';
    this.instanceId = options.instanceId ?? randomUUID().replace(/-/g, '');
  }

  get replyTopic(): string {
    return mqttTopics.replies(this.instanceId);
  }

  get reportsSplit(): boolean {
    return this.split;
  }

  /** The broker URL the server's client uses. */
  get url(): string {
    if (this.options.broker) return this.options.broker.url;
    if (!this.options.url) throw new Error('MQTT_URL is not set');
    return this.options.url;
  }

  /** The embedded broker's URL with the port it bound, or MQTT_URL. */
  get brokerUrl(): string {
    return this.url;
  }

  async isAway(thingName: string): Promise<boolean> {
    const { broker } = this.options;
    // The embedded broker sees the connections themselves; an external one tells us only what
    // the booth last published, its last will included: heard here, or (split: this instance
    // hears only its share of the reports) asked of the broker, whose retained status it is.
    if (broker) return !broker.isConnected(thingName);
    const status = this.split
      ? await this.retainedStatus(thingName)
      : this.lastStatus.get(thingName);
    return status?.toLowerCase() === 'offline';
  }

  /**
   * The booth's retained status, from a subscription to its status topic held until the broker
   * sent it (or LOOK_UP_MS passed: none, or the broker is slow; then the booth is not known to
   * be away and a command finds out). Concurrent look-ups of one booth share one.
   */
  private retainedStatus(thingName: string): Promise<string | undefined> {
    const current = this.lookUps.get(thingName);
    if (current) return current.status;
    const client = this.client;
    if (!client?.connected) return Promise.resolve(undefined);
    let found!: (status: string | undefined) => void;
    const status = new Promise<string | undefined>((resolve) => {
      found = resolve;
    });
    const lookUp = { status, found };
    this.lookUps.set(thingName, lookUp);
    const timer = setTimeout(() => found(undefined), LOOK_UP_MS);
    const topic = mqttTopics.status(thingName);
    void (async () => {
      try {
        await client.subscribeAsync(topic, {
          qos: 0,
          properties: { subscriptionIdentifier: LOOK_UP },
        });
        await status;
        await client.unsubscribeAsync(topic);
      } catch {
        found(undefined);
      } finally {
        clearTimeout(timer);
        // Kept until unsubscribed: a look-up meanwhile shares this fresh answer.
        if (this.lookUps.get(thingName) === lookUp) this.lookUps.delete(thingName);
      }
    })();
    return status;
  }

  onStatus(handler: StatusHandler): void {
    this.handlers.push(handler);
  }

  onErrorReport(handler: ErrorReportHandler): void {
    this.errorHandlers.push(handler);
  }

  async start(): Promise<void> {
    const { broker, log } = this.options;
    if (broker) await broker.start();
    const shareGroup = broker ? undefined : this.options.shareGroup;
    const client = mqtt.connect(this.url, {
      clientId: `${SERVER_CLIENT_ID_PREFIX}-${this.instanceId}`,
      ...(this.options.username ? { username: this.options.username } : {}),
      ...(this.options.password ? { password: this.options.password } : {}),
      // Shared subscriptions and subscription identifiers are MQTT 5's.
      ...(shareGroup ? { protocolVersion: 5 as const } : {}),
      clean: true,
      resubscribe: false,
      reconnectPeriod: 1000,
      connectTimeout: 5000,
    });
    this.client = client;
    const ready = new Promise<void>((resolve, reject) => {
      client.on('connect', (connack) => {
        // Commands and replies are small: send each at once instead of waiting for the peer's
        // delayed ACK (Nagle), which cost ~40 ms per hop (docs/benchmarks.md).
        noDelay(client);
        this.subscribed = false;
        this.split = false;
        this.subscribe(client, shareGroup, connack).then(
          () => {
            this.subscribed = true;
            log.info(
              {
                url: this.url,
                instanceId: this.instanceId,
                shareGroup: this.split ? shareGroup : undefined,
              },
              'device link connected',
            );
            resolve();
          },
          (error: unknown) => {
            log.error({ err: error }, 'MQTT subscription refused');
            reject(error as Error);
          },
        );
      });
    });
    client.on('error', (error) => {
      // An MQTT 3.1.1 broker answers an MQTT 5 connection "unacceptable protocol version".
      const code = (error as { code?: number }).code;
      if (shareGroup && (code === 1 || code === 132)) {
        log.error(
          { url: this.url },
          'the MQTT broker does not speak MQTT 5: MQTT_SHARE_GROUP needs it (Mosquitto 1.6 or later), or leave MQTT_SHARE_GROUP unset',
        );
      }
    });
    client.on('message', (topic, payload, packet) => this.receive(topic, payload, packet));
    client.on('error', (error) => log.warn({ err: error }, 'MQTT client error'));
    client.on('offline', () => log.warn({ url: this.url }, 'MQTT broker unreachable, retrying'));

    const timeoutMs = this.options.connectTimeoutMs ?? 5000;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
    });
    try {
      const outcome = await Promise.race([ready, timeout]);
      if (outcome === 'timeout') {
        // The embedded broker is in this process: not reaching it is a real failure. An external
        // broker may come later; the client keeps retrying and the health check says so.
        if (broker) throw new Error(`cannot connect to the embedded MQTT broker at ${this.url}`);
        log.warn(
          { url: this.url },
          'MQTT broker not reachable yet; devices are offline until it is',
        );
      }
    } catch (error) {
      await this.stop();
      throw error;
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * The subscriptions of one connection. Without a share group: every status and error report
   * and this instance's replies. With one: the replies and every error report (rare; written once
   * by report id), every status report to observe (which booths are away) and, shared with the
   * group, the status reports to record. A broker that refuses the shared subscription, or
   * cannot say which subscription a message came through, leaves every instance recording every
   * report, as without a group.
   */
  private async subscribe(
    client: MqttClient,
    shareGroup: string | undefined,
    connack: IConnackPacket,
  ): Promise<void> {
    const { log } = this.options;
    const granted = async (
      topics: string[],
      properties?: { subscriptionIdentifier: number },
    ): Promise<void> => {
      const grants = await client.subscribeAsync(topics, {
        qos: 1,
        ...(properties ? { properties } : {}),
      });
      const refused = refusedGrant(grants);
      if (refused) throw new Error(`MQTT subscription refused: ${refused.topic} (${refused.qos})`);
    };
    const capable =
      connack.properties?.sharedSubscriptionAvailable !== false &&
      connack.properties?.subscriptionIdentifiersAvailable !== false;
    if (!shareGroup || !capable) {
      if (shareGroup) {
        log.error(
          { shareGroup },
          'the MQTT broker has no shared subscriptions or subscription identifiers: every instance records every status report',
        );
      }
      await granted([mqttTopics.allStatuses, mqttTopics.allErrors, this.replyTopic]);
      return;
    }
    await granted([mqttTopics.allErrors, this.replyTopic]);
    // Split before the shared subscription is asked for: its messages may be handled before
    // the acknowledgement's continuation runs.
    this.split = true;
    try {
      await granted([`$share/${shareGroup}/${mqttTopics.allStatuses}`], {
        subscriptionIdentifier: RECORD,
      });
    } catch (error) {
      this.split = false;
      log.error(
        { err: error, shareGroup },
        'MQTT shared subscription refused: every instance records every status report',
      );
      await granted([mqttTopics.allStatuses]);
      return;
    }
    // Catching up: the retained statuses (each booth's last report, or its last will), recorded
    // by each instance as it connects, as without a group; then every live report again reaches
    // this instance only when the group hands it over.
    await granted([mqttTopics.allStatuses], { subscriptionIdentifier: CATCH_UP });
    clearTimeout(this.catchUpTimer);
    this.catchUpTimer = setTimeout(() => {
      if (client.connected) client.unsubscribeAsync(mqttTopics.allStatuses).catch(() => undefined);
    }, CATCH_UP_MS);
    this.catchUpTimer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.catchUpTimer);
    for (const [id, pending] of this.pending) {
      clearTimeout(pending.timer);
      pending.reject(noAnswer(new Error('the device link stopped')));
      this.pending.delete(id);
    }
    const client = this.client;
    this.client = undefined;
    if (client) await client.endAsync(true);
    await this.options.broker?.stop();
  }

  async ping(): Promise<void> {
    if (!this.client?.connected || !this.subscribed) {
      throw new Error(`MQTT broker ${this.url} is not connected`);
    }
  }

  request(
    thingName: string,
    command: DeviceCommand,
    payload: Record<string, unknown>,
    timeoutMs: number,
  ): Promise<DeviceReplyMessage> {
    const client = this.client;
    if (!client || this.stopped) return Promise.reject(noAnswer());
    const id = randomUUID();
    return new Promise<DeviceReplyMessage>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(noAnswer(new Error(`${command} to ${thingName} timed out after ${timeoutMs} ms`)));
      }, timeoutMs);
      this.pending.set(id, { resolve, reject, timer });
      const message: DeviceCommandMessage = {
        id,
        command,
        payload,
        reply_to: this.replyTopic,
        expires_at: new Date(Date.now() + timeoutMs).toISOString(),
      };
      client.publish(
        mqttTopics.commands(thingName),
        JSON.stringify(message),
        { qos: 1 },
        (error) => {
          if (!error) return;
          const pending = this.pending.get(id);
          if (!pending) return;
          clearTimeout(pending.timer);
          this.pending.delete(id);
          pending.reject(noAnswer(error));
        },
      );
    });
  }

  /**
   * Retained, QoS 1. Fails fast while the broker is unreachable rather than queueing: the caller
   * has already stored the settings, and the next status from the booth re-publishes them.
   */
  async publishSettings(thingName: string, settings: DeviceSettingsMessage): Promise<void> {
    const client = this.client;
    if (!client?.connected || this.stopped) {
      throw new Error(`MQTT broker ${this.url} is not connected`);
    }
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        client.publishAsync(mqttTopics.settings(thingName), JSON.stringify(settings), {
          qos: 1,
          retain: true,
        }),
        new Promise((_, reject) => {
          timer = setTimeout(
            () => reject(new Error(`settings for ${thingName} not acknowledged in time`)),
            PUBLISH_TIMEOUT_MS,
          );
        }),
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  private receive(topic: string, payload: Buffer, packet?: IPublishPacket): void {
    const { log } = this.options;
    if (topic === this.replyTopic) {
      const reply = DeviceReplyMessageSchema.safeParse(parseJson(payload));
      if (!reply.success) {
        log.warn({ topic }, 'ignoring a malformed device reply');
        return;
      }
      const pending = this.pending.get(reply.data.id);
      if (!pending) return; // too late, or another request's duplicate
      clearTimeout(pending.timer);
      this.pending.delete(reply.data.id);
      if (reply.data.error) pending.reject(new AppError('unprocessable', reply.data.error));
      else pending.resolve(reply.data);
      return;
    }
    const errors = ERRORS_TOPIC.exec(topic);
    if (errors) {
      this.receiveErrorReport(errors[1]!, payload);
      return;
    }
    const match = STATUS_TOPIC.exec(topic);
    if (!match) return;
    if (payload.length === 0) return; // a cleared retained message
    const thingName = match[1]!;
    const via = this.split ? subscriptionsOf(packet) : undefined;
    if (via?.includes(LOOK_UP)) {
      const reported = (parseJson(payload) as { status?: unknown } | undefined)?.status;
      this.lookUps.get(thingName)?.found(typeof reported === 'string' ? reported : undefined);
    }
    // Split: the live reports are recorded from the shared subscription (one instance), the
    // retained ones from the catch-up (each instance as it connects; Mosquitto also sends them
    // to a shared subscription, other brokers do not). A copy naming no subscription is recorded.
    const record = !via || (packet?.retain ? via.includes(CATCH_UP) : via.includes(RECORD));
    if (!record) return;
    const status = DeviceStatusMessageSchema.safeParse(parseJson(payload));
    if (!status.success) {
      log.warn({ topic }, 'ignoring a malformed device status');
      return;
    }
    if (!this.split) this.lastStatus.set(thingName, status.data.status);
    for (const handler of this.handlers) {
      Promise.resolve()
        .then(() => handler(thingName, status.data))
        .catch((error: unknown) =>
          log.error({ err: error, thingName }, 'device status handler failed'),
        );
    }
  }

  private receiveErrorReport(thingName: string, payload: Buffer): void {
    const { log } = this.options;
    if (payload.length === 0) return;
    const report = DeviceErrorReportSchema.safeParse(parseJson(payload));
    if (!report.success) {
      log.warn({ thingName }, 'dropping a malformed device error report');
      return;
    }
    for (const handler of this.errorHandlers) {
      Promise.resolve()
        .then(() => handler(thingName, report.data))
        .catch((error: unknown) =>
          log.error(
            { err: error, thingName, reportId: report.data.report_id },
            'device error report handler failed',
          ),
        );
    }
  }
}

/** The subscription identifiers a message came through (MQTT 5); none: undefined. */
function subscriptionsOf(packet: IPublishPacket | undefined): number[] | undefined {
  const ids = packet?.properties?.subscriptionIdentifier;
  if (ids === undefined) return undefined;
  return Array.isArray(ids) ? ids : [ids];
}

function parseJson(payload: Buffer): unknown {
  try {
    return JSON.parse(payload.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** Turns Nagle's algorithm off on the client's TCP (or TLS) socket, when it has one. */
function noDelay(client: MqttClient): void {
  const stream = client.stream as { setNoDelay?: (on: boolean) => unknown } | undefined;
  stream?.setNoDelay?.(true);
}
