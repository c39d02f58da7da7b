import { DEVICE_MESSAGES, MEDIA_MESSAGES } from '@flashbooth/contracts';
import fc from 'fast-check';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle } from '../../src/db/client.js';
import { openPglite } from '../databases.js';
import { eq } from 'drizzle-orm';
import { users } from '../../src/db/schema.js';
import {
  badJsonText,
  hostileValue,
  type JsonSchema,
  objectWithMutations,
  oddContentBody,
  pathSegment,
  queryString,
} from './fuzz-arbitraries.js';
import {
  appRoutes,
  authHeaders,
  CALLER_KINDS,
  Fixtures,
  type Answer,
  routeKey,
  type SecurityWorld,
  send,
  startSecurityWorld,
} from './security-suite.js';

/*
 * Generated and malformed requests to every route of the OpenAPI document, as
 * every kind of caller, on one app on PGlite whose booths never answer (the embedded broker, no
 * booth connected, 20 ms command timeouts). Any 5xx fails, except the 503 a booth that does not
 * answer gets by design. docs/security.md describes it.
 *
 * FUZZ_SEED (default fixed, so `npm test` is repeatable), FUZZ_RUNS (requests in all, spread over
 * the routes; default 4,000, about 20 s on the 2-core machine, so `npm test` keeps its 15 minutes), FUZZ_ROUTE (only the routes whose
 * "METHOD /url" contains it). `npm run fuzz` (scripts/fuzz.ts) runs it longer with a random seed.
 */

const SEED = Number(process.env.FUZZ_SEED ?? 20_240_614);
const TOTAL_RUNS = Number(process.env.FUZZ_RUNS ?? 4_000);
const ROUTE_FILTER = process.env.FUZZ_ROUTE ?? '';
const RESEED_EVERY = 10;

/** 503s a booth that is not connected gets (the device link's and the capture's messages). */
const BOOTH_DID_NOT_ANSWER = new Set<string>([
  DEVICE_MESSAGES.noAnswer,
  MEDIA_MESSAGES.captureFailed,
]);

const FUZZ_CALLERS = [...CALLER_KINDS, 'forged token', 'booth'] as const;
type FuzzCaller = (typeof FUZZ_CALLERS)[number];

interface Operation {
  method: string;
  /** OpenAPI path (`/api/enterprise/devices/{id}`). */
  path: string;
  /** The same as Fastify writes it (`/api/enterprise/devices/:id`). */
  key: string;
  pathParams: string[];
  query: Record<string, JsonSchema>;
  queryRequired: string[];
  body?: JsonSchema;
}

interface OpenApiDocument {
  paths: Record<
    string,
    Record<
      string,
      {
        parameters?: { in: string; name: string; required?: boolean; schema: JsonSchema }[];
        requestBody?: { content?: Record<string, { schema: JsonSchema }> };
      }
    >
  >;
}

function operationsOf(document: OpenApiDocument): Operation[] {
  return Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => {
      const parameters = operation.parameters ?? [];
      const query = parameters.filter((p) => p.in === 'query');
      return {
        method: method.toUpperCase(),
        path,
        key: `${method.toUpperCase()} ${path.replace(/\{\*\}/g, '*').replace(/\{(\w+)\}/g, ':$1')}`,
        pathParams: [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!),
        query: Object.fromEntries(query.map((p) => [p.name, p.schema])),
        queryRequired: query.filter((p) => p.required).map((p) => p.name),
        body: operation.requestBody?.content?.['application/json']?.schema,
      };
    }),
  );
}

/** A stable 32-bit number per route, so one route's sequence replays alone (FUZZ_ROUTE). */
function hash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h | 0;
}

type Body =
  | { kind: 'none' }
  | { kind: 'json'; value: unknown }
  | { kind: 'raw'; contentType: string; body: string };

interface Generated {
  caller: FuzzCaller;
  forged: string;
  params: string[];
  query: string;
  body: Body;
  cookie: string | undefined;
}

const FORGED_AUTHORIZATIONS = [
  'Bearer',
  'Bearer ',
  'Bearer x',
  'Bearer a.b.c',
  // alg "none", sub 1, audience enterprise
  'Bearer eyJhbGciOiJub25lIiwidHlwIjoiSldUIn0.eyJzdWIiOiIxIiwiYXVkIjoiZW50ZXJwcmlzZSJ9.',
  'Basic Zm9vOmJhcg==',
  'Device fb-0000000000:secret',
  'Device :',
  'Device \u0000',
  `Bearer ${'a'.repeat(5000)}`,
];

const shorten = (value: unknown): unknown => {
  if (typeof value === 'string') {
    return value.length > 200 ? `${value.slice(0, 200)}… (${value.length} characters)` : value;
  }
  if (Array.isArray(value)) return value.map(shorten);
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shorten(v)]));
  }
  return value;
};

describe('fuzz: no request gets a 5xx', () => {
  let database: DatabaseHandle;
  let world: SecurityWorld;
  let operations: Operation[];
  const statuses = new Map<number, number>();
  let sent = 0;
  const started = Date.now();

  beforeAll(async () => {
    database = await openPglite();
    world = await startSecurityWorld(database);
    operations = operationsOf(world.app.swagger() as OpenApiDocument);
    console.log(`fuzz: seed ${SEED}, about ${TOTAL_RUNS} requests (FUZZ_SEED=${SEED} replays)`);
  });
  afterAll(async () => {
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const summary = [...statuses.entries()]
      .sort(([a], [b]) => a - b)
      .map(([status, count]) => `${status}×${count}`)
      .join(' ');
    console.log(`fuzz: seed ${SEED}: ${sent} requests in ${seconds} s: ${summary}`);
    await world?.app.close();
    await database?.close();
  });

  it('covers every route the app mounts (the OpenAPI document lists them all)', async () => {
    const documented = new Set(operations.map((operation) => operation.key));
    const mounted = (await appRoutes(world)).map(routeKey);
    expect(mounted.filter((key) => !documented.has(key))).toEqual([]);
  });

  /** `make()`'s id in a list, or nothing when the caller's account was erased meanwhile. */
  async function onlyIfPresent(
    caller: { userId?: number | null },
    make: () => Promise<number>,
  ): Promise<number[]> {
    if (!caller.userId) return [];
    const [row] = await world.database.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.id, caller.userId));
    return row ? [await make()] : [];
  }

  /** Real rows for the requests to hit part of the time (made again every few routes, as the
   * requests delete some), and a booth's credentials. */
  async function seedRows(): Promise<{ realIds: number[]; deviceAuth: string }> {
    const f = Fixtures.fresh(world);
    const { callers } = world;
    const device = await f.device();
    const ids = [
      await f.orgId(),
      world.homeOrgId,
      world.otherOrgId,
      device.id,
      (await f.pricedDevice()).id,
      await f.template(),
      await f.templateImage(),
      await f.release(),
      await f.channel(),
      // A caller the fuzzer erased (a super user's erase with a real id) has no rows any more.
      ...(await onlyIfPresent(callers.visitor, () => f.mediaRow(callers.visitor))),
      ...(await onlyIfPresent(callers['blocked visitor'], () =>
        f.mediaRow(callers['blocked visitor']),
      )),
      ...(await onlyIfPresent(callers.visitor, () => f.transaction(callers.visitor))),
      await f.invitation(callers['no org staff'].phone),
      await f.subject(),
      (await f.guest()).userId,
      ...Object.values(callers).flatMap((caller) => (caller.userId ? [caller.userId] : [])),
    ];
    return {
      realIds: [...new Set(ids)],
      deviceAuth: `Device ${device.thingName}:${device.secret}`,
    };
  }

  function requestOf(operation: Operation, g: Generated, deviceAuth: string): InjectOptions {
    let url = operation.path;
    operation.pathParams.forEach((name, index) => {
      url = url.replace(`{${name}}`, g.params[index]!);
    });
    if (g.query) url += `?${g.query}`;
    const caller = (CALLER_KINDS as readonly string[]).includes(g.caller)
      ? world.callers[g.caller as (typeof CALLER_KINDS)[number]]
      : undefined;
    const headers: Record<string, string> = caller
      ? authHeaders(caller)
      : { authorization: g.caller === 'booth' ? deviceAuth : g.forged };
    const request: InjectOptions = { method: operation.method as 'GET', url, headers };
    if (g.cookie !== undefined) request.cookies = { flashbooth_refresh: g.cookie };
    if (g.body.kind === 'json') {
      request.payload = JSON.stringify(g.body.value ?? null);
      headers['content-type'] = 'application/json';
    } else if (g.body.kind === 'raw') {
      request.payload = g.body.body;
      if (g.body.contentType) headers['content-type'] = g.body.contentType;
    }
    return request;
  }

  function generated(operation: Operation, realIds: number[]): fc.Arbitrary<Generated> {
    const segment = pathSegment(realIds);
    const params =
      operation.pathParams.length === 0
        ? fc.constant<string[]>([])
        : fc.tuple(
            ...operation.pathParams.map((name) =>
              name === '*'
                ? fc.array(segment, { minLength: 1, maxLength: 4 }).map((parts) => parts.join('/'))
                : segment,
            ),
          );
    const hasQuery = Object.keys(operation.query).length > 0;
    const query = hasQuery
      ? queryString(operation.query, operation.queryRequired)
      : fc.oneof({ weight: 4, arbitrary: fc.constant('') }, queryString({}, []));
    const takesBody = operation.body !== undefined;
    const body: fc.Arbitrary<Body> = fc.oneof(
      {
        weight: takesBody ? 8 : 1,
        arbitrary: (takesBody ? objectWithMutations(operation.body) : hostileValue).map(
          (value): Body => ({ kind: 'json', value }),
        ),
      },
      {
        weight: 1,
        arbitrary: badJsonText.map((text): Body => ({
          kind: 'raw',
          contentType: 'application/json',
          body: text,
        })),
      },
      {
        weight: 1,
        arbitrary: oddContentBody.map(({ contentType, body: text }): Body => ({
          kind: 'raw',
          contentType,
          body: text,
        })),
      },
      { weight: takesBody ? 1 : 6, arbitrary: fc.constant<Body>({ kind: 'none' }) },
    );
    const cookie = fc.oneof(
      { weight: 6, arbitrary: fc.constant(undefined) },
      {
        weight: 1,
        arbitrary: fc.constantFrom(
          ...Object.values(world.callers).flatMap((c) => c.refreshCookies),
          '',
          'x',
          '\u0000',
          'a'.repeat(5000),
        ),
      },
    );
    return fc.record({
      caller: fc.constantFrom(...FUZZ_CALLERS),
      forged: fc.constantFrom(...FORGED_AUTHORIZATIONS),
      params,
      query,
      body,
      cookie,
    });
  }

  const selected = () =>
    operations.filter((operation) => operation.key.includes(ROUTE_FILTER) || ROUTE_FILTER === '');

  // The routes are known only once the app is built, so one test walks them all in order (a
  // failure names its route, caller, request and seed).
  it(
    'answers every generated request to every route without a 5xx',
    async () => {
      const routes = selected();
      expect(routes.length, `no route matches FUZZ_ROUTE=${ROUTE_FILTER}`).toBeGreaterThan(0);
      const runsPerRoute = Math.max(1, Math.ceil(TOTAL_RUNS / routes.length));
      const failures: string[] = [];
      let realIds: number[] = [];
      let deviceAuth = '';
      for (const [index, operation] of routes.entries()) {
        if (index % RESEED_EVERY === 0) {
          ({ realIds, deviceAuth } = await seedRows());
        }
        let last: { request: InjectOptions; caller: FuzzCaller; response: Answer } | undefined;
        const seed = (SEED + hash(operation.key)) | 0;
        const result = await fc.check(
          fc.asyncProperty(generated(operation, realIds), async (g) => {
            const request = requestOf(operation, g, deviceAuth);
            const response = await send(world.app, request);
            sent += 1;
            statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
            if (response.statusCode < 500) return true;
            const message = (() => {
              try {
                return (JSON.parse(response.body) as { message?: string }).message;
              } catch {
                return undefined;
              }
            })();
            if (response.statusCode === 503 && message && BOOTH_DID_NOT_ANSWER.has(message)) {
              return true;
            }
            last = { request, caller: g.caller, response };
            return false;
          }),
          { seed, numRuns: runsPerRoute },
        );
        if (result.failed && last) {
          failures.push(
            [
              `${operation.key}: ${last.response.statusCode} ${last.response.body.slice(0, 300)}`,
              `  caller: ${last.caller}`,
              // A caller's token is shown by its kind (it is only valid in this run).
              `  request: ${JSON.stringify(
                shorten({
                  ...last.request,
                  headers: {
                    ...last.request.headers,
                    ...(last.caller === 'forged token'
                      ? {}
                      : { authorization: `<${last.caller}>` }),
                  },
                }),
              )}`,
              `  replay: FUZZ_SEED=${SEED} FUZZ_ROUTE='${operation.key}' FUZZ_RUNS=${runsPerRoute} ` +
                `npx vitest run --project integration apps/server/test/security/fuzz.int.test.ts ` +
                `(route seed ${seed}, fast-check path ${result.counterexamplePath})`,
            ].join('\n'),
          );
        } else if (result.failed) {
          failures.push(`${operation.key}: ${String(result.errorInstance ?? 'failed')}`);
        }
      }
      expect(failures.join('\n\n'), failures.join('\n\n')).toBe('');
    },
    // About 1 s per 100 requests on a loaded 2-core machine, with room to spare.
    Math.max(120_000, TOTAL_RUNS * 30),
  );
});
