import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Config, ConfigError, loadConfig } from './config.js';

/** The integration harness's test configuration (test/harness.ts), without building an app. */
function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    NODE_ENV: 'test',
    AUTH_SECRET: 'test-secret-test-secret-test-secret-0123456789',
    DATA_DIR: path.join(os.tmpdir(), 'flashbooth-config-test'),
    DEMO_DATA: 'false',
    LOG_LEVEL: 'silent',
    ...env,
  });
}

/** As production needs it (SMS by SNS, a payment provider named, the public address), plus `env`. */
function productionTestConfig(env: Record<string, string> = {}): Config {
  return testConfig({
    NODE_ENV: 'production',
    SMS_PROVIDER: 'sns',
    PAYMENT_PROVIDER: 'sandbox',
    PUBLIC_URL: 'https://booths.example.com',
    ...env,
  });
}

describe('configuration', () => {
  it('names every bad variable', () => {
    expect(() => testConfig({ PORT: 'eighty', SUPER_USER_PHONES: '98765' })).toThrow(
      /PORT[\s\S]*SUPER_USER_PHONES/,
    );
  });
  it('requires PUBLIC_URL in production: sign-in links must not follow the Host header', () => {
    expect(() =>
      testConfig({
        NODE_ENV: 'production',
        SMS_PROVIDER: 'sns',
        PAYMENT_PROVIDER: 'sandbox',
      }),
    ).toThrow(/PUBLIC_URL: required when NODE_ENV=production/);
    expect(productionTestConfig().publicUrl).toBe('https://booths.example.com');
  });
  it('requires AUTH_SECRET and an SMS provider in production', () => {
    expect(() => testConfig({ NODE_ENV: 'production', AUTH_SECRET: '' })).toThrow();
    expect(() => testConfig({ NODE_ENV: 'production', AUTH_SECRET: 'x'.repeat(40) })).toThrow(
      /SMS_PROVIDER/,
    );
  });
  it('turns demo data off in production', () => {
    const config = productionTestConfig({ DEMO_DATA: 'true' });
    expect(config.demoData).toBe(false);
  });
});

describe('storage configuration', () => {
  it('defaults to the local store under DATA_DIR/objects', () => {
    const config = testConfig();
    expect(config.storage).toMatchObject({
      driver: 'local',
      localDir: path.join(config.dataDir, 'objects'),
      s3: { region: 'ap-south-1', forcePathStyle: false },
    });
    expect(config.publicUrl).toBeUndefined();
  });
  it('requires a bucket for S3 and names bad values', () => {
    expect(() => testConfig({ STORAGE_DRIVER: 's3' })).toThrow(/S3_BUCKET: required/);
    expect(() =>
      testConfig({ STORAGE_DRIVER: 'disk', S3_ENDPOINT: 'minio:9000', PUBLIC_URL: 'ftp://x' }),
    ).toThrow(/STORAGE_DRIVER[\s\S]*S3_ENDPOINT[\s\S]*PUBLIC_URL/);
  });
});

describe('payment configuration', () => {
  const base = {
    AUTH_SECRET: 'test-secret-test-secret-test-secret-0123456789',
    DATA_DIR: '/tmp/flashbooth-config-test',
  };
  const problems = (env: Record<string, string>) => {
    try {
      loadConfig({ ...base, ...env });
      return '';
    } catch (error) {
      if (error instanceof ConfigError) return error.message;
      throw error;
    }
  };

  it('uses the sandbox by default outside production only', () => {
    expect(loadConfig({ ...base, NODE_ENV: 'development' }).payments.provider).toBe('sandbox');
    expect(problems({ NODE_ENV: 'production', SMS_PROVIDER: 'sns' })).toContain(
      'PAYMENT_PROVIDER: required when NODE_ENV=production',
    );
    const explicit = loadConfig({
      ...base,
      NODE_ENV: 'production',
      SMS_PROVIDER: 'sns',
      PAYMENT_PROVIDER: 'sandbox',
      PUBLIC_URL: 'https://booths.example.com',
    });
    expect(explicit.payments.provider).toBe('sandbox');
  });

  it('names every missing PhonePe variable and every bad payment value', () => {
    const message = problems({ PAYMENT_PROVIDER: 'phonepe', PHONEPE_CLIENT_ID: 'abc' });
    for (const name of [
      'PHONEPE_CLIENT_SECRET',
      'PHONEPE_WEBHOOK_USERNAME',
      'PHONEPE_WEBHOOK_PASSWORD',
    ]) {
      expect(message).toContain(`${name}: required when PAYMENT_PROVIDER=phonepe`);
    }
    expect(message).not.toContain('PHONEPE_CLIENT_ID');
    expect(problems({ PAYMENT_PROVIDER: 'stripe' })).toContain('PAYMENT_PROVIDER');
    expect(problems({ PAYMENT_EXPIRE_AFTER_SECONDS: '60' })).toContain(
      'PAYMENT_EXPIRE_AFTER_SECONDS',
    );
    expect(problems({ PAYMENT_RETURN_ORIGINS: 'https://a.example/path' })).toContain(
      'PAYMENT_RETURN_ORIGINS',
    );
    expect(problems({ PHONEPE_API_URL: 'ftp://x' })).toContain('PHONEPE_API_URL');
  });

  it('picks PhonePe production hosts in production unless told otherwise', () => {
    const phonepe = {
      PAYMENT_PROVIDER: 'phonepe',
      PHONEPE_CLIENT_ID: 'id',
      PHONEPE_CLIENT_SECRET: 'secret',
      PHONEPE_WEBHOOK_USERNAME: 'user_name',
      PHONEPE_WEBHOOK_PASSWORD: 'passw0rd1',
    };
    const production = loadConfig({
      ...base,
      ...phonepe,
      NODE_ENV: 'production',
      SMS_PROVIDER: 'sns',
      PUBLIC_URL: 'https://booths.example.com',
    });
    expect(production.payments.phonepe?.env).toBe('production');
    expect(loadConfig({ ...base, ...phonepe }).payments.phonepe?.env).toBe('sandbox');
  });

  it('reads the delivery deadline and the retention periods, with their defaults', () => {
    const defaults = testConfig();
    expect(defaults.captures.deliveryDeadlineMs).toBe(60 * 60_000);
    expect(defaults.retention).toEqual({ mediaDays: 365, paymentRecordYears: 8 });
    const set = testConfig({
      DELIVERY_DEADLINE_MINUTES: '0',
      MEDIA_RETENTION_DAYS: '30',
      PAYMENT_RECORD_RETENTION_YEARS: '10',
    });
    expect(set.captures.deliveryDeadlineMs).toBe(0);
    expect(set.retention).toEqual({ mediaDays: 30, paymentRecordYears: 10 });
    expect(() =>
      testConfig({ DELIVERY_DEADLINE_MINUTES: '-1', MEDIA_RETENTION_DAYS: '0' }),
    ).toThrow(/DELIVERY_DEADLINE_MINUTES[\s\S]*MEDIA_RETENTION_DAYS/);
  });
});

describe('privacy configuration', () => {
  it('reads the invitation lifetime and the data export settings, with their defaults', () => {
    expect(testConfig().privacy).toEqual({
      inviteTtlDays: 14,
      dataExportTtlHours: 72,
      dataExportSweepIntervalMs: 30_000,
    });
    expect(
      testConfig({
        INVITE_TTL_DAYS: '3',
        DATA_EXPORT_TTL_HOURS: '24',
        DATA_EXPORT_SWEEP_INTERVAL_MS: '5000',
      }).privacy,
    ).toEqual({ inviteTtlDays: 3, dataExportTtlHours: 24, dataExportSweepIntervalMs: 5000 });
  });
  it('refuses an export link longer than the store can sign (7 days) and invitations that never expire', () => {
    expect(() => testConfig({ DATA_EXPORT_TTL_HOURS: '169', INVITE_TTL_DAYS: '0' })).toThrow(
      /INVITE_TTL_DAYS[\s\S]*DATA_EXPORT_TTL_HOURS|DATA_EXPORT_TTL_HOURS[\s\S]*INVITE_TTL_DAYS/,
    );
  });
  it('leaves the metrics off by default and reads their port, address and token', () => {
    expect(testConfig().metrics).toEqual({ port: undefined, host: '127.0.0.1', token: undefined });
    expect(
      testConfig({
        METRICS_PORT: '9464',
        METRICS_HOST: '0.0.0.0',
        METRICS_TOKEN: 'metrics-token-0123456789',
      }).metrics,
    ).toEqual({ port: 9464, host: '0.0.0.0', token: 'metrics-token-0123456789' });
  });
  it('refuses a short metrics token and a port out of range', () => {
    expect(() => testConfig({ METRICS_TOKEN: 'short', METRICS_PORT: '70000' })).toThrow(
      /METRICS_PORT[\s\S]*METRICS_TOKEN|METRICS_TOKEN[\s\S]*METRICS_PORT/,
    );
  });
  it("reads the object store's own keys, both or neither", () => {
    expect(testConfig().storage.s3.credentials).toBeUndefined();
    expect(
      testConfig({ S3_ACCESS_KEY_ID: 'GK0123456789abcdef01234567', S3_SECRET_ACCESS_KEY: 's3cret' })
        .storage.s3.credentials,
    ).toEqual({ accessKeyId: 'GK0123456789abcdef01234567', secretAccessKey: 's3cret' });
    expect(() => testConfig({ S3_ACCESS_KEY_ID: 'GK0123456789abcdef01234567' })).toThrow(
      /S3_ACCESS_KEY_ID \/ S3_SECRET_ACCESS_KEY: set both, or neither/,
    );
  });
  it('shares the status reports among the instances only on an external broker, by a plain group name', () => {
    expect(testConfig().mqtt.shareGroup).toBeUndefined();
    expect(
      testConfig({ MQTT_URL: 'mqtt://broker:1883', MQTT_SHARE_GROUP: 'flashbooth' }).mqtt
        .shareGroup,
    ).toBe('flashbooth');
    expect(() => testConfig({ MQTT_SHARE_GROUP: 'flashbooth' })).toThrow(
      /MQTT_SHARE_GROUP: needs an external broker \(MQTT_URL\)/,
    );
    expect(() => testConfig({ MQTT_URL: 'mqtt://broker:1883', MQTT_SHARE_GROUP: 'a/+' })).toThrow(
      /MQTT_SHARE_GROUP/,
    );
  });
});
