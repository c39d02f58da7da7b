import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadAgentEnv } from './env.js';

const base = {
  BOOTH_MQTT_URL: 'mqtt://localhost:1884',
  BOOTH_THING_NAME: 'fb-abcdefghij',
  BOOTH_SECRET: 's3cret',
  BOOTH_PRINTER: `simulated:${os.tmpdir()}/spool`,
};

describe('loadAgentEnv: the delivery queue', () => {
  it('keeps the queue in the data folder unless BOOTH_QUEUE_DIR names another', () => {
    const data = path.join(os.tmpdir(), 'booth-data-x');
    const env = loadAgentEnv({ ...base, BOOTH_DATA_DIR: data });
    expect(env.queueDir).toBe(path.join(data, 'queue'));
    expect(env.queueWarnItems).toBe(200);
    expect(env.timers).toEqual({});
    const elsewhere = path.join(os.tmpdir(), 'elsewhere-queue');
    expect(loadAgentEnv({ ...base, BOOTH_QUEUE_DIR: elsewhere }).queueDir).toBe(elsewhere);
  });

  it('reads the warning limit and the test timers, and names bad ones', () => {
    const env = loadAgentEnv({
      ...base,
      BOOTH_QUEUE_WARN_ITEMS: '50',
      BOOTH_COUNTDOWN_MS: '0',
      BOOTH_DELIVERY_RETRY_MS: '100',
      BOOTH_DELIVERY_RETRY_MAX_MS: '1000',
    });
    expect(env.queueWarnItems).toBe(50);
    expect(env.timers).toEqual({ countdownMs: 0, deliveryRetryMs: 100, deliveryRetryMaxMs: 1000 });
    expect(() =>
      loadAgentEnv({ ...base, BOOTH_QUEUE_WARN_ITEMS: 'lots', BOOTH_DELIVERY_RETRY_MS: '-1' }),
    ).toThrow(/BOOTH_QUEUE_WARN_ITEMS: must be a whole number[\s\S]*BOOTH_DELIVERY_RETRY_MS/);
  });
});
