import { PAYMENT_MESSAGES, PAYMENT_MIN_PAISE } from '@flashbooth/contracts';
import { describe, expect, it } from 'vitest';
import {
  expectAppError,
  memoryLog,
  type Outcome,
  outcomeOf,
  people,
  type Role,
} from '../../../test/unit-fakes.js';
import type { PaymentTransactionRow } from '../../db/schema.js';
import {
  type OrderStatus,
  type PaymentProvider,
  type ProviderName,
  ProviderError,
} from './payment-provider.js';
import type {
  NewTransaction,
  PaymentsRepository,
  TransactionState,
  Transition,
} from './payments.repository.js';
import { PaymentsService } from './payments.service.js';
import type { RefundsRepository } from './refunds.repository.js';

const NOW = new Date('2025-09-30T10:00:00Z');
const minutes = (n: number) => new Date(NOW.getTime() + n * 60_000);
const EXPIRE_AFTER_SECONDS = 900;
/** After its checkout's expiry the provider gets ten minutes to report a late payment. */
const GRACE_MINUTES = 10;

/**
 * Payment transactions in memory. `transition` applies a change only when the service's
 * `allowed` says so for the row as it is now, as the real one does under a row lock; it records
 * every transition made, so a test sees the state machine the service drives.
 */
class FakePayments {
  readonly rows = new Map<number, PaymentTransactionRow>();
  readonly transitions: { id: number; from: TransactionState; to: TransactionState }[] = [];
  readonly created: NewTransaction[] = [];
  readonly creditRefunds: number[] = [];
  readonly sourceRefunds: number[] = [];
  /** What `create` finds: the booth, the template, and whether the credit covers the price. */
  foundBooth:
    { id: number; orgId: number | null; pricePaise: number; status?: string } | undefined = {
    id: 5,
    orgId: 1,
    pricePaise: 5000,
    status: 'idle',
  };
  foundTemplate: { id: number; offered: boolean; slots: number } | undefined = {
    id: 3,
    offered: true,
    slots: 3,
  };
  creditCovers = false;
  /** Whose payments `add` makes unless told otherwise: the visitor of `people()`. */
  ownerId = 0;
  private nextId = 1;

  add(values: Partial<PaymentTransactionRow> = {}): PaymentTransactionRow {
    const id = this.nextId++;
    const row: PaymentTransactionRow = {
      id,
      userId: this.ownerId,
      deviceId: 5,
      orgId: 1,
      templateId: 3,
      provider: 'phonepe',
      orderId: `FB20250930ORDER${id}`,
      providerOrderId: null,
      amountPaise: 2000,
      creditPaise: 3000,
      state: 'PENDING',
      failureReason: null,
      redirectUrl: 'https://flashbooth.example/payment-status',
      paymentUrl: 'https://pay.example/checkout',
      checkoutClaimedAt: null,
      expiresAt: minutes(15),
      nextCheckAt: NOW,
      completedAt: null,
      consumedCaptureId: null,
      consumedAt: null,
      createdAt: NOW,
      updatedAt: NOW,
      ...values,
    };
    this.rows.set(id, row);
    return row;
  }

  async device() {
    return this.foundBooth && { ...this.foundBooth, name: 'Atrium', orgName: 'Sunrise Mall' };
  }
  async template() {
    return this.foundTemplate;
  }
  async create(values: NewTransaction) {
    this.created.push(values);
    if (this.creditCovers) return { outcome: 'covered' as const };
    return { outcome: 'created' as const, row: this.add({ state: 'PENDING' }) };
  }
  async findById(id: number) {
    return this.rows.get(id);
  }
  async findByOrderId(orderId: string) {
    return [...this.rows.values()].find((row) => row.orderId === orderId);
  }
  async findOwned(userId: number, id: number) {
    const row = this.rows.get(id);
    return row?.userId === userId ? row : undefined;
  }
  async findView(id: number) {
    const row = this.rows.get(id);
    return row && { ...row, orgName: 'Sunrise Mall', deviceName: 'Atrium' };
  }
  async claimCheckout() {
    return true;
  }
  async releaseCheckoutClaim() {}
  async saveCheckout(id: number, values: { paymentUrl: string }) {
    Object.assign(this.rows.get(id)!, { paymentUrl: values.paymentUrl });
  }
  async transition(id: number, change: Transition) {
    const row = this.rows.get(id);
    if (!row || !change.allowed(row)) return undefined;
    this.transitions.push({ id, from: row.state, to: change.to });
    return Object.assign(row, change.changes, { state: change.to });
  }
  async claimDue() {
    return [...this.rows.values()].filter((row) => row.state === 'PENDING');
  }
  async claimDueRefunds() {
    return [];
  }
  async unusedCompleted() {
    return [];
  }
  async refundToCredit(id: number) {
    this.creditRefunds.push(id);
    Object.assign(this.rows.get(id)!, { state: 'REFUNDED' });
    return true;
  }
  async startSourceRefund(id: number) {
    this.sourceRefunds.push(id);
    return true;
  }
  async finishRefund() {
    return true;
  }
}

/** A provider whose answer about every order the test sets (`answer`), or that is unreachable. */
class FakeProvider implements PaymentProvider {
  answer: OrderStatus | 'unreachable' = {
    state: 'PENDING',
    amountPaise: 2000,
    providerOrderId: null,
  };
  readonly asked: string[] = [];
  readonly checkouts: string[] = [];
  refundOutcome: 'completed' | 'refused' = 'completed';
  constructor(readonly name: ProviderName = 'phonepe') {}
  async createCheckout(order: { orderId: string }) {
    this.checkouts.push(order.orderId);
    return { paymentUrl: 'https://pay.example/new', providerOrderId: 'P1', expiresAt: minutes(15) };
  }
  async orderStatus(orderId: string) {
    this.asked.push(orderId);
    if (this.answer === 'unreachable') throw new ProviderError('timeout', false);
    return this.answer;
  }
  async refund() {
    if (this.refundOutcome === 'refused') throw new ProviderError('refused', true, 400);
    return { state: 'COMPLETED' as const, providerRefundId: 'R1' };
  }
  async refundStatus() {
    return { state: 'COMPLETED' as const, providerRefundId: 'R1' };
  }
}

function setUp(now: () => Date = () => NOW) {
  const everyone = people();
  const repository = new FakePayments();
  repository.ownerId = everyone.rows.visitor.id;
  const provider = new FakeProvider();
  const service = new PaymentsService({
    repository: repository as unknown as PaymentsRepository,
    refunds: repository as unknown as RefundsRepository,
    provider,
    users: everyone.users,
    now,
    log: memoryLog(),
    expireAfterSeconds: EXPIRE_AFTER_SECONDS,
    reconcileIntervalSeconds: 60,
    unusedCreditMinutes: 15,
    returnOrigins: ['https://flashbooth.example'],
  });
  return { ...everyone, repository, provider, service };
}

const paid = (amountPaise = 2000): OrderStatus => ({
  state: 'COMPLETED',
  amountPaise,
  providerOrderId: 'P1',
});
const declined: OrderStatus = { state: 'FAILED', amountPaise: 2000, providerOrderId: 'P1' };

describe('payment status transitions (the provider decides, once)', () => {
  type Start = Pick<PaymentTransactionRow, 'state' | 'failureReason'>;
  const pending: Start = { state: 'PENDING', failureReason: null };
  const declinedRow: Start = { state: 'FAILED', failureReason: 'declined' };
  const expiredRow: Start = { state: 'FAILED', failureReason: 'expired' };
  const mismatched: Start = { state: 'FAILED', failureReason: 'amount_mismatch' };
  const completed: Start = { state: 'COMPLETED', failureReason: null };

  it.each([
    ['a pending payment reported paid completes', pending, paid(), completed],
    ['a pending payment reported declined fails', pending, declined, declinedRow],
    [
      'a pending payment reported paid another amount fails for review',
      pending,
      paid(1999),
      mismatched,
    ],
    // The money moved after all: a late payment wins over a failure we decided ourselves.
    ['an expired payment reported paid after all completes', expiredRow, paid(), completed],
    ['a declined payment reported paid after all completes', declinedRow, paid(), completed],
    // A failure stays a failure: FAILED is only ever entered from PENDING.
    [
      'a declined payment reported declined again stays as it was',
      declinedRow,
      declined,
      declinedRow,
    ],
    ['an expired payment reported declined stays expired', expiredRow, declined, expiredRow],
    [
      'an expired payment reported paid another amount fails for review',
      expiredRow,
      paid(1),
      mismatched,
    ],
  ] as const)('%s', async (_name, start, status, end) => {
    const { service, repository, provider } = setUp();
    const row = repository.add(start);
    provider.answer = status;
    const result = await service.settle(row, 'webhook');
    expect(result).toMatchObject(end);
    expect(provider.asked).toEqual([row.orderId]);
  });

  it.each([
    ['a completed payment', { state: 'COMPLETED' as const }],
    ['a refunded payment', { state: 'REFUNDED' as const }],
    ['a payment being refunded', { state: 'REFUND_PENDING' as const }],
    [
      'a payment held for review (amount mismatch)',
      { state: 'FAILED' as const, failureReason: 'amount_mismatch' as const },
    ],
    ['a payment without a checkout yet', { paymentUrl: null }],
    ["another provider's payment", { provider: 'sandbox' as const }],
  ])('does not even ask the provider about %s', async (_name, values) => {
    const { service, repository, provider } = setUp();
    const row = repository.add(values);
    provider.answer = paid();
    const before = { ...row };
    expect(await service.settle(row, 'webhook')).toEqual(before);
    expect(provider.asked).toEqual([]);
    expect(repository.transitions).toEqual([]);
  });

  it('changes nothing while the provider cannot be reached', async () => {
    const { service, repository, provider } = setUp();
    const row = repository.add();
    provider.answer = 'unreachable';
    expect(await service.settle(row, 'status')).toMatchObject({ state: 'PENDING' });
    expect(repository.transitions).toEqual([]);
  });

  it('completes a payment once, however many webhooks, status calls and reconcilers report it', async () => {
    const { service, repository, provider, claims } = setUp();
    const row = repository.add();
    provider.answer = paid();
    await Promise.all([
      service.hint({ kind: 'order', orderId: row.orderId }),
      service.hint({ kind: 'order', orderId: row.orderId }),
      service.status(claims.visitor, row.id),
      service.reconcile(),
    ]);
    expect(repository.transitions).toEqual([{ id: row.id, from: 'PENDING', to: 'COMPLETED' }]);
  });
});

describe('the payment status screen', () => {
  it.each([
    ['PENDING', 'PENDING'],
    ['COMPLETED', 'COMPLETED'],
    ['FAILED', 'FAILED'],
    // A refunded payment no longer entitles a capture.
    ['REFUND_PENDING', 'FAILED'],
    ['REFUNDED', 'FAILED'],
  ] as const)('shows a %s payment as %s', async (state, shown) => {
    const { service, repository, claims } = setUp();
    const row = repository.add({ state, paymentUrl: null });
    await expect(service.status(claims.visitor, row.id)).resolves.toMatchObject({ state: shown });
  });

  it("never shows another visitor's payment (404)", async () => {
    const { service, repository, claims, provider } = setUp();
    const row = repository.add({ userId: 999 });
    await expectAppError(
      service.status(claims.visitor, row.id),
      'not_found',
      PAYMENT_MESSAGES.notFound,
    );
    expect(provider.asked).toEqual([]);
  });
});

describe('expiry (the reconciler)', () => {
  it.each([
    ['before its expiry', { paymentUrl: null }, 14, 'PENDING'],
    ['without a checkout, at its expiry', { paymentUrl: null }, 15, 'FAILED'],
    ['with a checkout, at its expiry (the provider may still report it)', {}, 15, 'PENDING'],
    ['with a checkout, within the grace', {}, 15 + GRACE_MINUTES - 1, 'PENDING'],
    ['with a checkout, after the grace', {}, 15 + GRACE_MINUTES, 'FAILED'],
  ] as const)('a pending payment %s is %s', async (_name, values, atMinute, state) => {
    const { service, repository } = setUp(() => minutes(atMinute));
    const row = repository.add(values);
    await service.reconcile();
    expect(repository.rows.get(row.id)).toMatchObject({
      state,
      failureReason: state === 'FAILED' ? 'expired' : null,
    });
  });
});

describe('starting a payment', () => {
  it('holds the booth price with ₹1 left to pay at least, for the caller', async () => {
    const { service, repository, claims } = setUp();
    await expect(service.create(claims.visitor, { device_id: 5, template_id: 3 })).resolves.toEqual(
      {
        txn_id: 1,
      },
    );
    expect(repository.created).toEqual([
      expect.objectContaining({
        userId: claims.visitor.userId,
        deviceId: 5,
        orgId: 1,
        templateId: 3,
        pricePaise: 5000,
        minAmountPaise: PAYMENT_MIN_PAISE,
        provider: 'phonepe',
      }),
    ]);
  });

  it.each([
    ['an unlinked booth', { foundBooth: { id: 5, orgId: null, pricePaise: 5000 } }, 'not_found'],
    ['an unknown booth', { foundBooth: undefined }, 'not_found'],
    ['an unknown template', { foundTemplate: undefined }, 'not_found'],
    [
      'a template the venue does not offer',
      { foundTemplate: { id: 3, offered: false, slots: 3 } },
      'bad_request',
    ],
    [
      'a template without slots',
      { foundTemplate: { id: 3, offered: true, slots: 0 } },
      'bad_request',
    ],
    ['a free booth', { foundBooth: { id: 5, orgId: 1, pricePaise: 0 } }, 'conflict'],
    ['a price the credit covers', { creditCovers: true }, 'conflict'],
    [
      'an offline booth',
      { foundBooth: { id: 5, orgId: 1, pricePaise: 5000, status: 'offline' } },
      'booth_offline',
    ],
    [
      'a booth in another visitor\u2019s session',
      { foundBooth: { id: 5, orgId: 1, pricePaise: 5000, status: 'ready' } },
      'booth_busy',
    ],
  ] as const)('refuses %s', async (_name, situation, code) => {
    const { service, repository, claims } = setUp();
    Object.assign(repository, situation);
    expect(
      await outcomeOf(() => service.create(claims.visitor, { device_id: 5, template_id: 3 })),
    ).toBe(code);
    expect(repository.rows.size).toBe(0);
  });
});

describe('checkout', () => {
  const input = (
    txnId: number,
    redirect = 'https://flashbooth.example/payment-status?txn_id=1',
  ) => ({
    txn_id: txnId,
    redirect_url: redirect,
  });

  it('returns the same page again for a pending payment, without a new checkout', async () => {
    const { service, repository, claims, provider } = setUp();
    const row = repository.add();
    await expect(service.checkout(claims.visitor, input(row.id), undefined)).resolves.toEqual({
      payment_url: 'https://pay.example/checkout',
    });
    expect(provider.checkouts).toEqual([]);
  });

  it.each([
    ["another visitor's payment", { userId: 999 }, 'not_found'],
    ['a finished payment', { state: 'COMPLETED' as const }, 'conflict'],
    ['an expired payment', { expiresAt: NOW }, 'conflict'],
  ] as const)('refuses %s', async (_name, values, code) => {
    const { service, repository, claims } = setUp();
    const row = repository.add({ paymentUrl: null, ...values });
    expect(await outcomeOf(() => service.checkout(claims.visitor, input(row.id), undefined))).toBe(
      code,
    );
  });

  it('returns only to this site: its own origin or a configured one', async () => {
    const { service, repository, claims } = setUp();
    const row = repository.add({ paymentUrl: null });
    for (const redirect of ['https://evil.example/x', 'javascript:alert(1)', 'not a url']) {
      await expectAppError(
        service.checkout(claims.visitor, input(row.id, redirect), undefined),
        'bad_request',
        PAYMENT_MESSAGES.returnAddress,
      );
    }
    await expect(
      service.checkout(
        claims.visitor,
        input(row.id, 'https://booths.example/done'),
        'https://booths.example',
      ),
    ).resolves.toEqual({ payment_url: 'https://pay.example/new' });
  });
});

describe('refunds', () => {
  const refundRules: [Role, Outcome][] = [
    ['super user', 'ok'],
    ['product admin', 'ok'],
    ['org admin', 'forbidden'],
    ['member', 'forbidden'],
    ['outsider', 'forbidden'],
  ];

  it.each(refundRules)('a %s may refund a payment: %s', async (role, expected) => {
    const { service, repository, claims } = setUp();
    const row = repository.add({ state: 'COMPLETED' });
    expect(await outcomeOf(() => service.refund(claims[role], row.id, 'credit'))).toBe(expected);
    expect(repository.creditRefunds).toEqual(expected === 'ok' ? [row.id] : []);
  });

  it.each(['PENDING', 'FAILED', 'REFUND_PENDING', 'REFUNDED'] as const)(
    'refuses to refund a %s payment',
    async (state) => {
      const { service, repository, claims } = setUp();
      const row = repository.add({ state });
      for (const to of ['credit', 'source'] as const) {
        await expectAppError(
          service.refund(claims['super user'], row.id, to),
          'conflict',
          PAYMENT_MESSAGES.refundNotCompleted,
        );
      }
      expect([...repository.creditRefunds, ...repository.sourceRefunds]).toEqual([]);
    },
  );

  it("refunds another provider's payment as credit only", async () => {
    const { service, repository, claims } = setUp();
    const row = repository.add({ state: 'COMPLETED', provider: 'sandbox' });
    await expectAppError(
      service.refund(claims['super user'], row.id, 'source'),
      'conflict',
      PAYMENT_MESSAGES.refundOtherProvider,
    );
    expect(repository.sourceRefunds).toEqual([]);
  });

  it('reports a refund the provider refuses (422)', async () => {
    const { service, repository, claims, provider } = setUp();
    const row = repository.add({ state: 'COMPLETED' });
    provider.refundOutcome = 'refused';
    await expectAppError(
      service.refund(claims['product admin'], row.id, 'source'),
      'unprocessable',
      PAYMENT_MESSAGES.refundRefused,
    );
  });
});
