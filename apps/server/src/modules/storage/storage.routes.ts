import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError, notFound } from '../../errors.js';
import { LOCAL_MAX_UPLOAD_BYTES, type LocalStorage, tooLarge } from './local-storage.js';
import { byteRange } from './byte-range.js';
import { assertValidObjectKey, attachmentDisposition } from './storage.js';

/*
 * Every part is optional here on purpose: a URL with a missing or garbled part is a bad link
 * (403 from the signature check), not a validation error that explains what a valid one needs.
 */
const SignedQuerySchema = z.object({
  expires: z.string().optional(),
  ct: z.string().optional(),
  max: z.string().optional(),
  dl: z.string().max(255).optional(),
  sig: z.string().optional(),
});
const KeyParamsSchema = z.object({ '*': z.string() });

/**
 * The local store's presigned URLs (registered for the local driver only, under /api/storage).
 * The signature is the only credential: the URL is handed to a booth or a browser that has no
 * session here, exactly like an S3 presigned URL.
 */
export const storageRoutes: FastifyPluginAsyncZod<{ storage: LocalStorage }> = async (
  app,
  { storage },
) => {
  // Bodies of any type reach the handler as the raw request stream (encapsulated: this plugin
  // only). Fastify's bodyLimit does not apply to a stream; the handler enforces the signed size.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));

  app.put(
    '/objects/*',
    {
      bodyLimit: LOCAL_MAX_UPLOAD_BYTES,
      schema: {
        tags: ['storage'],
        summary: 'Upload one object through a presigned URL (local object store)',
        params: KeyParamsSchema,
        querystring: SignedQuerySchema,
      },
    },
    async (request, reply) => {
      try {
        const key = request.params['*'];
        assertValidObjectKey(key);
        const { contentType, maxBytes } = storage.verifyUpload(key, request.query);
        if (request.headers['content-type'] !== contentType) {
          throw new AppError('bad_request', `The upload must be sent as ${contentType}.`);
        }
        // Refused before reading anything when the client says up front it is too big; a body
        // that only turns out too big while streaming is cut off and nothing is kept.
        const declared = Number(request.headers['content-length'] ?? 0);
        if (declared > maxBytes) throw tooLarge(maxBytes);
        await storage.write(key, request.raw, contentType, maxBytes);
        return reply.status(204).send();
      } catch (error) {
        // A refused body may still be on its way (up to 512 MB): close the connection after the
        // answer instead of letting Node read the rest only to discard it.
        if (!request.raw.readableEnded) reply.header('Connection', 'close');
        throw error;
      }
    },
  );

  app.get(
    '/objects/*',
    {
      // A HEAD would read the whole file just to discard it; nothing needs one.
      exposeHeadRoute: false,
      schema: {
        tags: ['storage'],
        summary:
          'Download one object through a presigned URL (local object store); answers a single byte Range (206/416)',
        params: KeyParamsSchema,
        querystring: SignedQuerySchema,
      },
    },
    async (request, reply) => {
      const key = request.params['*'];
      assertValidObjectKey(key);
      const { remainingSeconds } = storage.verifyDownload(key, request.query);
      const info = await storage.head(key);
      if (!info) throw notFound('This file does not exist.');
      // A video element seeks with byte ranges (as S3 answers them): one range is served.
      const range = byteRange(request.headers.range, info.size);
      reply
        .header('Content-Type', info.contentType)
        .header('Accept-Ranges', 'bytes')
        // Private: the URL is a capability for one person; no shared cache may keep it longer.
        .header('Cache-Control', `private, max-age=${remainingSeconds}`);
      if (request.query.dl !== undefined) {
        reply.header('Content-Disposition', attachmentDisposition(request.query.dl));
      }
      if (range.kind === 'unsatisfiable') {
        return reply
          .status(416)
          .header('Content-Range', `bytes */${info.size}`)
          .type('application/json; charset=utf-8')
          .send({
            message: 'The requested range is not within the file.',
            code: 'range_not_satisfiable',
          });
      }
      const part = range.kind === 'partial' ? { start: range.start, end: range.end } : undefined;
      const object = await storage.open(key, part);
      if (!object) throw notFound('This file does not exist.');
      if (part) {
        reply
          .status(206)
          .header('Content-Range', `bytes ${part.start}-${part.end}/${object.size}`)
          .header('Content-Length', part.end - part.start + 1);
      } else {
        reply.header('Content-Length', object.size);
      }
      return reply.send(object.stream);
    },
  );
};
