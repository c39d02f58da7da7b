import { timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { MqttAccess, MqttAction } from './mqtt-access.js';

/** mosquitto-go-auth's HTTP backend, `auth_opt_http_params_mode json` (extra fields ignored). */
const UserBodySchema = z.looseObject({
  username: z.string().optional(),
  password: z.string().optional(),
  clientid: z.string().optional(),
});
const AclBodySchema = z.looseObject({
  username: z.string().optional(),
  clientid: z.string().optional(),
  topic: z.string(),
  /** Mosquitto's access bits: 1 read (a message delivered), 2 write (publish), 4 subscribe. */
  acc: z.coerce.number().int().min(1).max(7),
});
const QuerySchema = z.looseObject({ secret: z.string().optional() });

function sameSecret(given: unknown, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The actions an `acc` asks for: reading a message needs the right to subscribe to its topic. */
function actionsOf(acc: number): MqttAction[] {
  const actions = new Set<MqttAction>();
  if (acc & 1 || acc & 4) actions.add('subscribe');
  if (acc & 2) actions.add('publish');
  return [...actions];
}

/**
 * The same access rules for Mosquitto with the mosquitto-go-auth plugin's HTTP backend
 * (`auth_opt_http_response_mode status`: 200 allows, anything else denies). go-auth cannot send
 * a header of its own, so the hook secret (MQTT_HOOK_SECRET) comes in the URI the operator
 * configures (`/api/mqtt/go-auth/user?secret=…`); these routes log at warn only, so it never
 * reaches the request log. deploy/mosquitto/mosquitto.conf is the configuration to copy.
 */
export const mqttGoAuthRoutes: FastifyPluginAsyncZod<{
  access: MqttAccess;
  secret: string;
}> = async (app, { access, secret }) => {
  app.addHook('onRequest', async (request, reply) => {
    const { secret: given } = request.query as { secret?: unknown };
    if (!sameSecret(given, secret)) {
      await reply.code(403).send({ message: 'Unknown hook caller.', code: 'forbidden' });
    }
  });

  app.post(
    '/user',
    {
      logLevel: 'warn',
      schema: {
        tags: ['mqtt hooks'],
        summary:
          "Mosquitto go-auth's HTTP user check (200 allows, 403 denies; the secret in the URL)",
        querystring: QuerySchema,
        body: UserBodySchema,
      },
    },
    async (request, reply) => {
      const { username, password, clientid } = request.body;
      const ok = await access.authenticate(username, password, clientid);
      return reply.code(ok ? 200 : 403).send(ok ? 'ok' : 'denied');
    },
  );

  app.post(
    '/acl',
    {
      logLevel: 'warn',
      schema: {
        tags: ['mqtt hooks'],
        summary: "Mosquitto go-auth's HTTP topic check: a device only on its own topics",
        querystring: QuerySchema,
        body: AclBodySchema,
      },
    },
    async (request, reply) => {
      const { username, topic, acc } = request.body;
      const ok = actionsOf(acc).every((action) => access.authorize(username, topic, action));
      return reply.code(ok ? 200 : 403).send(ok ? 'ok' : 'denied');
    },
  );
};
