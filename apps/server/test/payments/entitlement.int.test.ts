import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client.js';
import { migrate } from '../../src/db/migrate.js';
import { devices, paymentTransactions, users } from '../../src/db/schema.js';
import {
  consumePaidEntitlement,
  releasePaidEntitlement,
} from '../../src/modules/payments/entitlement.js';
import { databaseTargets } from '../databases.js';
import { createOrganization, createTemplate } from '../media-fixtures.js';
import { transactionRow } from '../payments-fixtures.js';

describe.each(databaseTargets)('paid capture entitlement on $name', ({ name, open }) => {
  let database: DatabaseHandle;
  let orgId: number;
  let deviceId: number;
  let otherDeviceId: number;
  let templateId: number;
  let otherTemplateId: number;
  let counter = 0;

  beforeAll(async () => {
    database = await open();
    await migrate(database.db);
    orgId = await createOrganization(database.db, 'Sunrise Mall');
    const [booth, other] = await database.db
      .insert(devices)
      .values([
        { name: 'Booth A', orgId, thingName: `fb-ent${process.pid}a`, secretHash: 'x' },
        { name: 'Booth B', orgId, thingName: `fb-ent${process.pid}b`, secretHash: 'x' },
      ])
      .returning({ id: devices.id });
    deviceId = booth!.id;
    otherDeviceId = other!.id;
    templateId = await createTemplate(database.db, { orgIds: [orgId] });
    otherTemplateId = await createTemplate(database.db, { orgIds: [orgId] });
  });
  afterAll(async () => {
    await database.close();
  });

  const visitor = async () => {
    counter += 1;
    const [row] = await database.db
      .insert(users)
      .values({ pool: 'regular', phone: `+9180${process.pid % 10000}${counter}`, name: 'V' })
      .returning({ id: users.id });
    return row!.id;
  };

  const payment = async (
    userId: number,
    options: {
      state?: 'PENDING' | 'COMPLETED' | 'FAILED' | 'REFUNDED';
      device?: number;
      template?: number;
      completedAt?: Date;
    } = {},
  ) => {
    counter += 1;
    const at = new Date();
    const [row] = await database.db
      .insert(paymentTransactions)
      .values({
        userId,
        deviceId: options.device ?? deviceId,
        orgId,
        templateId: options.template ?? templateId,
        provider: 'sandbox',
        orderId: `FBTEST${process.pid}X${counter}`,
        amountPaise: 4950,
        state: options.state ?? 'COMPLETED',
        expiresAt: at,
        nextCheckAt: at,
        completedAt: options.completedAt ?? at,
      })
      .returning({ id: paymentTransactions.id });
    return row!.id;
  };

  const claim = (userId: number, captureId = randomUUID()) => ({
    userId,
    deviceId,
    templateId,
    captureId,
  });

  it('finds nothing without a payment, and never a pending, failed, refunded or foreign one', async () => {
    const me = await visitor();
    const someoneElse = await visitor();
    await payment(me, { state: 'PENDING' });
    await payment(me, { state: 'FAILED' });
    await payment(me, { state: 'REFUNDED' });
    await payment(me, { device: otherDeviceId });
    await payment(me, { template: otherTemplateId });
    await payment(someoneElse);
    expect(await consumePaidEntitlement(database.db, claim(me))).toBeNull();
  });

  it('uses the oldest unused payment for this visitor, booth and template, once', async () => {
    const me = await visitor();
    const newer = await payment(me, { completedAt: new Date('2026-01-02T00:00:00Z') });
    const older = await payment(me, { completedAt: new Date('2026-01-01T00:00:00Z') });
    const first = randomUUID();
    expect(await consumePaidEntitlement(database.db, claim(me, first))).toEqual({
      transactionId: older,
      amountPaise: 4950,
      creditPaise: 0,
    });
    expect((await transactionRow(database.db, older)).consumedCaptureId).toBe(first);
    expect((await consumePaidEntitlement(database.db, claim(me)))?.transactionId).toBe(newer);
    expect(await consumePaidEntitlement(database.db, claim(me))).toBeNull();
  });

  it('lets exactly one of 50 concurrent captures use one payment', async () => {
    const me = await visitor();
    const id = await payment(me);
    const captureIds = Array.from({ length: 50 }, () => randomUUID());
    const results = await Promise.all(
      captureIds.map((captureId) =>
        database.db.transaction((tx) => consumePaidEntitlement(tx, claim(me, captureId))),
      ),
    );
    const winners = results.flatMap((result, i) => (result ? [captureIds[i]] : []));
    expect(winners).toHaveLength(1);
    expect(results.filter(Boolean)).toEqual([
      { transactionId: id, amountPaise: 4950, creditPaise: 0 },
    ]);
    expect((await transactionRow(database.db, id)).consumedCaptureId).toBe(winners[0]);
  });

  it('lets exactly two of 50 concurrent captures through on two payments', async () => {
    const me = await visitor();
    const ids = [await payment(me), await payment(me)];
    const results = await Promise.all(
      Array.from({ length: 50 }, () =>
        database.db.transaction((tx) => consumePaidEntitlement(tx, claim(me))),
      ),
    );
    const used = results.flatMap((result) => (result ? [result.transactionId] : []));
    expect(used.sort()).toEqual([...ids].sort());
  });

  // PGlite runs one transaction at a time: a row lock held across two of them cannot happen.
  it.skipIf(name === 'pglite')(
    'waits for a payment whose row another transaction holds instead of skipping it',
    async () => {
      // The visitor's status check and the provider's webhook settle the same payment at once:
      // the one that finds it already COMPLETED holds its row a moment longer, changing nothing.
      // A capture made meanwhile must wait for it, not miss the payment and ask to pay again.
      const me = await visitor();
      const id = await payment(me);
      let release!: () => void;
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let locked!: () => void;
      const isLocked = new Promise<void>((resolve) => {
        locked = resolve;
      });
      const settle = database.db.transaction(async (tx) => {
        await tx
          .select({ id: paymentTransactions.id })
          .from(paymentTransactions)
          .where(eq(paymentTransactions.id, id))
          .for('update');
        locked();
        await held;
      });
      await isLocked;
      const capture = database.db.transaction((tx) => consumePaidEntitlement(tx, claim(me)));
      await new Promise((resolve) => setTimeout(resolve, 100));
      release();
      await settle;
      expect((await capture)?.transactionId).toBe(id);
    },
  );

  it('gives the payment back when the capture delivers nothing, once', async () => {
    const me = await visitor();
    const id = await payment(me);
    const failed = randomUUID();
    expect(await consumePaidEntitlement(database.db, claim(me, failed))).not.toBeNull();
    expect(await releasePaidEntitlement(database.db, failed)).toBe(id);
    expect(await releasePaidEntitlement(database.db, failed)).toBeNull();
    expect(await releasePaidEntitlement(database.db, randomUUID())).toBeNull();
    const row = await transactionRow(database.db, id);
    expect(row.consumedCaptureId).toBeNull();
    expect(row.consumedAt).toBeNull();
    // The next capture may use it; a late release of the failed capture does not touch it.
    const retry = randomUUID();
    expect((await consumePaidEntitlement(database.db, claim(me, retry)))?.transactionId).toBe(id);
    expect(await releasePaidEntitlement(database.db, failed)).toBeNull();
    expect((await transactionRow(database.db, id)).consumedCaptureId).toBe(retry);
  });

  it('keeps the payment when the capture transaction rolls back', async () => {
    const me = await visitor();
    const id = await payment(me);
    await expect(
      database.db.transaction(async (tx) => {
        expect(await consumePaidEntitlement(tx, claim(me))).not.toBeNull();
        throw new Error('booth refused');
      }),
    ).rejects.toThrow('booth refused');
    expect((await transactionRow(database.db, id)).consumedCaptureId).toBeNull();
    expect(await consumePaidEntitlement(database.db, claim(me))).not.toBeNull();
  });

  it('does not revive a payment refunded while its capture ran', async () => {
    const me = await visitor();
    const id = await payment(me);
    const captureId = randomUUID();
    await consumePaidEntitlement(database.db, claim(me, captureId));
    await database.db
      .update(paymentTransactions)
      .set({ state: 'REFUNDED' })
      .where(eq(paymentTransactions.id, id));
    expect(await releasePaidEntitlement(database.db, captureId)).toBe(id);
    expect(await consumePaidEntitlement(database.db, claim(me))).toBeNull();
  });

  it('records the capture time given', async () => {
    const me = await visitor();
    const id = await payment(me);
    const at = new Date('2026-03-04T05:06:07Z');
    await consumePaidEntitlement(database.db, { ...claim(me), at });
    expect((await transactionRow(database.db, id)).consumedAt?.toISOString()).toBe(
      at.toISOString(),
    );
  });
});
