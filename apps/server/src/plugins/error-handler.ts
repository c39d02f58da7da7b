import type { FastifyError, FastifyInstance } from 'fastify';
import { isDatabaseUnavailable } from '../db/postgres-errors.js';
import { AppError } from '../errors.js';

/** The answer while the database restarts or fails over. */
export const DATABASE_UNAVAILABLE_MESSAGE =
  'Flashbooth is briefly unavailable. Please try again in a moment.';

interface ValidationIssue {
  message?: string;
  instancePath?: string;
}

/** zod's generic texts name no field; custom (spec) messages are shown exactly as written. */
function validationMessage(issues: ValidationIssue[], context: string | undefined): string {
  const first = issues[0];
  const text = first?.message ?? 'Invalid request.';
  if (!/^Invalid input|^Invalid option|^Too (big|small)|^Unrecognized key/.test(text)) return text;
  const field = first?.instancePath?.replace(/^\//, '').replace(/\//g, '.');
  return field ? `${field}: ${text}` : `${context ?? 'request'}: ${text}`;
}

/** Every error leaves as { message, code }; 5xx details stay in the log. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    if (error instanceof AppError) {
      if (error.statusCode >= 500) request.log.error({ err: error.cause ?? error }, error.message);
      return reply.status(error.statusCode).send({ message: error.message, code: error.code });
    }
    if ('validation' in error && error.validation) {
      return reply.status(400).send({
        message: validationMessage(error.validation as ValidationIssue[], error.validationContext),
        code: 'validation_error',
      });
    }
    const status = error.statusCode ?? 500;
    if (status < 500) {
      return reply.status(status).send({
        message: error.message,
        code: (error.code ?? 'bad_request').replace(/^FST_ERR_/, '').toLowerCase(),
      });
    }
    if (isDatabaseUnavailable(error)) {
      // A database restart or failover: a retry in a moment will likely work (payments and
      // captures are exactly-once, so a request repeated after one that did land doubles nothing).
      request.log.warn({ err: error }, 'the database (or another service) is unavailable');
      return reply.status(503).header('retry-after', '2').send({
        message: DATABASE_UNAVAILABLE_MESSAGE,
        code: 'service_unavailable',
      });
    }
    request.log.error({ err: error }, 'unexpected error');
    return reply.status(500).send({
      message: 'Something went wrong on our side. Please try again.',
      code: 'internal_error',
    });
  });
}
