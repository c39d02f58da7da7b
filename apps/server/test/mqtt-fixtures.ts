import { connect as netConnect } from 'node:net';
import { mqttTopics } from '@flashbooth/contracts';
import mqtt, { type MqttClient } from 'mqtt';

/** The external broker the MQTT tests also run against (anonymous access on the dev and CI machines). */
export const MOSQUITTO_URL = process.env.TEST_MOSQUITTO_URL ?? 'mqtt://127.0.0.1:1883';
/** In CI the Mosquitto runs must happen: an unreachable broker fails the run instead of skipping. */
export const REQUIRE_MOSQUITTO = process.env.CI === 'true' || process.env.REQUIRE_MOSQUITTO === '1';

async function reachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = netConnect({ host: hostname, port: Number(port || 1883) });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1500, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** True when a broker accepts TCP connections at MOSQUITTO_URL; the external broker runs skip otherwise. */
export const mosquittoAvailable = await reachable(MOSQUITTO_URL);
if (!mosquittoAvailable && REQUIRE_MOSQUITTO) {
  throw new Error(
    `Mosquitto is required in CI but ${MOSQUITTO_URL} is not reachable. Start it or set TEST_MOSQUITTO_URL.`,
  );
}
if (!mosquittoAvailable) {
  console.warn(`Mosquitto not reachable at ${MOSQUITTO_URL}: skipping the external broker runs.`);
}

/**
 * Connects as a booth does: client id and user name are its thing name, a clean session, and a
 * retained `offline` status as its last will.
 */
export function connectAsBooth(
  url: string,
  thingName: string,
  secret: string,
): Promise<MqttClient> {
  return mqtt.connectAsync(url, {
    clientId: thingName,
    username: thingName,
    password: secret,
    clean: true,
    reconnectPeriod: 0,
    connectTimeout: 3000,
    will: {
      topic: mqttTopics.status(thingName),
      payload: Buffer.from(JSON.stringify({ status: 'offline' })),
      qos: 1,
      retain: true,
    },
  });
}
