import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client.js';
import type { DatabaseTarget } from '../databases.js';
import { type TestClock, startApp } from '../harness.js';
import {
  createBooth,
  createOrganization,
  createTemplate,
  ScriptedLink,
} from '../media-fixtures.js';
import { claimPaidCapture, paymentsApi } from '../payments-fixtures.js';

/**
 * One test file's app on the sandbox provider, a booth (₹49.50) of an organization offering one
 * template, and the calls the sandbox payment tests make. Started before the file's tests,
 * stopped after them.
 */
export function useSandboxSuite(open: DatabaseTarget['open']): SandboxSuite {
  const suite = new SandboxSuite();
  beforeAll(() => suite.start(open));
  afterAll(() => suite.stop());
  return suite;
}

export class SandboxSuite {
  database!: DatabaseHandle;
  app!: FastifyInstance;
  clock!: TestClock;
  superPhone!: string;
  api!: ReturnType<typeof paymentsApi>;
  readonly link = new ScriptedLink();
  orgId!: number;
  templateId!: number;
  booth!: Awaited<ReturnType<typeof createBooth>>;

  async start(open: DatabaseTarget['open']) {
    this.database = await open();
    const { app, clock, superPhone } = await startApp(
      this.database,
      { OTP_SEND_LIMIT_PER_IP: '1000', PAYMENT_RECONCILE_INTERVAL_SECONDS: '0' },
      { deviceLink: this.link },
    );
    Object.assign(this, { app, clock, superPhone });
    this.api = paymentsApi(app);
    this.orgId = await createOrganization(this.database.db, 'Sunrise Mall');
    this.templateId = await createTemplate(this.database.db, { orgIds: [this.orgId] });
    this.booth = await createBooth(this.database.db, this.link, {
      orgId: this.orgId,
      pricePaise: 4950,
      name: 'Atrium Booth',
    });
  }

  async stop() {
    await this.app.close();
    await this.database.close();
  }

  /** create + checkout; returns the transaction id and the sandbox page's path. */
  startPayment = async (token: string, deviceId = this.booth.id) => {
    const created = await this.api.create(token, deviceId, this.templateId);
    expect(created.statusCode, created.body).toBe(200);
    const txnId = created.json<{ txn_id: number }>().txn_id;
    const checkout = await this.api.checkout(token, txnId);
    expect(checkout.statusCode, checkout.body).toBe(200);
    return { txnId, paymentUrl: checkout.json<{ payment_url: string }>().payment_url };
  };
  /** The capture a completed payment entitles the visitor to at this booth, if any (used up). */
  claimCapture = (userId: number) =>
    claimPaidCapture(this.database.db, {
      userId,
      deviceId: this.booth.id,
      templateId: this.templateId,
    });
  act = (paymentUrl: string, action: string) =>
    this.app.inject({
      method: 'POST',
      url: paymentUrl,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ action }).toString(),
    });
}
