import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AppError } from '../../errors.js';
import { bearerMatches } from '../../security/bearer.js';
import type { PrometheusMetrics } from './metrics.js';

const UNAUTHORIZED = 'The metrics need the token: send Authorization: Bearer <METRICS_TOKEN>.';

/**
 * GET /metrics on the app's own port, mounted only when METRICS_TOKEN is set: Prometheus sends the
 * token as a bearer token (`authorization` in its scrape config).
 */
export const metricsRoutes: FastifyPluginAsyncZod<{
  metrics: PrometheusMetrics;
  token: string;
}> = async (app, { metrics, token }) => {
  app.get(
    '/metrics',
    {
      // Scraped every few seconds: kept out of the request log.
      logLevel: 'warn',
      schema: { hide: true },
    },
    async (request, reply) => {
      if (!bearerMatches(request.headers.authorization, token)) {
        throw new AppError('unauthorized', UNAUTHORIZED);
      }
      const { contentType, body } = await metrics.exposition();
      return reply
        .header('content-type', contentType)
        .header('cache-control', 'no-store')
        .send(body);
    },
  );
};

export interface MetricsServer {
  /** The port it listens on (METRICS_PORT=0 picks a free one). */
  port: number;
  close(): Promise<void>;
}

/**
 * The metrics on a port of their own (METRICS_PORT), for a scraper on a private network: GET
 * /metrics only, and the token as well when METRICS_TOKEN is set.
 */
export async function startMetricsServer(options: {
  metrics: PrometheusMetrics;
  port: number;
  host: string;
  token: string | undefined;
  log: FastifyBaseLogger;
}): Promise<MetricsServer> {
  const { metrics, token, log } = options;
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (request.method !== 'GET' || path !== '/metrics') {
      response.writeHead(404, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({ message: 'Only GET /metrics is served here.', code: 'not_found' }),
      );
      return;
    }
    if (token !== undefined && !bearerMatches(request.headers.authorization, token)) {
      response.writeHead(401, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ message: UNAUTHORIZED, code: 'unauthorized' }));
      return;
    }
    metrics.exposition().then(
      ({ contentType, body }) => {
        response.writeHead(200, { 'content-type': contentType, 'cache-control': 'no-store' });
        response.end(body);
      },
      (error: unknown) => {
        log.warn({ err: error }, 'the metrics could not be collected');
        response.writeHead(500, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify({
            message: 'The metrics could not be collected.',
            code: 'internal_error',
          }),
        );
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  log.info(`metrics at http://${options.host}:${port}/metrics`);
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
