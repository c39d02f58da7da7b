import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import { rowsOf } from '../../db/client.js';
import type { Infrastructure } from '../../infrastructure.js';
import { instrumentHttp, meteredDeviceLink, meteredSms } from './instrument.js';
import { type Metrics, noMetrics, PrometheusMetrics } from './metrics.js';
import { metricsRoutes, startMetricsServer } from './metrics.routes.js';

/**
 * The app's metrics: Prometheus ones when METRICS_PORT or METRICS_TOKEN is set, the no-op
 * otherwise. When on, the SMS sender and the device link in `infra` are replaced by counting
 * wrappers, so call this before the services are made from `infra`.
 */
export function createMetrics(config: Config, infra: Infrastructure): Metrics {
  if (config.metrics.port === undefined && config.metrics.token === undefined) return noMetrics;
  const { database } = infra;
  const metrics = new PrometheusMetrics({
    boothsOnline: async () => {
      const result = await database.db.execute(
        sql`select count(*)::int as online from devices where status <> 'offline'`,
      );
      return rowsOf<{ online: number }>(result)[0]?.online ?? 0;
    },
    pool: () => database.poolStats?.(),
  });
  infra.sms = meteredSms(infra.sms, metrics);
  infra.deviceLink = meteredDeviceLink(infra.deviceLink, metrics);
  return metrics;
}

/**
 * Times every request, and serves the exposition: on METRICS_PORT (closed with the app), and
 * with METRICS_TOKEN at GET /metrics on the app's port. Call before the routes are registered.
 */
export async function registerMetrics(
  app: FastifyInstance,
  config: Config,
  metrics: Metrics,
): Promise<void> {
  if (!(metrics instanceof PrometheusMetrics)) return;
  instrumentHttp(app, metrics);
  const { port, host, token } = config.metrics;
  if (token !== undefined) await app.register(metricsRoutes, { metrics, token });
  if (port !== undefined) {
    const server = await startMetricsServer({ metrics, port, host, token, log: app.log });
    app.decorate('metricsPort', server.port);
    app.addHook('onClose', () => server.close());
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The port the metrics listen on when METRICS_PORT is set (0 picks a free one). */
    metricsPort?: number;
  }
}
