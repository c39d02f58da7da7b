import { timingSafeEqual } from 'node:crypto';
import { mqttTopics } from '@flashbooth/contracts';
import { deviceSecretMatches } from '../../security/device-credentials.js';

export type MqttAction = 'publish' | 'subscribe';

/** User name of the server's own MQTT client on the embedded broker. */
export const SERVER_MQTT_USERNAME = 'flashbooth-server';
/** Client ids of server instances start with this; no device may take one. */
export const SERVER_CLIENT_ID_PREFIX = 'flashbooth-server';

const THING_NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;
const REPLY_TOPIC = /^flashbooth\/server\/[A-Za-z0-9_-]{1,64}\/replies$/;

/**
 * The topic rule for a device (its user name is its thing name): it may publish its own status
 * and error reports and replies to any server instance's reply topic, and subscribe to its own
 * commands and settings only. Only the server publishes settings and commands. Wildcards never
 * match a device's rule because the comparisons are exact.
 */
export function deviceMayUse(thingName: string, topic: string, action: MqttAction): boolean {
  if (!THING_NAME.test(thingName)) return false;
  if (action === 'subscribe') {
    return topic === mqttTopics.commands(thingName) || topic === mqttTopics.settings(thingName);
  }
  return (
    topic === mqttTopics.status(thingName) ||
    topic === mqttTopics.errors(thingName) ||
    REPLY_TOPIC.test(topic)
  );
}

export interface ServerCredentials {
  username: string;
  password: string;
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * Who may connect and what they may do: used by the embedded broker's hooks and by the HTTP
 * auth/ACL hooks an external broker calls, so both enforce exactly the same rules.
 */
export class MqttAccess {
  constructor(
    private readonly server: ServerCredentials | undefined,
    private readonly findSecretHash: (thingName: string) => Promise<string | undefined>,
  ) {}

  isServer(username: string | undefined): boolean {
    return this.server !== undefined && username === this.server.username;
  }

  /** The server with its credentials, or a registered device with its secret. */
  async authenticate(
    username: string | undefined,
    password: string | undefined,
    clientId?: string,
  ): Promise<boolean> {
    if (!username || !password) return false;
    if (this.server && username === this.server.username) {
      return sameText(password, this.server.password);
    }
    // A device's client id is its thing name, so it cannot take over another client's session.
    if (clientId !== undefined && clientId !== username) return false;
    if (!THING_NAME.test(username)) return false;
    const hash = await this.findSecretHash(username);
    return hash !== undefined && deviceSecretMatches(password, hash);
  }

  authorize(username: string | undefined, topic: string, action: MqttAction): boolean {
    if (!username) return false;
    if (this.isServer(username)) return true;
    return deviceMayUse(username, topic, action);
  }
}
