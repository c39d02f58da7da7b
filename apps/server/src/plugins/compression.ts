import { constants } from 'node:zlib';
import fastifyCompress from '@fastify/compress';
import type { FastifyInstance } from 'fastify';

/** Bodies smaller than this go as they are: a few hundred bytes gain nothing worth the CPU. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;

/**
 * JSON, text, scripts, XML and SVG. Not server-sent events (each event must reach the browser
 * when it is written), and never images, video or `application/octet-stream`, which are
 * compressed already or are file transfers.
 */
const COMPRESSIBLE_TYPES =
  /^(?:application\/(?:[\w.-]+\+)?json|text\/(?!event-stream)|application\/(?:javascript|xml)|image\/svg\+xml)/i;

const isStream = (payload: unknown): boolean =>
  typeof payload === 'object' &&
  payload !== null &&
  typeof (payload as { pipe?: unknown }).pipe === 'function';

/**
 * Compresses API answers on the fly (`@fastify/compress`): Brotli at quality 4 (a fraction of
 * the CPU of the maximum, most of its gain on JSON) or gzip, for bodies from 1 KB. Streamed
 * bodies are never compressed: storage file transfers keep their length and byte ranges, and
 * events are not held back in a compressor's buffer. The web app's files are compressed at
 * build time instead (web-app.ts).
 *
 * Register it before the routes: @fastify/compress attaches itself to each route as the route
 * is added.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  // Runs before the route's own compression hook; `x-no-compression` is the plugin's opt-out.
  app.addHook('onSend', async (request, _reply, payload) => {
    if (isStream(payload)) request.headers = { 'x-no-compression': 'stream' };
    return payload;
  });
  await app.register(fastifyCompress, {
    global: true,
    // Request bodies are taken as sent (a storage upload is a raw stream).
    globalDecompression: false,
    threshold: COMPRESSION_THRESHOLD_BYTES,
    encodings: ['br', 'gzip'],
    brotliOptions: {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 4,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    },
    zlibOptions: { level: 6 },
    customTypes: COMPRESSIBLE_TYPES,
  });
}
