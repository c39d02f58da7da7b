/**
 * Payments API figures for docs/benchmarks.md: throughput and latency of
 *   POST /api/regular/payments/create, POST /api/regular/payments/checkout (sandbox provider)
 *   and GET /api/regular/payments/{id}/status on a pending payment (which asks the provider),
 * on PGlite and on PostgreSQL. Bounded: BENCH_REQUESTS calls per figure (default 2000),
 * BENCH_CONCURRENCY in flight (default 16), against a server on 127.0.0.1 only.
 * Usage: npm run bench:payments  (PostgreSQL from TEST_POSTGRES_URL, default
 * postgres://postgres@127.0.0.1:5432/test; skipped when unreachable)
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import type { DatabaseHandle } from '../apps/server/src/db/client.js';
import {
  devices,
  organizations,
  templateImages,
  templateOrganizations,
  templates,
  users,
} from '../apps/server/src/db/schema.js';
import { AccessTokens } from '../apps/server/src/security/access-tokens.js';
import {
  benchConfig,
  benchOnEachDatabase,
  CONCURRENCY,
  listenOnLoopback,
  load,
  REQUESTS,
  type Result,
} from './bench-support.js';

async function benchPayments(kind: string, database: DatabaseHandle): Promise<Result[]> {
  const config = benchConfig({
    PAYMENT_PROVIDER: 'sandbox',
    PAYMENT_RECONCILE_INTERVAL_SECONDS: '0',
  });
  const { app, base } = await listenOnLoopback(config, database);
  const db = database.db;

  // A booth at ₹49.50 with one template, and one visitor per request (tokens minted directly:
  // the figure is the payments path, not sign-in).
  const [org] = await db
    .insert(organizations)
    .values({ name: 'Bench Mall' })
    .returning({ id: organizations.id });
  const [template] = await db
    .insert(templates)
    .values({ name: 'Bench' })
    .returning({ id: templates.id });
  await db.insert(templateImages).values({ templateId: template!.id, x: 0, y: 0, w: 10, h: 10 });
  await db.insert(templateOrganizations).values({ templateId: template!.id, orgId: org!.id });
  const [booth] = await db
    .insert(devices)
    .values({
      name: 'Bench Booth',
      orgId: org!.id,
      thingName: `fb-bench${randomBytes(4).toString('hex')}`,
      secretHash: 'x',
      pricePaise: 4950,
    })
    .returning({ id: devices.id });
  const tokens = new AccessTokens(config.authSecret, 3600, () => new Date());
  const visitors: string[] = [];
  for (let i = 0; i < REQUESTS; i += 500) {
    const rows = await db
      .insert(users)
      .values(
        Array.from({ length: Math.min(500, REQUESTS - i) }, (_, k) => ({
          pool: 'regular' as const,
          phone: `+9170${String(i + k).padStart(8, '0')}`,
          name: 'Bench',
        })),
      )
      .returning({ id: users.id });
    for (const row of rows) visitors.push(await tokens.sign({ userId: row.id, pool: 'regular' }));
  }
  const call = (i: number, method: 'GET' | 'POST', url: string, body?: unknown) =>
    fetch(`${base}${url}`, {
      method,
      headers: {
        authorization: `Bearer ${visitors[i]}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  const txnIds: number[] = [];
  const create = await load(`${kind}: POST payments/create`, REQUESTS, async (i) => {
    const response = await call(i, 'POST', '/api/regular/payments/create', {
      device_id: booth!.id,
      template_id: template!.id,
    });
    const body = (await response.json()) as { txn_id?: number };
    if (body.txn_id) txnIds[i] = body.txn_id;
    return response.status === 200;
  });
  const checkout = await load(`${kind}: POST payments/checkout`, REQUESTS, async (i) => {
    const response = await call(i, 'POST', '/api/regular/payments/checkout', {
      txn_id: txnIds[i],
      redirect_url: `${base}/payment-status?deviceId=${booth!.id}&template_id=${template!.id}&txn_id=${txnIds[i]}`,
    });
    await response.arrayBuffer();
    return response.status === 200;
  });
  const status = await load(`${kind}: GET payments/{id}/status`, REQUESTS, async (i) => {
    const response = await call(i, 'GET', `/api/regular/payments/${txnIds[i]}/status`);
    const body = (await response.json()) as { state?: string };
    return response.status === 200 && body.state === 'PENDING';
  });
  await app.close();
  return [create, checkout, status];
}

console.log(
  `Payments API (sandbox provider): ${REQUESTS} requests per figure, ${CONCURRENCY} in flight, one server process on ${os.cpus().length} cores`,
);
await benchOnEachDatabase(42, benchPayments);
