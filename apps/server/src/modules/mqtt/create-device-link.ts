import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import { EmbeddedBroker } from './embedded-broker.js';
import { MqttAccess, SERVER_MQTT_USERNAME } from './mqtt-access.js';
import { MqttDeviceLink } from './mqtt-device-link.js';

export interface DeviceLinkSetup {
  link: MqttDeviceLink;
  /** The rules the embedded broker enforces and the HTTP hooks answer with. */
  access: MqttAccess;
}

/**
 * The configured link: the embedded broker with the server's client on a random per-process
 * password, or the same client on the external broker at MQTT_URL.
 */
export function createDeviceLink(
  config: Config,
  findSecretHash: (thingName: string) => Promise<string | undefined>,
  log: FastifyBaseLogger,
): DeviceLinkSetup {
  if (config.mqtt.url) {
    const server =
      config.mqtt.username && config.mqtt.password
        ? { username: config.mqtt.username, password: config.mqtt.password }
        : undefined;
    const access = new MqttAccess(server, findSecretHash);
    const link = new MqttDeviceLink({
      url: config.mqtt.url,
      username: config.mqtt.username,
      password: config.mqtt.password,
      shareGroup: config.mqtt.shareGroup,
      log,
    });
    return { link, access };
  }
  const credentials = {
    username: SERVER_MQTT_USERNAME,
    password: randomBytes(32).toString('base64url'),
  };
  const access = new MqttAccess(credentials, findSecretHash);
  const broker = new EmbeddedBroker({
    port: config.mqtt.port,
    host: config.mqtt.host,
    access,
    log,
  });
  const link = new MqttDeviceLink({ broker, ...credentials, log });
  return { link, access };
}
