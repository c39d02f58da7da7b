import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { DATABASE_UNAVAILABLE_MESSAGE, registerErrorHandler } from './error-handler.js';

async function answerTo(error: Error) {
  const app = Fastify({ logger: false });
  registerErrorHandler(app);
  app.get('/', async () => {
    throw error;
  });
  const response = await app.inject({ method: 'GET', url: '/' });
  await app.close();
  return response;
}

describe('the error handler', () => {
  it('answers 503 with Retry-After while the database restarts', async () => {
    const response = await answerTo(
      new Error('Failed query: select 1', {
        cause: Object.assign(new Error('terminating connection'), { code: '57P01' }),
      }),
    );
    expect(response.statusCode).toBe(503);
    expect(response.headers['retry-after']).toBe('2');
    expect(response.json()).toEqual({
      message: DATABASE_UNAVAILABLE_MESSAGE,
      code: 'service_unavailable',
    });
  });

  it('answers 500 with no detail for any other unexpected error', async () => {
    const response = await answerTo(new Error('secret detail'));
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({
      message: 'Something went wrong on our side. Please try again.',
      code: 'internal_error',
    });
  });
});
