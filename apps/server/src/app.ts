import { randomUUID } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { HealthSchema, POOLS } from '@flashbooth/contracts';
import Fastify, { type FastifyInstance } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Config } from './config.js';
import { type DatabaseHandle, openDatabase } from './db/client.js';
import { migrate } from './db/migrate.js';
import { AppError } from './errors.js';
import { AccessTokens } from './modules/auth/access-tokens.js';
import { deriveKey } from './modules/auth/auth.crypto.js';
import { createAuthenticate } from './modules/auth/auth.hooks.js';
import { AuthRepository } from './modules/auth/auth.repository.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { AuthService } from './modules/auth/auth.service.js';
import { DevicesRepository } from './modules/devices/devices.repository.js';
import { devicesRoutes } from './modules/devices/devices.routes.js';
import { DevicesService } from './modules/devices/devices.service.js';
import { CaptureSweep } from './modules/media/capture-sweep.js';
import { CaptureService } from './modules/media/capture.service.js';
import { CapturesRepository } from './modules/media/captures.repository.js';
import { MediaRepository } from './modules/media/media.repository.js';
import { deviceMediaRoutes, visitorMediaRoutes } from './modules/media/media.routes.js';
import { makeLowresPreview, MediaService } from './modules/media/media.service.js';
import { type PreviewMaker, PreviewWorker } from './modules/media/preview-worker.js';
import { createDeviceLink } from './modules/mqtt/create-device-link.js';
import type { DeviceLink } from './modules/mqtt/device-link.js';
import { mqttHookRoutes } from './modules/mqtt/mqtt.routes.js';
import { registerPayments } from './modules/payments/payments.plugin.js';
import { devSmsRoutes } from './modules/sms/sms.routes.js';
import { OutboxSmsSender, type SmsSender, SnsSmsSender } from './modules/sms/sms.sender.js';
import { SoftwareRepository } from './modules/software/software.repository.js';
import { softwareRoutes } from './modules/software/software.routes.js';
import { SoftwareService } from './modules/software/software.service.js';
import { createStorage } from './modules/storage/create-storage.js';
import { LocalStorage } from './modules/storage/local-storage.js';
import type { ObjectStorage } from './modules/storage/storage.js';
import { storageRoutes } from './modules/storage/storage.routes.js';
import { TemplatesRepository } from './modules/templates/templates.repository.js';
import { templatesRoutes } from './modules/templates/templates.routes.js';
import { TemplatesService } from './modules/templates/templates.service.js';
import { visitorTemplatesRoutes } from './modules/templates/templates.visitor.routes.js';
import { UsersRepository } from './modules/users/users.repository.js';
import { usersRoutes } from './modules/users/users.routes.js';
import { UsersService } from './modules/users/users.service.js';
import { registerErrorHandler } from './plugins/error-handler.js';
import { registerWebApp } from './plugins/web-app.js';
import { seed } from './seed/seed.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Where a client on this machine reaches the MQTT broker; undefined with a test link. */
    deviceBrokerUrl: string | undefined;
  }
}

export interface AppDependencies {
  /** An open database; when absent the app opens (and later closes) its own from config. */
  database?: DatabaseHandle;
  sms?: SmsSender;
  /** An object store; when absent the app makes (and later closes) its own from config. */
  storage?: ObjectStorage;
  /** The line to the booths; when absent the app makes one from config. Started after the
   * migrations and stopped when the app closes either way. */
  deviceLink?: DeviceLink;
  /** Makes a photo's low-res preview (tests: a slow or failing one); sharp when absent. */
  makePreview?: PreviewMaker;
  /** The clock, injectable so tests can move time (code expiry, throttling windows). */
  now?: () => Date;
  /** Skip pino output (tests). */
  logger?: boolean;
  /** Where pino writes (tests read it); stdout when absent. */
  loggerStream?: NodeJS.WritableStream;
}

export async function buildApp(
  config: Config,
  deps: AppDependencies = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    logger:
      deps.logger === false
        ? false
        : {
            level: config.logLevel,
            redact: [
              'req.headers.authorization',
              'req.headers.cookie',
              'res.headers["set-cookie"]',
            ],
            ...(deps.loggerStream ? { stream: deps.loggerStream } : {}),
            // Readable lines for a person at a terminal in development; JSON everywhere else.
            ...(!deps.loggerStream && !config.isProduction && process.stdout.isTTY
              ? { transport: { target: 'pino-pretty', options: { ignore: 'pid,hostname' } } }
              : {}),
          },
    genReqId: (request) => {
      const given = request.headers['x-request-id'];
      return typeof given === 'string' && /^[\w-]{8,64}$/.test(given) ? given : randomUUID();
    },
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  const database =
    deps.database ?? (await openDatabase({ url: config.databaseUrl, dataDir: config.dataDir }));
  if (!deps.database) app.addHook('onClose', () => database.close());
  await migrate(database.db);

  const now = deps.now ?? (() => new Date());
  const outbox = new OutboxSmsSender(database.db);
  const sms =
    deps.sms ??
    (config.sms.provider === 'sns'
      ? new SnsSmsSender({ region: config.sms.awsRegion }, config.sms.senderId)
      : outbox);
  const storage = deps.storage ?? (await createStorage(config, now));
  if (!deps.storage) app.addHook('onClose', () => storage.close());

  const devicesRepository = new DevicesRepository(database.db);
  const deviceSetup = createDeviceLink(
    config,
    (thingName) => devicesRepository.secretHashOf(thingName),
    app.log,
  );
  const deviceLink = deps.deviceLink ?? deviceSetup.link;

  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        frameSrc: ["'self'", ...frameOrigin(config.web.demoFormUrl)],
        connectSrc: ["'self'"],
        formAction: ["'self'", 'mailto:'],
        upgradeInsecureRequests: config.isProduction ? [] : null,
      },
    },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: config.isProduction,
  });
  await app.register(fastifyCookie);

  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'Flashbooth API',
        version: '1.0.0',
        description:
          'Visitor API under /api/regular, staff API under /api/enterprise. Errors are { message, code }.',
      },
      components: {
        securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs', staticCSP: true });

  const tokens = new AccessTokens(config.authSecret, config.auth.accessTokenTtlSeconds, now);
  const usersRepository = new UsersRepository(database.db);
  const usersService = new UsersService(usersRepository);
  const devicesService = new DevicesService({
    devices: devicesRepository,
    users: usersService,
    link: deviceLink,
    // A booth's error report that ends a capture gives it back (called only once the app runs).
    captures: { releaseReported: (id, report) => captureService.releaseReported(id, report) },
    commandTimeoutMs: config.devices.commandTimeoutMs,
    now,
    log: app.log,
  });
  const templatesRepository = new TemplatesRepository(database.db);
  const templatesService = new TemplatesService({
    templates: templatesRepository,
    users: usersService,
    storage,
    devices: devicesRepository,
    now,
    log: app.log,
  });
  const mediaRepository = new MediaRepository(database.db);
  // Previews are made after the upload confirmation answers; every instance sweeps for those
  // still missing (a crash, a retry), each claimed by one instance at a time.
  const previewWorker = new PreviewWorker({
    media: mediaRepository,
    storage,
    makePreview: deps.makePreview ?? makeLowresPreview,
    concurrency: config.previews.concurrency,
    leaseMs: config.previews.leaseMs,
    sweepIntervalMs: config.previews.sweepIntervalMs,
    now,
    log: app.log,
  });
  const mediaService = new MediaService({
    media: mediaRepository,
    users: usersService,
    storage,
    previews: previewWorker,
    now,
  });
  const captureService = new CaptureService({
    media: mediaRepository,
    captures: new CapturesRepository(database.db),
    devices: devicesRepository,
    templates: templatesRepository,
    users: usersService,
    storage,
    link: deviceLink,
    commandTimeoutMs: config.devices.commandTimeoutMs,
    deliveryMarginMs: config.captures.deliveryMarginMs,
    now,
    log: app.log,
  });
  const softwareService = new SoftwareService({
    software: new SoftwareRepository(database.db),
    users: usersService,
    storage,
    devices: devicesRepository,
    deviceDto: (row) => devicesService.toDto(row),
    link: deviceLink,
    updateTimeoutMs: config.devices.updateTimeoutMs,
    now,
    log: app.log,
  });
  deviceLink.onStatus((thingName, report) => devicesService.recordStatus(thingName, report));
  deviceLink.onErrorReport((thingName, report) =>
    devicesService.recordErrorReport(thingName, report),
  );
  await deviceLink.start();
  app.addHook('onClose', () => deviceLink.stop());
  // The embedded broker's bound port (MQTT_PORT=0 picks one), for the in-process demo booth.
  app.decorate('deviceBrokerUrl', deviceLink.brokerUrl);
  // Captures that never deliver are given back; every instance sweeps, each capture once.
  const captureSweep = new CaptureSweep({
    captures: captureService,
    intervalMs: config.captures.sweepIntervalMs,
    log: app.log,
  });
  captureSweep.start();
  app.addHook('onClose', () => captureSweep.stop());
  previewWorker.start();
  app.addHook('onClose', () => previewWorker.stop());

  const authService = new AuthService({
    db: database.db,
    auth: new AuthRepository(database.db),
    users: usersRepository,
    usersService,
    sms,
    tokens,
    otpKey: deriveKey(config.authSecret, 'otp'),
    policy: config.auth,
    now,
    log: app.log,
  });

  for (const pool of POOLS) {
    await app.register(
      async (scope) => {
        const authenticate = createAuthenticate(tokens, pool);
        await scope.register(authRoutes, {
          pool,
          auth: authService,
          cookieSecure: config.auth.cookieSecure,
        });
        await scope.register(usersRoutes, { pool, users: usersService, authenticate });
        await scope.register(devicesRoutes, { pool, devices: devicesService, authenticate });
        await scope.register(pool === 'enterprise' ? templatesRoutes : visitorTemplatesRoutes, {
          templates: templatesService,
          authenticate,
        });
        if (pool === 'enterprise') {
          await scope.register(softwareRoutes, { software: softwareService, authenticate });
        }
        if (pool === 'regular') {
          await scope.register(visitorMediaRoutes, {
            capture: captureService,
            media: mediaService,
            authenticate,
          });
        }
      },
      { prefix: `/api/${pool}` },
    );
  }
  await app.register(deviceMediaRoutes, {
    prefix: '/api/device',
    media: mediaService,
    repository: mediaRepository,
  });
  await registerPayments(app, { config, db: database.db, tokens, users: usersService, now });

  if (!config.isProduction && sms.kind === 'outbox') {
    await app.register(devSmsRoutes, { prefix: '/api/dev', outbox });
  }
  if (config.mqtt.hookSecret) {
    await app.register(mqttHookRoutes, {
      prefix: '/api/mqtt',
      access: deviceSetup.access,
      secret: config.mqtt.hookSecret,
    });
  }
  // Only the local store is served by this server; S3 URLs point at the bucket itself.
  if (storage instanceof LocalStorage) {
    await app.register(storageRoutes, { prefix: '/api/storage', storage });
  }

  app.get(
    '/api/health',
    {
      schema: {
        tags: ['health'],
        summary: 'Ready when the database, the object store and the MQTT broker answer',
        response: { 200: HealthSchema },
      },
    },
    async () => {
      try {
        await database.ping();
      } catch (error) {
        throw new AppError('service_unavailable', 'The database is not reachable.', {
          cause: error,
        });
      }
      try {
        await storage.ping();
      } catch (error) {
        throw new AppError('service_unavailable', 'The object store is not reachable.', {
          cause: error,
        });
      }
      try {
        await deviceLink.ping();
      } catch (error) {
        throw new AppError('service_unavailable', 'The device broker is not reachable.', {
          cause: error,
        });
      }
      return { status: 'ok' as const };
    },
  );

  // Housekeeping every 10 minutes; any instance may do it, the delete is idempotent.
  const housekeeping = setInterval(() => {
    authService
      .pruneEvents()
      .catch((error: unknown) => app.log.warn({ err: error }, 'pruning failed'));
  }, 600_000);
  housekeeping.unref();
  app.addHook('onClose', async () => clearInterval(housekeeping));

  await registerWebApp(app, config);
  await seed({ db: database.db, users: usersRepository, config, log: app.log, storage, now });
  return app;
}

function frameOrigin(url: string): string[] {
  try {
    return /^https?:\/\//.test(url) ? [new URL(url).origin] : [];
  } catch {
    return [];
  }
}
