import Fastify, { type FastifyInstance } from 'fastify';
import {
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Config } from './config.js';
import { type AppDependencies, openInfrastructure } from './infrastructure.js';
import { backgroundJobs } from './jobs.js';
import { JobRunner } from './lib/job-runner.js';
import { instrumentServices, jobRunObserver } from './modules/metrics/instrument.js';
import { createMetrics, registerMetrics } from './modules/metrics/setup.js';
import type { PaymentsService } from './modules/payments/payments.service.js';
import { wallPageSource } from './modules/wall/wall-page.js';
import { registerApiDocs } from './plugins/api-docs.js';
import { registerCompression } from './plugins/compression.js';
import { registerErrorHandler } from './plugins/error-handler.js';
import { echoRequestIds, loggerOptions, requestId } from './plugins/logging.js';
import { registerSecurityHeaders } from './plugins/security-headers.js';
import { registerWebApp } from './plugins/web-app.js';
import { registerRoutes, routeTable } from './routes.js';
import { seed } from './seed/seed.js';
import { createServices } from './services.js';

export type { AppDependencies } from './infrastructure.js';

/** Requests that change nothing (the others forget the wall's kept pages). */
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

declare module 'fastify' {
  interface FastifyInstance {
    /** Where a client on this machine reaches the MQTT broker; undefined with a test link. */
    deviceBrokerUrl: string | undefined;
    /** The payments service (tests run the reconciler and wait for sandbox hints through it). */
    payments: PaymentsService;
    /** The background jobs (tests run one by name, as `npm run jobs` does). */
    jobs: JobRunner;
  }
}

/**
 * The composition root: HTTP plugins, the outside parts, the services, the routes, the
 * background jobs and the seed, in that order. Each step lives in its own file.
 */
export async function buildApp(
  config: Config,
  deps: AppDependencies = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    logger: loggerOptions(config, deps),
    genReqId: requestId,
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandler(app);
  echoRequestIds(app);

  const infra = await openInfrastructure(config, deps, app.log);
  // Off (a no-op) unless METRICS_PORT or METRICS_TOKEN is set; wraps infra's SMS and booth link.
  const metrics = createMetrics(config, infra);
  const services = createServices(config, infra, deps, app.log);
  if (metrics.enabled) instrumentServices(services, metrics);
  const jobs = new JobRunner({
    log: app.log,
    recorder: services.jobRuns,
    now: infra.now,
    ...(metrics.enabled ? { observer: jobRunObserver(metrics) } : {}),
  });
  jobs.add(...backgroundJobs(config, services));
  // Closed in reverse: no more jobs, then the booths' line, then the database and the store.
  app.addHook('onClose', async () => {
    await jobs.stop();
    await services.wallCache.stop();
    await infra.deviceLink.stop();
    await infra.close();
  });
  // The wall's page cache hears the other instances' changes through LISTEN; this instance's
  // own are told here, before the answer leaves: whoever changed something through this
  // instance reads the change on their next request.
  app.addHook('onSend', (request, _reply, payload, done) => {
    if (!READS.has(request.method)) services.wallCache.changed();
    done(null, payload);
  });

  await registerSecurityHeaders(app, config);
  await registerCompression(app); // before the routes: it hooks each route as it is added
  await registerApiDocs(app);
  await registerMetrics(app, config, metrics);
  await registerRoutes(app, routeTable(config, infra, services));
  await registerWebApp(app, config, {
    booths: services.boothPages,
    wall: wallPageSource(services.wall, services.wallCache),
  });

  const { deviceLink } = infra;
  deviceLink.onStatus((thing, report) => services.devices.recordStatus(thing, report));
  deviceLink.onErrorReport((thing, report) => services.devices.recordErrorReport(thing, report));
  await deviceLink.start();
  // The embedded broker's bound port (MQTT_PORT=0 picks one), for the in-process demo booths.
  app.decorate('deviceBrokerUrl', deviceLink.brokerUrl);
  app.decorate('payments', services.payments);
  app.decorate('jobs', jobs);
  jobs.start();
  await services.wallCache.start();

  const { database, storage, now } = infra;
  const users = services.usersRepository;
  await seed({ db: database.db, users, config, log: app.log, storage, now });
  return app;
}
