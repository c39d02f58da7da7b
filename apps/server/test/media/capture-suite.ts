import { randomUUID } from 'node:crypto';
import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client.js';
import {
  captures,
  creditLedger,
  deviceErrors,
  media,
  paymentTransactions,
  users,
} from '../../src/db/schema.js';
import type { DatabaseTarget } from '../databases.js';
import { bearer, signedIn, startApp, type TestApp } from '../harness.js';
import {
  capture,
  createBooth,
  createOrganization,
  createTemplate,
  makeJpeg,
  ScriptedLink,
} from '../media-fixtures.js';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** 3 photos × 10 s, no margin: a capture is due 30 s after its booth accepted it. */
export const SWEEP_ENV = {
  CAPTURE_DELIVERY_MARGIN_SECONDS: '0',
  // The delivery promise from the countdown's end (30 s for the three-slot template) on.
  DELIVERY_DEADLINE_MINUTES: '0',
  CAPTURE_SWEEP_INTERVAL_MS: '40',
};

/**
 * One test file's app on a scripted booth line, Sunrise Mall offering a three-slot template,
 * Harbour Café offering nothing, and what the capture tests read. Started before the file's
 * tests, stopped after them.
 */
export function useCaptureSuite(open: DatabaseTarget['open']): CaptureSuite {
  const suite = new CaptureSuite();
  beforeAll(() => suite.start(open));
  afterAll(() => suite.stop());
  return suite;
}

export class CaptureSuite {
  database!: DatabaseHandle;
  testApp!: TestApp;
  app!: FastifyInstance;
  readonly link = new ScriptedLink();
  orgId!: number;
  otherOrgId!: number;
  templateId!: number;

  async start(open: DatabaseTarget['open']) {
    this.database = await open();
    this.testApp = await startApp(
      this.database,
      { OTP_SEND_LIMIT_PER_IP: '1000', DEVICE_COMMAND_TIMEOUT_MS: '200', ...SWEEP_ENV },
      { deviceLink: this.link },
    );
    this.app = this.testApp.app;
    this.orgId = await createOrganization(this.database.db, 'Sunrise Mall');
    this.otherOrgId = await createOrganization(this.database.db, 'Harbour Café');
    this.templateId = await createTemplate(this.database.db, {
      orgIds: [this.orgId],
      slots: 3,
      foregroundKey: 'templates/foregrounds/1/0b7e8d2c-7c3e-4a57-9a43-0d5f2c1f1e11.png',
    });
  }

  async stop() {
    await this.app.close();
    await this.database.close();
  }

  visitor = async (creditsPaise = 0) => {
    const person = await signedIn(this.app, 'regular');
    if (creditsPaise > 0) {
      await this.database.db.update(users).set({ creditsPaise }).where(eq(users.id, person.userId));
    }
    return person;
  };
  creditsOf = async (userId: number) =>
    (await this.database.db.select().from(users).where(eq(users.id, userId)))[0]!.creditsPaise;
  ledgerOf = (userId: number) =>
    this.database.db
      .select()
      .from(creditLedger)
      .where(eq(creditLedger.userId, userId))
      .orderBy(asc(creditLedger.id));
  mediaOf = (userId: number) =>
    this.database.db.select().from(media).where(eq(media.userId, userId)).orderBy(asc(media.id));
  captureRow = async (captureId: string) =>
    (await this.database.db.select().from(captures).where(eq(captures.captureId, captureId)))[0];
  /** What My Media shows the visitor. */
  myMedia = async (token: string) =>
    (
      await this.app.inject({ method: 'GET', url: '/api/regular/media', headers: bearer(token) })
    ).json<{
      items: { id: number; is_uploaded: boolean }[];
      total_count: number;
    }>();
  errorLogOf = (deviceId: number) =>
    this.database.db
      .select()
      .from(deviceErrors)
      .where(eq(deviceErrors.deviceId, deviceId))
      .orderBy(asc(deviceErrors.id));

  /** An accepted credit capture: the visitor, the booth, the capture and its media id. */
  acceptedCapture = async (pricePaise = 3000) => {
    const booth = await createBooth(this.database.db, this.link, { orgId: this.orgId, pricePaise });
    const person = await this.visitor(pricePaise);
    const response = await capture(this.app, person.token, booth.id, this.templateId);
    expect(response.statusCode, response.body).toBe(200);
    const sent = this.link.lastCapture(booth.thingName);
    return {
      booth,
      person,
      captureId: sent.capture_id,
      mediaId: sent.uploads[0]!.media_id,
      uploadUrl: sent.uploads[0]!.upload_url,
    };
  };
  refundsOf = async (userId: number) =>
    (await this.ledgerOf(userId)).filter((row) => row.reason === 'refund');
  deliver = async (uploadUrl: string, mediaId: number, auth: Record<string, string>) => {
    const put = await this.app.inject({
      method: 'PUT',
      url: uploadUrl,
      payload: await makeJpeg(800),
      headers: { 'content-type': 'image/jpeg' },
    });
    expect(put.statusCode).toBe(204);
    return this.app.inject({
      method: 'POST',
      url: `/api/device/media/${mediaId}/uploaded`,
      headers: auth,
    });
  };

  /** A payment the provider confirmed, not yet used by a capture. */
  completedPayment = async (userId: number, deviceId: number, amountPaise: number) => {
    const now = new Date();
    const [row] = await this.database.db
      .insert(paymentTransactions)
      .values({
        userId,
        deviceId,
        orgId: this.orgId,
        templateId: this.templateId,
        provider: 'sandbox',
        orderId: `T${randomUUID().replaceAll('-', '')}`,
        amountPaise,
        state: 'COMPLETED',
        expiresAt: now,
        nextCheckAt: now,
        completedAt: now,
      })
      .returning({ id: paymentTransactions.id });
    return row!.id;
  };
  paymentRow = async (id: number) =>
    (
      await this.database.db
        .select()
        .from(paymentTransactions)
        .where(eq(paymentTransactions.id, id))
    )[0]!;
}
