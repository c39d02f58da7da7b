import { createServer, type AddressInfo, type Server } from 'node:net';
import { Aedes, type AuthenticateError, type Client } from 'aedes';
import type { FastifyBaseLogger } from 'fastify';
import type { MqttAccess } from './mqtt-access.js';
import { StartupError } from '../../config.js';

/** MQTT CONNACK return code 4 (3.1.1) / "bad user name or password". */
const BAD_USERNAME_OR_PASSWORD = 4;

export interface EmbeddedBrokerOptions {
  port: number;
  host: string;
  access: MqttAccess;
  log: FastifyBaseLogger;
}

/**
 * Aedes on a TCP port (MQTT_URL absent): every connection is authenticated and every publish
 * and subscribe authorized by `MqttAccess`. In-memory persistence: retained statuses are
 * rebuilt as the booths reconnect and publish again.
 */
export class EmbeddedBroker {
  private broker: Aedes | undefined;
  private server: Server | undefined;
  /** The user name each connection authenticated with. */
  private readonly usernames = new WeakMap<Client, string>();
  /** The open connections by client id (a booth's is its thing name). */
  private readonly connected = new Map<string, Client>();

  constructor(private readonly options: EmbeddedBrokerOptions) {}

  /** The port actually bound (MQTT_PORT=0 picks a free one). */
  get port(): number {
    const address = this.server?.address() as AddressInfo | null | undefined;
    if (!address) throw new Error('the embedded MQTT broker is not listening');
    return address.port;
  }

  /** Where a client on this machine reaches the broker. */
  get url(): string {
    const host = this.options.host;
    const local = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
    return `mqtt://${local.includes(':') ? `[${local}]` : local}:${this.port}`;
  }

  async start(): Promise<void> {
    const { access, log } = this.options;
    const broker = await Aedes.createBroker({
      authenticate: (client, username, password, done) => {
        access
          .authenticate(username, password?.toString('utf8'), client.id)
          .then((ok) => {
            if (ok && username) {
              this.usernames.set(client, username);
              done(null, true);
              return;
            }
            log.warn({ username, clientId: client.id }, 'MQTT connection refused');
            const error = Object.assign(new Error('Bad user name or password'), {
              returnCode: BAD_USERNAME_OR_PASSWORD,
            }) as AuthenticateError;
            done(error, false);
          })
          .catch((error: unknown) => {
            log.error({ err: error }, 'MQTT authentication failed');
            done(Object.assign(new Error('Server unavailable'), { returnCode: 3 }) as never, false);
          });
      },
      authorizePublish: (client, packet, done) => {
        // No client: the broker's own messages ($SYS).
        if (!client || access.authorize(this.usernames.get(client), packet.topic, 'publish')) {
          done(null);
          return;
        }
        log.warn({ clientId: client.id, topic: packet.topic }, 'MQTT publish refused');
        done(new Error('Not authorized to publish to this topic'));
      },
      authorizeSubscribe: (client, subscription, done) => {
        if (access.authorize(this.usernames.get(client), subscription.topic, 'subscribe')) {
          done(null, subscription);
          return;
        }
        log.warn({ clientId: client.id, topic: subscription.topic }, 'MQTT subscribe refused');
        done(null, null);
      },
    });
    broker.on('client', (client) => this.connected.set(client.id, client));
    broker.on('clientDisconnect', (client) => {
      // A client that took over the id (a booth reconnecting) already replaced this one.
      if (this.connected.get(client.id) === client) this.connected.delete(client.id);
    });
    broker.on('clientError', (client, error) => {
      log.debug({ clientId: client.id, err: error }, 'MQTT client error');
    });
    // Small request/response messages: Nagle's algorithm would hold each one back for the
    // peer's delayed ACK (about 40 ms per hop, measured by npm run bench:capture).
    const server = createServer({ noDelay: true }, broker.handle);
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(this.options.port, this.options.host, () => {
          server.off('error', reject);
          resolve();
        });
      });
    } catch (error) {
      await new Promise<void>((resolve) => broker.close(() => resolve()));
      throw new StartupError(
        'MQTT_PORT',
        `The embedded MQTT broker cannot listen on ${this.options.host}:${this.options.port} (MQTT_PORT): ${(error as Error).message}`,
        { cause: error },
      );
    }
    this.broker = broker;
    this.server = server;
    log.info({ url: this.url }, 'embedded MQTT broker listening');
  }

  /** Whether a client with this id (a booth: its thing name) has a connection open now. */
  isConnected(clientId: string): boolean {
    return this.connected.has(clientId);
  }

  async stop(): Promise<void> {
    const { broker, server } = this;
    this.broker = undefined;
    if (broker) await new Promise<void>((resolve) => broker.close(() => resolve()));
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
    this.server = undefined;
    this.connected.clear();
  }
}
