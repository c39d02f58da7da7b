import { timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../errors.js';
import type { MqttAccess } from './mqtt-access.js';

const ResultSchema = z.object({ result: z.enum(['allow', 'deny']) });

/** Brokers send more fields than these (peerhost, protocol, …): they are ignored. */
const AuthBodySchema = z.looseObject({
  username: z.string().optional(),
  password: z.string().optional(),
  clientid: z.string().optional(),
});
const AclBodySchema = z.looseObject({
  username: z.string().optional(),
  topic: z.string(),
  action: z.enum(['publish', 'subscribe']),
});

function sameSecret(given: unknown, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * HTTP auth and ACL hooks for an external broker's auth plugin (the shape of EMQX's HTTP
 * authentication and authorization), answering with the embedded broker's rules. A deny is
 * HTTP 200 with result "deny": the plugin must read the body.
 * Registered only when MQTT_HOOK_SECRET is set; the broker sends it as x-flashbooth-hook-secret.
 */
export const mqttHookRoutes: FastifyPluginAsyncZod<{ access: MqttAccess; secret: string }> = async (
  app,
  { access, secret },
) => {
  app.addHook('onRequest', async (request) => {
    if (!sameSecret(request.headers['x-flashbooth-hook-secret'], secret)) {
      throw new AppError('forbidden', 'Unknown hook caller.');
    }
  });

  app.post(
    '/auth',
    {
      schema: {
        tags: ['mqtt hooks'],
        summary: 'Broker authentication hook: the server or a device with its secret',
        body: AuthBodySchema,
        response: { 200: ResultSchema },
      },
    },
    async (request) => {
      const { username, password, clientid } = request.body;
      const ok = await access.authenticate(username, password, clientid);
      return { result: ok ? ('allow' as const) : ('deny' as const) };
    },
  );

  app.post(
    '/acl',
    {
      schema: {
        tags: ['mqtt hooks'],
        summary: 'Broker authorization hook: a device only on its own topics',
        body: AclBodySchema,
        response: { 200: ResultSchema },
      },
    },
    async (request) => {
      const { username, topic, action } = request.body;
      const ok = access.authorize(username, topic, action);
      return { result: ok ? ('allow' as const) : ('deny' as const) };
    },
  );
};
