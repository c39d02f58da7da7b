import {
  type DeviceErrorReport,
  type DeviceStatusMessage,
  mqttTopics,
} from '@flashbooth/contracts';
import mqtt, { type MqttClient } from 'mqtt';
import type { AgentLog } from './log.js';
import { withTimeout } from './time.js';

/** MQTT 3.1.1 CONNACK codes 4 and 5 (v5: 134, 135): retrying with the same login cannot help. */
const REFUSED_LOGIN = new Set([4, 5, 134, 135]);

/**
 * What the booth publishes through one MQTT client. A command is answered through the client
 * that delivered it.
 */
export interface BoothChannel {
  readonly connected: boolean;
  /** The retained status (QoS 1). */
  publishStatus(message: DeviceStatusMessage): Promise<void>;
  /** An entry for the device's error log (QoS 1, not retained). */
  publishReport(report: DeviceErrorReport): Promise<void>;
  /** A reply to a command (QoS 1). */
  publish(topic: string, body: string): Promise<void>;
}

export interface ConnectionOptions {
  /** The broker: the server's embedded one (mqtt://host:1884) or the fleet's (MQTT_URL). */
  mqttUrl: string;
  /** The device's serial: its MQTT user name and client id. */
  thingName: string;
  /** The broker password shown once when the device was registered. */
  secret: string;
  /** Wait between reconnection attempts after the broker is lost (default 2 s). */
  reconnectPeriodMs?: number;
  /** How long one connection attempt may take (default 10 s). */
  connectTimeoutMs?: number;
  /**
   * This start's boot number, asked once `prepare` has run (the state file's; without it, the
   * clock's milliseconds): the first part of every status report's `order`.
   */
  boot?: () => number;
  log: AgentLog;
}

export interface ConnectionHandlers {
  /**
   * Every (re)connection, once subscribed: report the status and whatever waited for the
   * broker. A rejection drops the connection, so the next attempt subscribes and reports again.
   */
  online(channel: BoothChannel): Promise<void>;
  /** A message on the commands topic. */
  command(payload: Buffer, channel: BoothChannel): Promise<void>;
  /** A message on the settings topic (retained, so one arrives on every connection). */
  settings(payload: Buffer): Promise<void>;
}

/**
 * The booth's side of the MQTT link (docs/reference/server.md, "Devices and the MQTT link"): it logs
 * in as its thing name with its secret, leaves a retained `offline` last will, subscribes to its
 * commands and settings on every connection and hands their messages to the handlers.
 */
export class BoothConnection {
  private client: MqttClient | undefined;
  private stopping = false;
  private readonly log: AgentLog;
  /** The status reports' order (StatusOrderSchema): boot, connection attempt, report. */
  private boot = 0;
  private connectionNumber = 0;
  private seq = 0;

  constructor(
    private readonly options: ConnectionOptions,
    private readonly handlers: ConnectionHandlers,
  ) {
    this.log = options.log;
  }

  /** Between `start` and `stop`, connected or not. */
  get started(): boolean {
    return this.client !== undefined;
  }

  get connected(): boolean {
    return this.client?.connected ?? false;
  }

  /** The channel of the client in use; undefined before `start` and after `stop`. */
  current(): BoothChannel | undefined {
    return this.client ? this.channel(this.client) : undefined;
  }

  private get topics() {
    const thing = this.options.thingName;
    return {
      status: mqttTopics.status(thing),
      commands: mqttTopics.commands(thing),
      settings: mqttTopics.settings(thing),
      errors: mqttTopics.errors(thing),
    };
  }

  private channel(client: MqttClient): BoothChannel {
    const { status, errors } = this.topics;
    return {
      get connected() {
        return client.connected;
      },
      publishStatus: async (message) => {
        const order = { boot: this.boot, connection: this.connectionNumber, seq: ++this.seq };
        await client.publishAsync(status, JSON.stringify({ ...message, order }), {
          qos: 1,
          retain: true,
        });
      },
      publishReport: async (report) => {
        await client.publishAsync(errors, JSON.stringify(report), { qos: 1 });
      },
      publish: async (topic, body) => {
        await client.publishAsync(topic, body, { qos: 1 });
      },
    };
  }

  /**
   * Runs `prepare`, then connects and resolves once the booth is subscribed to its commands and
   * `online` has run. A broker that is down is retried (a booth may start before its server); a
   * refused login rejects, since retrying the same secret cannot succeed.
   */
  async start(prepare: () => Promise<void>): Promise<void> {
    if (this.client) throw new Error('The booth agent is already started.');
    this.stopping = false;
    await prepare();
    const { mqttUrl, thingName, secret } = this.options;
    const log = this.log;
    const topics = this.topics;
    this.boot = this.options.boot?.() ?? Date.now();
    this.connectionNumber += 1;
    const client = mqtt.connect(mqttUrl, {
      clientId: thingName,
      username: thingName,
      password: secret,
      clean: true,
      // Subscribed again explicitly on every connect, before the status says idle.
      resubscribe: false,
      reconnectPeriod: this.options.reconnectPeriodMs ?? 2000,
      connectTimeout: this.options.connectTimeoutMs ?? 10_000,
      will: this.will(),
    });
    this.client = client;
    // Each attempt leaves its own will, ordered after that connection's reports and before the
    // next one's (the client sends its options' will with every CONNECT).
    client.on('reconnect', () => {
      this.connectionNumber += 1;
      client.options.will = this.will();
    });

    let settle: { resolve: () => void; reject: (error: Error) => void } | undefined;
    const started = new Promise<void>((resolve, reject) => {
      settle = { resolve, reject };
    });

    client.on('connect', () => {
      // Replies and status reports are small: no Nagle delay (docs/benchmarks.md).
      (client.stream as { setNoDelay?: (on: boolean) => unknown } | undefined)?.setNoDelay?.(true);
      this.subscribe(client)
        .then(() => this.handlers.online(this.channel(client)))
        .then(
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
      if (topic === topics.settings) {
        this.handlers
          .settings(payload)
          .catch((error: unknown) =>
            log.error({ err: error, thingName }, 'settings handling failed'),
          );
        return;
      }
      if (topic !== topics.commands) return;
      this.handlers
        .command(payload, this.channel(client))
        .catch((error: unknown) => log.error({ err: error, thingName }, 'command handling failed'));
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

  /** The last will of the current connection attempt: offline, retained. */
  private will() {
    const message: DeviceStatusMessage = {
      status: 'offline',
      order: { boot: this.boot, connection: this.connectionNumber },
    };
    return {
      topic: this.topics.status,
      payload: Buffer.from(JSON.stringify(message)),
      qos: 1 as const,
      retain: true,
    };
  }

  /** Commands and settings; a refused settings subscription still lets the booth work. */
  private async subscribe(client: MqttClient): Promise<void> {
    const { commands, settings } = this.topics;
    const granted = await client.subscribeAsync(
      { [commands]: { qos: 1 }, [settings]: { qos: 1 } },
      {},
    );
    const refused = new Set(granted.filter((g) => g.qos === 128).map((g) => g.topic));
    if (refused.has(commands)) {
      throw new Error(`the broker refused the subscription to ${commands}`);
    }
    if (refused.has(settings)) {
      // The booth still works; restocks wait until the broker allows it (its ACL is too old).
      this.log.warn({ topic: settings }, 'the broker refused the settings subscription');
    }
  }

  /**
   * Publishes `lastStatus()` (retained; a clean DISCONNECT does not fire the last will) and
   * disconnects; a broker that is away or stuck gets the socket dropped, and publishes the last
   * will. Safe to call more than once.
   */
  async stop(timeoutMs: number, lastStatus: () => DeviceStatusMessage): Promise<void> {
    const client = this.client;
    this.client = undefined;
    this.stopping = true;
    if (!client) return;
    const thingName = this.options.thingName;
    if (client.connected) {
      try {
        await withTimeout(this.channel(client).publishStatus(lastStatus()), timeoutMs);
        await withTimeout(client.endAsync(false), timeoutMs);
        this.log.info({ thingName }, 'booth offline');
        return;
      } catch (error) {
        this.log.warn({ err: error, thingName }, 'could not report offline');
      }
    }
    await client.endAsync(true);
  }
}
