import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';

/** Escapes a JSON text for a <script> element so no value can close the tag. */
function scriptSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

/**
 * Serves the built web app with the runtime configuration injected into index.html, and
 * answers every other non-API GET with the app (client-side routes). API paths get JSON 404s.
 */
export async function registerWebApp(app: FastifyInstance, config: Config): Promise<void> {
  const indexFile = path.join(config.web.distDir, 'index.html');
  const built = existsSync(indexFile);
  if (!built)
    app.log.warn({ distDir: config.web.distDir }, 'web app not built: run `npm run build`');

  const runtimeConfig = {
    supportEmail: config.web.supportEmail,
    partnershipEmail: config.web.partnershipEmail,
    demoFormUrl: config.web.demoFormUrl,
    allowTimingScale: !config.isProduction,
  };
  const indexHtml = built
    ? readFileSync(indexFile, 'utf8').replace(
        '<!--app-config-->',
        `<script id="app-config" type="application/json">${scriptSafeJson(runtimeConfig)}</script>`,
      )
    : '<!doctype html><title>Flashbooth</title><p>The web app is not built yet. Run <code>npm run build</code>.</p>';

  if (built) {
    await app.register(fastifyStatic, {
      root: config.web.distDir,
      index: false,
      wildcard: false,
      // Our setHeaders decides caching; the plugin's own header would override it.
      cacheControl: false,
      setHeaders: (res, filePath) => {
        // Hashed bundles never change; everything else is revalidated.
        if (filePath.includes(`${path.sep}assets${path.sep}`)) {
          res.setHeader('Cache-Control', 'public, max-age=31536000, immutable');
        } else {
          res.setHeader('Cache-Control', 'no-cache');
        }
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith('/api/') || request.url === '/api' || request.method !== 'GET') {
      return reply.status(404).send({ message: 'Not found.', code: 'not_found' });
    }
    return reply
      .type('text/html; charset=utf-8')
      .header('Cache-Control', 'no-cache')
      .send(indexHtml);
  });
}
