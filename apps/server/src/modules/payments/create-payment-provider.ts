import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import type { AccessTokens } from '../auth/access-tokens.js';
import { createAuthenticate } from '../auth/auth.hooks.js';
import type { UsersService } from '../users/users.service.js';
import { CreditsRepository } from './credits.repository.js';
import { CreditsService } from './credits.service.js';
import type { PaymentProvider } from './payment-provider.js';
import { PaymentsRepository } from './payments.repository.js';
import {
  phonePeWebhookRoutes,
  staffCreditsRoutes,
  staffPaymentsRoutes,
  visitorPaymentsRoutes,
} from './payments.routes.js';
import { PaymentsService } from './payments.service.js';
import { PHONEPE_HOSTS, PhonePeProvider } from './phonepe.provider.js';
import { SANDBOX_CHECKOUT_PATH, SandboxProvider } from './sandbox.provider.js';
import { sandboxCheckoutRoutes } from './sandbox.routes.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The payments service (tests run the reconciler and wait for sandbox hints through it). */
    payments: PaymentsService;
  }
}

/** The configured provider: PAYMENT_PROVIDER=sandbox|phonepe (config.ts validates the rest). */
export function createPaymentProvider(
  config: Config,
  db: Database,
  now: () => Date,
  log: FastifyBaseLogger,
): PaymentProvider {
  const phonepe = config.payments.phonepe;
  if (config.payments.provider === 'phonepe' && phonepe) {
    const hosts = PHONEPE_HOSTS[phonepe.env];
    return new PhonePeProvider(
      {
        clientId: phonepe.clientId,
        clientSecret: phonepe.clientSecret,
        clientVersion: phonepe.clientVersion,
        authUrl: phonepe.authUrl ?? hosts.authUrl,
        apiUrl: phonepe.apiUrl ?? hosts.apiUrl,
        webhookUsername: phonepe.webhookUsername,
        webhookPassword: phonepe.webhookPassword,
      },
      now,
    );
  }
  return new SandboxProvider(db, now, log, config.publicUrl);
}

export interface PaymentsDependencies {
  config: Config;
  db: Database;
  tokens: AccessTokens;
  users: UsersService;
  now: () => Date;
  /** Another provider (tests); the configured one when absent. */
  provider?: PaymentProvider;
}

/**
 * Payments: the visitor calls under /api/regular, the staff refund and credit grants/ledger under
 * /api/enterprise, the
 * provider's side (PhonePe webhook or the sandbox checkout page) and the reconciler, which runs
 * every PAYMENT_RECONCILE_INTERVAL_SECONDS on every instance (they share the work).
 */
export async function registerPayments(
  app: FastifyInstance,
  deps: PaymentsDependencies,
): Promise<PaymentsService> {
  const { config, db, tokens, users, now } = deps;
  const provider = deps.provider ?? createPaymentProvider(config, db, now, app.log);
  const service = new PaymentsService({
    repository: new PaymentsRepository(db),
    provider,
    users,
    now,
    log: app.log,
    expireAfterSeconds: config.payments.expireAfterSeconds,
    reconcileIntervalSeconds: config.payments.reconcileIntervalSeconds,
    returnOrigins: [
      ...config.payments.returnOrigins,
      ...(config.publicUrl ? [config.publicUrl] : []),
    ],
  });
  app.decorate('payments', service);

  await app.register(visitorPaymentsRoutes, {
    prefix: '/api/regular',
    payments: service,
    authenticate: createAuthenticate(tokens, 'regular'),
  });
  await app.register(staffPaymentsRoutes, {
    prefix: '/api/enterprise',
    payments: service,
    authenticate: createAuthenticate(tokens, 'enterprise'),
  });
  await app.register(staffCreditsRoutes, {
    prefix: '/api/enterprise',
    credits: new CreditsService({
      repository: new CreditsRepository(db),
      users,
      now,
      log: app.log,
    }),
    authenticate: createAuthenticate(tokens, 'enterprise'),
  });
  if (provider instanceof PhonePeProvider) {
    await app.register(phonePeWebhookRoutes, {
      prefix: '/api/payments/phonepe',
      provider,
      payments: service,
    });
  }
  if (provider instanceof SandboxProvider) {
    provider.onHint((hint) => service.hint(hint));
    await app.register(sandboxCheckoutRoutes, { prefix: SANDBOX_CHECKOUT_PATH, provider, now });
  }

  let running: Promise<unknown> | undefined;
  const intervalSeconds = config.payments.reconcileIntervalSeconds;
  const timer =
    intervalSeconds > 0
      ? setInterval(() => {
          if (running) return;
          running = service
            .reconcile()
            .then((report) => {
              if (report.checked > 0 || report.refundsSettled > 0) {
                app.log.info({ report }, 'payments reconciled');
              }
            })
            .catch((error: unknown) =>
              app.log.warn({ err: error }, 'payment reconciliation failed'),
            )
            .finally(() => {
              running = undefined;
            });
        }, intervalSeconds * 1000)
      : undefined;
  timer?.unref();
  app.addHook('onClose', async () => {
    if (timer) clearInterval(timer);
    await running;
    await provider.settled?.();
  });
  return service;
}
