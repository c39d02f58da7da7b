import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import type { PaymentProvider } from './payment-provider.js';
import { PHONEPE_HOSTS, PhonePeProvider } from './phonepe.provider.js';
import { SandboxProvider } from './sandbox.provider.js';

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
