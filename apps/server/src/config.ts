import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { E164_PATTERN } from '@flashbooth/contracts';
import { z } from 'zod';

const bool = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0'])
    .optional()
    .transform((value) => (value === undefined ? fallback : value === 'true' || value === '1'));

/** A whole number (a number's words, not zod's "expected number, received NaN"). */
const wholeNumber = () =>
  z.coerce.number({ error: 'must be a whole number' }).int('must be a whole number');

const positiveInt = (fallback: number) =>
  wholeNumber().positive('must be a whole number above 0').default(fallback);

/** A TCP port; `unset` says what leaving the variable out does. */
const port = (unset: string) => {
  const words = `must be a port number from 0 to 65535 (${unset})`;
  return z.coerce.number({ error: words }).int(words).min(0, words).max(65535, words);
};

/** Environment variables: DESIGN.md's fixed names first, then the product's own. */
const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: port('the HTTP port; leave it unset for 8080, 0 picks a free one').default(8080),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  MQTT_URL: z
    .string()
    .regex(/^mqtts?:\/\/|^wss?:\/\//, 'must be an mqtt:// URL')
    .optional(),
  /** Embedded broker's port (MQTT_URL absent); 1883 is usually a system Mosquitto. 0 = random. */
  MQTT_PORT: port("the embedded broker's port; leave it unset for 1884").optional(),
  MQTT_HOST: z.string().min(1).default('0.0.0.0'),
  /** The server's own credentials on an external broker (MQTT_URL). */
  MQTT_USERNAME: z.string().min(1).optional(),
  MQTT_PASSWORD: z.string().min(1).optional(),
  /**
   * Several instances on an external broker: the name of their MQTT 5 shared subscription, so
   * each booth status report is recorded by one instance of the group instead of by every one
   * (each still sees every report). Needs MQTT 5 and shared subscriptions (Mosquitto 1.6 or
   * later); absent = every instance records every report (any MQTT 3.1.1 broker).
   */
  MQTT_SHARE_GROUP: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be 1-64 letters, digits, _ or -')
    .optional(),
  /** Enables POST /api/mqtt/auth and /api/mqtt/acl for an external broker's HTTP auth plugin. */
  MQTT_HOOK_SECRET: z.string().min(16, 'must be at least 16 characters').optional(),
  /**
   * The broker address booths are told to use (the env block shown when a device is registered).
   * Absent: MQTT_URL, or the embedded broker's port on PUBLIC_URL's (or the request's) host.
   */
  BOOTH_MQTT_PUBLIC_URL: z
    .string()
    .regex(/^mqtts?:\/\/[^/]|^wss?:\/\/[^/]/, 'must be an mqtt://, mqtts://, ws:// or wss:// URL')
    .optional(),
  /** How long the server waits for a booth's reply to a command (ping, capture, update). */
  DEVICE_COMMAND_TIMEOUT_MS: positiveInt(5000),
  /**
   * How long the server waits for a booth to answer a software update: it answers only after
   * downloading, verifying and installing the release (POST devices/{id}/update, 503 after).
   */
  DEVICE_UPDATE_TIMEOUT_MS: positiveInt(300_000),
  /**
   * A capture with nothing uploaded this long after its countdown (accepted_at + total_captures
   * × 10 s) counts as never delivered: the sweep gives the entitlement back. 0 is for tests.
   */
  CAPTURE_DELIVERY_MARGIN_SECONDS: wholeNumber().min(0).default(900),
  /** How often each instance sweeps for undelivered captures. */
  CAPTURE_SWEEP_INTERVAL_MS: positiveInt(60_000),
  /**
   * The delivery promise: a capture the booth took whose items are not all uploaded this long
   * after its countdown ended is a delivery failure (refunded, the visitor told). 0 is for tests.
   */
  DELIVERY_DEADLINE_MINUTES: wholeNumber().min(0).max(10_080).default(60),
  /** Media (and accounts without a sign-in) are deleted this long after they were made. */
  MEDIA_RETENTION_DAYS: positiveInt(365),
  /** Payment records are kept this long (accounts law), without name or phone once erased. */
  PAYMENT_RECORD_RETENTION_YEARS: positiveInt(8),
  /** How often each instance drives the staged rollouts (sends, checks versions, moves waves). */
  ROLLOUT_TICK_MS: positiveInt(2000),
  /** Booths that may fail before a rollout stops itself (a start request may say otherwise). */
  ROLLOUT_MAX_FAILURES: wholeNumber().min(0).max(1000).default(0),
  /** How long a rollout leaves a busy or silent booth before trying it again. */
  ROLLOUT_RETRY_MS: positiveInt(30_000),
  /** A rollout wave not done this long after it began fails its remaining booths. */
  ROLLOUT_WAVE_TIMEOUT_MS: positiveInt(3_600_000),
  /** Low-res previews made at once per instance, after the upload confirmation has answered. */
  MEDIA_PREVIEW_CONCURRENCY: positiveInt(1),
  /** How often each instance looks for uploaded items still without a preview (a crash, a retry). */
  MEDIA_PREVIEW_SWEEP_INTERVAL_MS: positiveInt(30_000),
  /** How long an instance's claim on one preview holds before another instance may take it over. */
  MEDIA_PREVIEW_LEASE_SECONDS: positiveInt(120),
  /** Wall pages each instance keeps until the wall changes (modules/wall/wall-cache.ts); 0 = off. */
  WALL_CACHE_PAGES: wholeNumber().min(0).max(100_000).default(500),
  SUPER_USER_PHONES: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((phone) => phone.trim())
        .filter(Boolean),
    )
    .refine((phones) => phones.every((phone) => E164_PATTERN.test(phone)), {
      message: 'must be comma-separated E.164 numbers like +919876543210',
    }),
  /** Signs access tokens and keys the OTP hashes. Required in production. */
  AUTH_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  ACCESS_TOKEN_TTL_SECONDS: positiveInt(900),
  REFRESH_TOKEN_TTL_DAYS: positiveInt(30),
  OTP_TTL_SECONDS: positiveInt(300),
  OTP_MAX_ATTEMPTS: positiveInt(3),
  /** Codes sent to one phone per window. */
  OTP_SEND_LIMIT_PER_PHONE: positiveInt(5),
  /** Codes requested from one client address per window. */
  OTP_SEND_LIMIT_PER_IP: positiveInt(30),
  OTP_SEND_WINDOW_SECONDS: positiveInt(900),
  /** Failed verifications on one phone (any code) before it is locked for the window. */
  OTP_LOCKOUT_FAILURES: positiveInt(10),
  OTP_LOCKOUT_SECONDS: positiveInt(900),
  /**
   * Wrong codes one phone may try per pool in any rolling 24 hours. With 4-digit codes n wrong
   * codes give a guesser at most n/10,000: 10 keeps it at 1 in 1,000 (docs/security.md).
   */
  OTP_DAILY_FAILURES: wholeNumber()
    .min(1)
    .max(10, 'must be at most 10: more gives a guesser over 1 in 1,000 a day (docs/security.md)')
    .default(10),
  /** Wrong codes in 24 hours after which each further code waits (the pause doubles each time). */
  OTP_BACKOFF_AFTER_FAILURES: positiveInt(5),
  /** The first pause; 0 = none. */
  OTP_BACKOFF_BASE_SECONDS: wholeNumber().min(0).max(3600).default(60),
  /** Country calling codes codes may be sent to (SMS cost): comma-separated, e.g. +91,+94. */
  OTP_ALLOWED_COUNTRY_CODES: z
    .string()
    .default('+91')
    .transform((value) =>
      value
        .split(',')
        .map((code) => code.trim())
        .filter(Boolean),
    )
    .refine((codes) => codes.length > 0 && codes.every((code) => /^\+[1-9]\d{0,2}$/.test(code)), {
      message: 'must be comma-separated country calling codes like +91,+94',
    }),
  /** Codes sent in any rolling hour by all instances together; a warning is logged at 80%. */
  OTP_GLOBAL_HOURLY_LIMIT: positiveInt(1000),
  /** Passkeys: the relying party's id (a domain). Absent: PUBLIC_URL's host name, else localhost. */
  WEBAUTHN_RP_ID: z
    .string()
    .regex(
      /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/,
      'must be a domain name like booths.example.com',
    )
    .optional(),
  /** The name a passkey prompt shows. */
  WEBAUTHN_RP_NAME: z.string().min(1).max(64).default('Flashbooth'),
  /**
   * Origins a passkey may be used on (comma-separated). Absent: PUBLIC_URL's origin, else
   * http://localhost:PORT (plus the Vite dev server, http://localhost:5173, outside production).
   */
  WEBAUTHN_ORIGINS: z
    .string()
    .optional()
    .transform((value) =>
      (value ?? '')
        .split(',')
        .map((origin) => origin.trim().replace(/\/+$/, ''))
        .filter(Boolean),
    )
    .refine((origins) => origins.every((origin) => /^https?:\/\/[^/?#]+$/.test(origin)), {
      message: 'must be comma-separated origins like https://booths.example.com',
    }),
  /**
   * Staff with refund or credit rights (super users, product admins) who have a passkey must sign
   * in with it: code and link sign-ins are refused for them (docs/security.md).
   */
  REQUIRE_PASSKEY_FOR_MONEY_STAFF: bool(false),
  SMS_PROVIDER: z.enum(['outbox', 'sns']).optional(),
  AWS_REGION: z.string().default('ap-south-1'),
  SMS_SENDER_ID: z.string().max(11).optional(),
  DEMO_DATA: bool(true),
  SUPPORT_EMAIL: z.email().default('support@flashbooth.example'),
  PARTNERSHIP_EMAIL: z.email().default('partners@flashbooth.example'),
  DEMO_FORM_URL: z.string().default('/book-a-demo.html'),
  TRUST_PROXY: bool(false),
  COOKIE_SECURE: bool(false).optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  WEB_DIST_DIR: z.string().optional(),
  STORAGE_DRIVER: z.enum(['local', 's3']).default('local'),
  S3_BUCKET: z
    .string()
    .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, 'must be an S3 bucket name')
    .optional(),
  S3_REGION: z.string().min(1).default('ap-south-1'),
  S3_ENDPOINT: z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' }).optional(),
  S3_FORCE_PATH_STYLE: bool(false),
  /**
   * The object store's own keys (a self-hosted S3 such as Garage beside AWS SNS, which reads the
   * AWS variables); absent = the usual AWS credentials chain.
   */
  S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** Base of absolute URLs the server hands out (local object store); absent = relative paths. */
  PUBLIC_URL: z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' }).optional(),
  /** sandbox (a test checkout served here) or phonepe; sandbox by default outside production. */
  PAYMENT_PROVIDER: z.enum(['sandbox', 'phonepe']).optional(),
  /** How long a visitor has to pay once the checkout opens (PhonePe accepts 300..3600). */
  PAYMENT_EXPIRE_AFTER_SECONDS: wholeNumber().min(300).max(3600).default(900),
  /** How often pending payments are checked with the provider; 0 = never (tests call it). */
  PAYMENT_RECONCILE_INTERVAL_SECONDS: wholeNumber().min(0).default(60),
  /**
   * A completed payment no capture used this long after it completed (the booth went offline,
   * the visitor left) becomes credit, so a payment never ends in nothing.
   */
  PAYMENT_UNUSED_CREDIT_MINUTES: wholeNumber().min(1).max(10_080).default(15),
  /** Origins besides this server's own (and PUBLIC_URL's) that a payment may return to. */
  PAYMENT_RETURN_ORIGINS: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((origin) => origin.trim().replace(/\/+$/, ''))
        .filter(Boolean),
    )
    .refine((origins) => origins.every((origin) => /^https?:\/\/[^/?#]+$/.test(origin)), {
      message: 'must be comma-separated origins like https://booths.example.com',
    }),
  PHONEPE_ENV: z.enum(['sandbox', 'production']).optional(),
  PHONEPE_CLIENT_ID: z.string().min(1).optional(),
  PHONEPE_CLIENT_SECRET: z.string().min(1).optional(),
  PHONEPE_CLIENT_VERSION: z.string().regex(/^\d+$/, 'must be a whole number').default('1'),
  PHONEPE_WEBHOOK_USERNAME: z.string().min(1).optional(),
  PHONEPE_WEBHOOK_PASSWORD: z.string().min(1).optional(),
  /** Overrides of PhonePe's hosts (a proxy; a stand-in in tests). */
  PHONEPE_AUTH_URL: z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' }).optional(),
  PHONEPE_API_URL: z.url({ protocol: /^https?$/, message: 'must be an http(s) URL' }).optional(),
  /** An invitation to an organization not answered this long expires (and says so). */
  INVITE_TTL_DAYS: wholeNumber().min(1).max(365).default(14),
  /** How long a "Download my data" ZIP is offered before it is deleted (7 days at most). */
  DATA_EXPORT_TTL_HOURS: wholeNumber().min(1).max(168).default(72),
  /** How often each instance looks for exports to build (a request also starts one at once). */
  DATA_EXPORT_SWEEP_INTERVAL_MS: positiveInt(30_000),
  /** Prometheus metrics on a port of their own (GET /metrics); absent = not on a port. */
  METRICS_PORT: port('leave it unset for no metrics port').optional(),
  /** The metrics port's listen address (a private interface; 0.0.0.0 in a container). */
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  /**
   * A bearer token for the metrics: with it GET /metrics is also served on PORT (and the metrics
   * port asks for it too). Neither this nor METRICS_PORT = no metrics at all.
   */
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
});

export interface Config {
  env: 'development' | 'production' | 'test';
  isProduction: boolean;
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  mqttUrl: string | undefined;
  mqtt: {
    /** Absent = the embedded broker. */
    url: string | undefined;
    /** Embedded broker only; 0 = a random free port (tests). */
    port: number;
    host: string;
    username: string | undefined;
    password: string | undefined;
    hookSecret: string | undefined;
    /** MQTT_SHARE_GROUP: the instances' shared subscription to the status reports (external). */
    shareGroup: string | undefined;
    /** BOOTH_MQTT_PUBLIC_URL: the broker as booths reach it; absent = derived (devices). */
    boothUrl: string | undefined;
  };
  devices: { commandTimeoutMs: number; updateTimeoutMs: number };
  captures: { deliveryMarginMs: number; sweepIntervalMs: number; deliveryDeadlineMs: number };
  retention: { mediaDays: number; paymentRecordYears: number };
  rollouts: { tickMs: number; maxFailures: number; retryMs: number; waveTimeoutMs: number };
  previews: { concurrency: number; sweepIntervalMs: number; leaseMs: number };
  /** WALL_CACHE_PAGES: the wall pages an instance keeps until the wall changes (0 = none). */
  wallCachePages: number;
  superUserPhones: string[];
  authSecret: string;
  auth: {
    accessTokenTtlSeconds: number;
    refreshTokenTtlDays: number;
    otpTtlSeconds: number;
    otpMaxAttempts: number;
    sendLimitPerPhone: number;
    sendLimitPerIp: number;
    sendWindowSeconds: number;
    lockoutFailures: number;
    lockoutSeconds: number;
    /** Wrong codes per phone and pool in any rolling 24 hours. */
    dailyFailures: number;
    /** Wrong codes in 24 hours after which each further code waits, doubling. */
    backoffAfterFailures: number;
    /** The first such pause (0 = none). */
    backoffBaseSeconds: number;
    /** Country calling codes (`+91`) codes may be sent to. */
    allowedCountryCodes: string[];
    /** Codes sent in any rolling hour, all phones and instances together. */
    globalHourlySendLimit: number;
    cookieSecure: boolean;
    /** Privileged staff with a passkey may sign in only with it. */
    requirePasskeyForMoneyStaff: boolean;
  };
  /** Passkeys' relying party: its id (a domain), its name and the origins it accepts. */
  webauthn: { rpId: string; rpName: string; origins: string[] };
  sms: { provider: 'outbox' | 'sns'; awsRegion: string; senderId: string | undefined };
  demoData: boolean;
  web: {
    distDir: string;
    supportEmail: string;
    partnershipEmail: string;
    demoFormUrl: string;
  };
  trustProxy: boolean;
  logLevel: string;
  storage: {
    driver: 'local' | 's3';
    /** DATA_DIR/objects */
    localDir: string;
    /** bucket is '' unless the driver is s3. */
    s3: {
      bucket: string;
      region: string;
      endpoint: string | undefined;
      forcePathStyle: boolean;
      /** S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY; undefined = the AWS credentials chain. */
      credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
    };
  };
  /** Without a trailing slash. */
  publicUrl: string | undefined;
  payments: {
    provider: 'sandbox' | 'phonepe';
    expireAfterSeconds: number;
    /** 0 = the reconciler does not run by itself. */
    reconcileIntervalSeconds: number;
    /** A completed payment still unused this long after completing becomes credit. */
    unusedCreditMinutes: number;
    /** Origins a payment may return to besides this server's own and PUBLIC_URL's. */
    returnOrigins: string[];
    /** Present when the provider is phonepe; hosts undefined = PhonePe's own for `env`. */
    phonepe:
      | {
          env: 'sandbox' | 'production';
          clientId: string;
          clientSecret: string;
          clientVersion: string;
          webhookUsername: string;
          webhookPassword: string;
          authUrl: string | undefined;
          apiUrl: string | undefined;
        }
      | undefined;
  };
  /** Invitations, data exports (modules/organizations, modules/privacy). */
  privacy: {
    inviteTtlDays: number;
    dataExportTtlHours: number;
    dataExportSweepIntervalMs: number;
  };
  /** Prometheus metrics: off unless a port or a token is set (modules/metrics). */
  metrics: { port: number | undefined; host: string; token: string | undefined };
}

/**
 * Settings that cannot work, one line each: `NAME: what is wrong and what to do`. Printed as it
 * is (no stack) by the programs that read the environment.
 */
export class ConfigError extends Error {}

/**
 * Start-up stopped by something outside (a database that refuses, an object store that does not
 * answer, a port in use) that the operator fixes through `setting`. Its message is one line that
 * names the setting and says what to do, printed as it is (no stack).
 */
export class StartupError extends Error {
  constructor(
    readonly setting: string,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'StartupError';
  }
}

/** In development the secret is made once and kept in DATA_DIR so sessions survive restarts. */
function developmentSecret(dataDir: string): string {
  const file = path.join(dataDir, 'auth-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

const defaultWebDist = path.resolve(import.meta.dirname, '../../web/dist');

/**
 * The passkeys' relying party. Defaults make `npm start` work on localhost: the id is PUBLIC_URL's
 * host name (else `localhost`), the origins PUBLIC_URL's origin (else this server's own, and the
 * Vite dev server outside production). Browsers accept the id only on an origin under it.
 */
function webauthnConfig(e: z.infer<typeof EnvSchema>, isProduction: boolean): Config['webauthn'] {
  const publicUrl = e.PUBLIC_URL ? new URL(e.PUBLIC_URL) : undefined;
  const ownOrigins = publicUrl
    ? [publicUrl.origin]
    : [`http://localhost:${e.PORT}`, ...(isProduction ? [] : ['http://localhost:5173'])];
  return {
    rpId: e.WEBAUTHN_RP_ID ?? publicUrl?.hostname ?? 'localhost',
    rpName: e.WEBAUTHN_RP_NAME,
    origins: e.WEBAUTHN_ORIGINS.length > 0 ? e.WEBAUTHN_ORIGINS : ownOrigins,
  };
}

/** Reads and validates the environment once; names every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const name = issue.path.join('.');
      // A number that is not one: its value is shown (numbers are never secrets).
      const notANumber = issue.code === 'invalid_type' && issue.expected === 'number';
      const got = notANumber ? `; got ${JSON.stringify(env[name])}` : '';
      return `${name}: ${issue.message}${got}`;
    });
    throw new ConfigError(lines.join('\n'));
  }
  const e = parsed.data;
  const isProduction = e.NODE_ENV === 'production';
  const problems: string[] = [];
  if (isProduction && !e.AUTH_SECRET)
    problems.push('AUTH_SECRET: required when NODE_ENV=production');
  if (isProduction && e.SMS_PROVIDER === undefined) {
    problems.push('SMS_PROVIDER: required when NODE_ENV=production (sns)');
  }
  // Sign-in SMS carry a one-tap link; built from the request's Host header, a forged header
  // could point a real person's link (and its token) at another site.
  if (isProduction && !e.PUBLIC_URL) {
    problems.push(
      'PUBLIC_URL: required when NODE_ENV=production (the sign-in links in SMS lead there)',
    );
  }
  // A super user who cannot be sent a code could never sign in.
  for (const phone of e.SUPER_USER_PHONES) {
    if (!e.OTP_ALLOWED_COUNTRY_CODES.some((code) => phone.startsWith(code))) {
      problems.push(`SUPER_USER_PHONES: ${phone} is outside OTP_ALLOWED_COUNTRY_CODES`);
    }
  }
  // The embedded broker serves one instance (it runs inside it): nothing to share.
  if (e.MQTT_SHARE_GROUP && !e.MQTT_URL) {
    problems.push('MQTT_SHARE_GROUP: needs an external broker (MQTT_URL)');
  }
  if (e.STORAGE_DRIVER === 's3' && !e.S3_BUCKET) {
    problems.push('S3_BUCKET: required when STORAGE_DRIVER=s3');
  }
  if (Boolean(e.S3_ACCESS_KEY_ID) !== Boolean(e.S3_SECRET_ACCESS_KEY)) {
    problems.push('S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY: set both, or neither');
  }
  // DESIGN.md: no sandbox payments in production unless explicitly configured.
  if (isProduction && e.PAYMENT_PROVIDER === undefined) {
    problems.push(
      'PAYMENT_PROVIDER: required when NODE_ENV=production (phonepe; sandbox only for a test installation)',
    );
  }
  if (e.PAYMENT_PROVIDER === 'phonepe') {
    for (const name of [
      'PHONEPE_CLIENT_ID',
      'PHONEPE_CLIENT_SECRET',
      'PHONEPE_WEBHOOK_USERNAME',
      'PHONEPE_WEBHOOK_PASSWORD',
    ] as const) {
      if (!e[name]) problems.push(`${name}: required when PAYMENT_PROVIDER=phonepe`);
    }
  }
  if (problems.length > 0) throw new ConfigError(problems.join('\n'));

  const dataDir = path.resolve(e.DATA_DIR);
  return {
    env: e.NODE_ENV,
    isProduction,
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    mqttUrl: e.MQTT_URL,
    mqtt: {
      url: e.MQTT_URL,
      // Tests build many apps in parallel: each embedded broker takes a free port.
      port: e.MQTT_PORT ?? (e.NODE_ENV === 'test' ? 0 : 1884),
      host: e.MQTT_HOST,
      username: e.MQTT_USERNAME,
      password: e.MQTT_PASSWORD,
      hookSecret: e.MQTT_HOOK_SECRET,
      shareGroup: e.MQTT_SHARE_GROUP,
      boothUrl: e.BOOTH_MQTT_PUBLIC_URL,
    },
    devices: {
      commandTimeoutMs: e.DEVICE_COMMAND_TIMEOUT_MS,
      updateTimeoutMs: e.DEVICE_UPDATE_TIMEOUT_MS,
    },
    captures: {
      deliveryMarginMs: e.CAPTURE_DELIVERY_MARGIN_SECONDS * 1000,
      sweepIntervalMs: e.CAPTURE_SWEEP_INTERVAL_MS,
      deliveryDeadlineMs: e.DELIVERY_DEADLINE_MINUTES * 60_000,
    },
    retention: {
      mediaDays: e.MEDIA_RETENTION_DAYS,
      paymentRecordYears: e.PAYMENT_RECORD_RETENTION_YEARS,
    },
    rollouts: {
      tickMs: e.ROLLOUT_TICK_MS,
      maxFailures: e.ROLLOUT_MAX_FAILURES,
      retryMs: e.ROLLOUT_RETRY_MS,
      waveTimeoutMs: e.ROLLOUT_WAVE_TIMEOUT_MS,
    },
    previews: {
      concurrency: e.MEDIA_PREVIEW_CONCURRENCY,
      sweepIntervalMs: e.MEDIA_PREVIEW_SWEEP_INTERVAL_MS,
      leaseMs: e.MEDIA_PREVIEW_LEASE_SECONDS * 1000,
    },
    wallCachePages: e.WALL_CACHE_PAGES,
    superUserPhones: e.SUPER_USER_PHONES,
    authSecret: e.AUTH_SECRET ?? developmentSecret(dataDir),
    auth: {
      accessTokenTtlSeconds: e.ACCESS_TOKEN_TTL_SECONDS,
      refreshTokenTtlDays: e.REFRESH_TOKEN_TTL_DAYS,
      otpTtlSeconds: e.OTP_TTL_SECONDS,
      otpMaxAttempts: e.OTP_MAX_ATTEMPTS,
      sendLimitPerPhone: e.OTP_SEND_LIMIT_PER_PHONE,
      sendLimitPerIp: e.OTP_SEND_LIMIT_PER_IP,
      sendWindowSeconds: e.OTP_SEND_WINDOW_SECONDS,
      lockoutFailures: e.OTP_LOCKOUT_FAILURES,
      lockoutSeconds: e.OTP_LOCKOUT_SECONDS,
      dailyFailures: e.OTP_DAILY_FAILURES,
      backoffAfterFailures: e.OTP_BACKOFF_AFTER_FAILURES,
      backoffBaseSeconds: e.OTP_BACKOFF_BASE_SECONDS,
      allowedCountryCodes: e.OTP_ALLOWED_COUNTRY_CODES,
      globalHourlySendLimit: e.OTP_GLOBAL_HOURLY_LIMIT,
      cookieSecure: e.COOKIE_SECURE ?? isProduction,
      requirePasskeyForMoneyStaff: e.REQUIRE_PASSKEY_FOR_MONEY_STAFF,
    },
    webauthn: webauthnConfig(e, isProduction),
    sms: {
      provider: e.SMS_PROVIDER ?? 'outbox',
      awsRegion: e.AWS_REGION,
      senderId: e.SMS_SENDER_ID,
    },
    demoData: isProduction ? false : e.DEMO_DATA,
    web: {
      distDir: e.WEB_DIST_DIR ? path.resolve(e.WEB_DIST_DIR) : defaultWebDist,
      supportEmail: e.SUPPORT_EMAIL,
      partnershipEmail: e.PARTNERSHIP_EMAIL,
      demoFormUrl: e.DEMO_FORM_URL,
    },
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    storage: {
      driver: e.STORAGE_DRIVER,
      localDir: path.join(dataDir, 'objects'),
      s3: {
        bucket: e.S3_BUCKET ?? '',
        region: e.S3_REGION,
        endpoint: e.S3_ENDPOINT,
        forcePathStyle: e.S3_FORCE_PATH_STYLE,
        credentials:
          e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
            ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY }
            : undefined,
      },
    },
    publicUrl: e.PUBLIC_URL?.replace(/\/+$/, ''),
    payments: {
      provider: e.PAYMENT_PROVIDER ?? 'sandbox',
      expireAfterSeconds: e.PAYMENT_EXPIRE_AFTER_SECONDS,
      reconcileIntervalSeconds: e.PAYMENT_RECONCILE_INTERVAL_SECONDS,
      unusedCreditMinutes: e.PAYMENT_UNUSED_CREDIT_MINUTES,
      returnOrigins: e.PAYMENT_RETURN_ORIGINS,
      phonepe:
        e.PAYMENT_PROVIDER === 'phonepe'
          ? {
              env: e.PHONEPE_ENV ?? (isProduction ? 'production' : 'sandbox'),
              clientId: e.PHONEPE_CLIENT_ID!,
              clientSecret: e.PHONEPE_CLIENT_SECRET!,
              clientVersion: e.PHONEPE_CLIENT_VERSION,
              webhookUsername: e.PHONEPE_WEBHOOK_USERNAME!,
              webhookPassword: e.PHONEPE_WEBHOOK_PASSWORD!,
              authUrl: e.PHONEPE_AUTH_URL?.replace(/\/+$/, ''),
              apiUrl: e.PHONEPE_API_URL?.replace(/\/+$/, ''),
            }
          : undefined,
    },
    privacy: {
      inviteTtlDays: e.INVITE_TTL_DAYS,
      dataExportTtlHours: e.DATA_EXPORT_TTL_HOURS,
      dataExportSweepIntervalMs: e.DATA_EXPORT_SWEEP_INTERVAL_MS,
    },
    metrics: { port: e.METRICS_PORT, host: e.METRICS_HOST, token: e.METRICS_TOKEN },
  };
}
