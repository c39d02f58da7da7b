import {
  CREDIT_MESSAGES,
  type CreditGrant,
  type CreditLedgerList,
  type CreditLedgerQuery,
  type User,
} from '@flashbooth/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { listBody } from '../../db/paging.js';
import { notFound } from '../../errors.js';
import { paiseToRupees, toApiTimestamp } from '../../lib/time.js';
import type { AccessClaims } from '../../security/access-tokens.js';
import type { UsersService } from '../users/users.service.js';
import type { CreditsRepository, LedgerEntry } from './credits.repository.js';

export interface CreditsServiceOptions {
  repository: CreditsRepository;
  users: UsersService;
  now: () => Date;
  log: FastifyBaseLogger;
}

/**
 * Visitors' credits_rupees as staff see it (product addition): grants by super users and
 * product admins, and the ledger that explains a balance entry by entry.
 */
export class CreditsService {
  constructor(private readonly options: CreditsServiceOptions) {}

  /** POST /api/enterprise/users/{id}/credits → the visitor's User record with the new balance. */
  async grant(claims: AccessClaims, visitorId: number, input: CreditGrant): Promise<User> {
    const { repository, users, now, log } = this.options;
    const staff = await this.options.users.privilegedCaller(claims, CREDIT_MESSAGES.grantStaffOnly);
    const amountPaise = Math.round(input.amount_rupees * 100);
    const row = await repository.grant({
      userId: visitorId,
      amountPaise,
      note: input.note,
      grantedBy: staff.id,
      at: now(),
    });
    if (!row) throw notFound(CREDIT_MESSAGES.visitorNotFound);
    log.info({ visitorId, staffId: staff.id, amountPaise }, 'credit granted');
    return users.toDto(row);
  }

  /** GET /api/enterprise/users/{id}/credits/ledger: newest first, with the balance now. */
  async ledger(
    claims: AccessClaims,
    visitorId: number,
    page: CreditLedgerQuery,
  ): Promise<CreditLedgerList> {
    const { repository } = this.options;
    await this.options.users.privilegedCaller(claims, CREDIT_MESSAGES.ledgerStaffOnly);
    const visitor = await repository.findVisitor(visitorId);
    if (!visitor) throw notFound(CREDIT_MESSAGES.visitorNotFound);
    return {
      ...listBody(await repository.ledger(visitorId, page), toLedgerEntry),
      credits_rupees: paiseToRupees(visitor.creditsPaise),
    };
  }
}

function toLedgerEntry(row: LedgerEntry) {
  return {
    id: row.id,
    delta_rupees: paiseToRupees(row.deltaPaise),
    reason: row.reason,
    note: row.note,
    created_at: toApiTimestamp(row.createdAt),
    payment_transaction_id: row.paymentTransactionId,
    capture_id: row.mediaCaptureId,
    granted_by: row.grantedBy,
    granted_by_name: row.grantedByName,
  };
}
