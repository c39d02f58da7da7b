import {
  CreditGrantSchema,
  CreditLedgerListSchema,
  CreditLedgerQuerySchema,
  hasNoNul,
  IdParamSchema,
  CursorPageQuerySchema,
  PaymentCheckoutResultSchema,
  PaymentCheckoutSchema,
  PaymentCreateResultSchema,
  PaymentCreateSchema,
  PaymentStatusSchema,
  StatusOkSchema,
  TransactionListSchema,
  TransactionSchema,
  UserSchema,
} from '@flashbooth/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../errors.js';
import type { Authenticate } from '../../security/authenticate.js';
import type { CreditsService } from './credits.service.js';
import type { PaymentsService } from './payments.service.js';
import type { PhonePeProvider } from './phonepe.provider.js';

/**
 * Staff refund (not named by the spec): `to: 'source'` refunds to the original payment method
 * through the provider, `to: 'credit'` adds the amount to the visitor's credit at once.
 */
export const RefundRequestSchema = z.object({
  to: z.enum(['source', 'credit'], { error: "to must be 'source' or 'credit'." }),
});

/** Visitors (regular pool): spec section 7's payments and transactions calls. */
export const visitorPaymentsRoutes: FastifyPluginAsyncZod<{
  payments: PaymentsService;
  authenticate: Authenticate;
}> = async (app, { payments, authenticate }) => {
  const tags = ['regular payments'];
  const security = [{ bearerAuth: [] }];
  app.addHook('onRequest', authenticate);

  app.post(
    '/payments/create',
    {
      schema: {
        tags,
        security,
        summary:
          "A payment transaction for a booth and template at the booth's price now; credit below the price is held and the rest is paid (409 when the credit covers it)",
        body: PaymentCreateSchema,
        response: { 200: PaymentCreateResultSchema },
      },
    },
    (request) => payments.create(request.caller!, request.body),
  );

  app.post(
    '/payments/checkout',
    {
      schema: {
        tags,
        security,
        summary:
          "The provider's payment page for the caller's pending transaction; redirect_url must be on this site",
        body: PaymentCheckoutSchema,
        response: { 200: PaymentCheckoutResultSchema },
      },
    },
    (request) =>
      payments.checkout(request.caller!, request.body, `${request.protocol}://${request.host}`),
  );

  app.get(
    '/payments/:id/status',
    {
      schema: {
        tags,
        security,
        summary:
          "The caller's payment state; a pending one is checked with the provider first (refunded reads FAILED)",
        params: IdParamSchema,
        response: { 200: PaymentStatusSchema },
      },
    },
    (request) => payments.status(request.caller!, request.params.id),
  );

  app.get(
    '/transactions',
    {
      schema: {
        tags,
        security,
        summary: "The caller's transactions, newest first; search on order id, venue and booth",
        querystring: CursorPageQuerySchema,
        response: { 200: TransactionListSchema },
      },
    },
    (request) => payments.list(request.caller!, request.query),
  );
};

/** Staff (enterprise pool): refunds, for super users and product admins. */
export const staffPaymentsRoutes: FastifyPluginAsyncZod<{
  payments: PaymentsService;
  authenticate: Authenticate;
}> = async (app, { payments, authenticate }) => {
  app.addHook('onRequest', authenticate);
  app.post(
    '/transactions/:id/refund',
    {
      schema: {
        tags: ['enterprise payments'],
        security: [{ bearerAuth: [] }],
        summary:
          'Refund a completed payment to its payment method (REFUND_PENDING, then REFUNDED) or as credit (REFUNDED)',
        params: IdParamSchema,
        body: RefundRequestSchema,
        response: { 200: TransactionSchema },
      },
    },
    (request) => payments.refund(request.caller!, request.params.id, request.body.to),
  );
};

/**
 * Staff (enterprise pool), product addition: a visitor's credit grants and ledger, for super
 * users and product admins (403 for other staff; an id that is not a visitor's is 404).
 */
export const staffCreditsRoutes: FastifyPluginAsyncZod<{
  credits: CreditsService;
  authenticate: Authenticate;
}> = async (app, { credits, authenticate }) => {
  const tags = ['enterprise credits'];
  const security = [{ bearerAuth: [] }];
  app.addHook('onRequest', authenticate);
  app.post(
    '/users/:id/credits',
    {
      schema: {
        tags,
        security,
        summary:
          "Grant a visitor credit (amount_rupees, at most 10000 with two decimals; optional note): a 'grant' ledger entry; returns the visitor",
        params: IdParamSchema,
        body: CreditGrantSchema,
        response: { 200: UserSchema },
      },
    },
    (request) => credits.grant(request.caller!, request.params.id, request.body),
  );
  app.get(
    '/users/:id/credits/ledger',
    {
      schema: {
        tags,
        security,
        summary:
          "A visitor's credit ledger, newest first: every change of the balance with its reason",
        params: IdParamSchema,
        querystring: CreditLedgerQuerySchema,
        response: { 200: CreditLedgerListSchema },
      },
    },
    (request) => credits.ledger(request.caller!, request.params.id, request.query),
  );
};

const PhonePeWebhookSchema = z.object({
  event: z.string().max(100).optional(),
  type: z.string().max(100).optional(),
  payload: z.looseObject({
    // Looked up in the database, which cannot hold NUL in text.
    merchantOrderId: z.string().max(100).refine(hasNoNul).optional(),
    merchantRefundId: z.string().max(100).refine(hasNoNul).optional(),
  }),
});

/**
 * PhonePe's webhook (S2S callback). The Authorization header must be SHA256(username:password)
 * of the configured webhook credentials; the body only says which order or refund to ask about.
 */
export const phonePeWebhookRoutes: FastifyPluginAsyncZod<{
  provider: PhonePeProvider;
  payments: PaymentsService;
}> = async (app, { provider, payments }) => {
  app.addHook('onRequest', async (request) => {
    if (!provider.verifyWebhook(request.headers.authorization)) {
      request.log.warn('PhonePe webhook with a wrong Authorization header refused');
      throw new AppError('unauthorized', 'Webhook authorization failed.');
    }
  });
  app.post(
    '/webhook',
    {
      schema: {
        tags: ['payments'],
        summary: 'PhonePe order and refund events (a hint: the order status call decides)',
        body: PhonePeWebhookSchema,
        response: { 200: StatusOkSchema },
      },
    },
    async (request) => {
      const { event, type, payload } = request.body;
      const kind = `${event ?? ''} ${type ?? ''}`.toLowerCase();
      if (payload.merchantRefundId && kind.includes('refund')) {
        await payments.hint({ kind: 'refund', refundId: payload.merchantRefundId });
      } else if (payload.merchantOrderId) {
        await payments.hint({ kind: 'order', orderId: payload.merchantOrderId });
      } else {
        request.log.warn({ event, type }, 'PhonePe webhook without an order or refund id');
      }
      return { status: 'ok' as const };
    },
  );
};
