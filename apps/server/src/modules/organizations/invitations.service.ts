import {
  invitationSmsText,
  type InviteOutcome,
  type InviteResponse,
  isPrivilegedStaff,
  type OrganizationInvitation,
  type OrganizationInvitationList,
  type OrganizationInviteCreate,
  ORGANIZATION_MESSAGES,
  type OrganizationRole,
  type SentInvitation,
} from '@flashbooth/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { isForeignKeyViolation, isUniqueViolation } from '../../db/postgres-errors.js';
import { AppError, forbidden, notFound } from '../../errors.js';
import { toApiTimestamp } from '../../lib/time.js';
import type { AccessClaims } from '../../security/access-tokens.js';
import type { SmsSender } from '../sms/sms.sender.js';
import type { UsersRepository } from '../users/users.repository.js';
import type { StaffCaller, UsersService } from '../users/users.service.js';
import { OrganizationAccess, organizationNotFound } from './organization-access.js';
import type { InvitationView, OrganizationsRepository } from './organizations.repository.js';

/** How invitation SMS are throttled and where they send people. */
export interface InvitationSmsPolicy {
  /** At most this many invitation SMS to one phone per window (OTP_SEND_LIMIT_PER_PHONE). */
  limitPerPhone: number;
  /** The window, in seconds (OTP_SEND_WINDOW_SECONDS). */
  windowSeconds: number;
  /** SMS go only to these country calling codes (OTP_ALLOWED_COUNTRY_CODES). */
  allowedCountryCodes: readonly string[];
  /** `{PUBLIC_URL}/enterprise/login`, or the relative path without PUBLIC_URL. */
  signInUrl: string;
}

export interface InvitationsServiceOptions {
  organizations: OrganizationsRepository;
  users: UsersService;
  /** Staff accounts by id (users/{id}/invites for another person). */
  accounts: Pick<UsersRepository, 'findById'>;
  sms: SmsSender;
  invitationSms: InvitationSmsPolicy;
  /** An invitation not answered this long expires (INVITE_TTL_DAYS). */
  inviteTtlMs: number;
  now: () => Date;
  log: FastifyBaseLogger;
}

/** The unique index that allows one pending invitation per organization and phone (0009). */
const PENDING_INVITATION_INDEX = 'organization_invitations_pending_once';
const INVITATION_ORGANIZATION_KEY = 'organization_invitations_org_id_fkey';

const M = ORGANIZATION_MESSAGES;
const userNotFound = () => notFound(M.userNotFound);
const invitationNotFound = () => notFound(M.inviteNotFound);
/** dd/mm/yyyy hh:mm in UTC, as the console shows times. */
const formatUtc = (at: Date) => {
  const [date, time] = at.toISOString().slice(0, 16).split('T') as [string, string];
  const [year, month, day] = date.split('-');
  return `${day}/${month}/${year} ${time}`;
};

/**
 * Invitations to an organization: staff invite a phone with a role (an SMS follows, throttled),
 * the invitee accepts or denies, staff cancel; unanswered ones expire after INVITE_TTL_DAYS.
 */
export class InvitationsService {
  private readonly access: OrganizationAccess;

  constructor(private readonly options: InvitationsServiceOptions) {
    this.access = new OrganizationAccess(options);
  }

  sentInvitationDto(row: InvitationView): SentInvitation {
    return {
      PK: `invite-${row.id}`,
      id: row.id,
      name: row.orgName,
      invitee_name: row.inviteeName,
      invitee_phone: row.inviteePhone,
      role: row.role,
      invited_at: toApiTimestamp(row.invitedAt),
      invited_by_name: row.invitedByName,
      expires_at: toApiTimestamp(this.expiryOf(row.invitedAt)),
    };
  }

  /** When an invitation made at `invitedAt` expires unanswered. */
  private expiryOf(invitedAt: Date): Date {
    return new Date(invitedAt.getTime() + this.options.inviteTtlMs);
  }

  /** Invitations made at or before this moment have expired. */
  private expiryCutoff(): Date {
    return new Date(this.options.now().getTime() - this.options.inviteTtlMs);
  }

  /**
   * Marks expired the pending invitations past INVITE_TTL_DAYS (of one organization or phone
   * before they are read or answered; all of them in the invitation-expiry job). Returns how many.
   */
  async expireInvitations(scope: { orgId?: number; phone?: string } = {}): Promise<number> {
    return this.options.organizations.expirePending(scope, this.expiryCutoff(), this.options.now());
  }

  /** The ids the invitation-expiry job would mark expired now (its dry run). */
  staleInvitations(): Promise<number[]> {
    return this.options.organizations.stalePending(this.expiryCutoff());
  }

  private invitationDto(row: InvitationView): OrganizationInvitation {
    return {
      id: row.id,
      org_id: row.orgId,
      org_name: row.orgName,
      invited_by_name: row.invitedByName,
      role: row.role,
      invited_at: toApiTimestamp(row.invitedAt),
      expires_at: toApiTimestamp(this.expiryOf(row.invitedAt)),
    };
  }

  /**
   * Invites a phone (E.164, already normalised by the schema) with a role. A phone that is
   * already a member, or already has a pending invitation here, is 409. The invitee gets an SMS
   * unless the throttle holds it back; a failing SMS never fails the invitation (it is logged).
   */
  async invite(
    claims: AccessClaims,
    orgId: number,
    body: OrganizationInviteCreate,
  ): Promise<SentInvitation> {
    const { caller, organization } = await this.access.allowed(
      claims,
      orgId,
      'organization.invite',
    );
    if (await this.options.organizations.hasMemberWithPhone(orgId, body.invitee_phone)) {
      throw new AppError('conflict', M.alreadyMember);
    }
    // An earlier invitation of this phone that expired unanswered no longer blocks a new one.
    await this.expireInvitations({ orgId, phone: body.invitee_phone });
    let id: number;
    try {
      id = await this.options.organizations.createInvitation({
        orgId,
        inviteePhone: body.invitee_phone,
        role: body.role,
        invitedBy: caller.user.id,
        at: this.options.now(),
      });
    } catch (error) {
      if (isUniqueViolation(error, PENDING_INVITATION_INDEX)) {
        throw new AppError('conflict', M.alreadyInvited);
      }
      // Deleted between the check and the insert.
      if (isForeignKeyViolation(error, INVITATION_ORGANIZATION_KEY)) throw organizationNotFound();
      throw error;
    }
    await this.sendInvitationSms(id, body.invitee_phone, {
      inviter: caller.user.name,
      orgName: organization.name,
      role: body.role,
    });
    const view = await this.options.organizations.invitation(id);
    return this.sentInvitationDto(view!);
  }

  private async sendInvitationSms(
    id: number,
    phone: string,
    text: { inviter: string; orgName: string; role: OrganizationRole },
  ): Promise<void> {
    const { sms, invitationSms: policy, now, log } = this.options;
    try {
      if (!policy.allowedCountryCodes.some((code) => phone.startsWith(code))) {
        log.info({ invitationId: id }, 'invitation SMS not sent: country not allowed for SMS');
        return;
      }
      const at = now();
      const since = new Date(at.getTime() - policy.windowSeconds * 1000);
      if (
        !(await this.options.organizations.reserveInvitationSms(
          id,
          phone,
          since,
          policy.limitPerPhone,
          at,
        ))
      ) {
        log.warn({ invitationId: id }, 'invitation SMS not sent: too many for this phone lately');
        return;
      }
      await sms.send({
        phone,
        text: invitationSmsText(text.inviter, text.orgName, text.role, policy.signInUrl),
      });
    } catch (error) {
      log.error(
        { err: error, invitationId: id, provider: sms.kind },
        'invitation SMS failed; the invitation stands',
      );
    }
  }

  /** GET users/{id}/invites: the person's pending invitations (another's only for privileged). */
  async invitationsOf(
    claims: AccessClaims,
    id: 'self' | number,
  ): Promise<OrganizationInvitationList> {
    const caller = await this.access.staff(claims);
    let phone = caller.user.phone;
    if (id !== 'self' && id !== caller.user.id) {
      if (!isPrivilegedStaff(caller.principal)) throw forbidden(M.onlyOwnInvites);
      const other = await this.options.accounts.findById(id);
      if (!other || other.pool !== 'enterprise') throw userNotFound();
      phone = other.phone;
    }
    await this.expireInvitations({ phone });
    const rows = await this.options.organizations.pendingForPhone(phone);
    return { items: rows.map((row) => this.invitationDto(row)) };
  }

  /**
   * The caller's pending invitation to the organization, by the path alone (one pending per
   * organization and phone) or by `invite_id` as well. Another person's invitation, or one of
   * another organization, is "not found"; one already answered is 409.
   */
  private async ownInvitation(
    caller: StaffCaller,
    orgId: number,
    body: InviteResponse,
  ): Promise<InvitationView> {
    if (!(await this.options.organizations.findById(orgId))) throw organizationNotFound();
    const inviteId = body?.invite_id;
    const row =
      inviteId === undefined
        ? await this.options.organizations.pendingFor(orgId, caller.user.phone)
        : await this.options.organizations.invitation(inviteId);
    if (!row || row.orgId !== orgId || row.inviteePhone !== caller.user.phone) {
      throw invitationNotFound();
    }
    // Expired unanswered: marked so, and the invitee told when and what to do.
    const expired =
      row.status === 'expired' ||
      (row.status === 'pending' && row.invitedAt.getTime() <= this.expiryCutoff().getTime());
    if (expired) {
      await this.expireInvitations({ orgId, phone: caller.user.phone });
      throw new AppError(
        'conflict',
        M.inviteExpired(row.orgName, formatUtc(this.expiryOf(row.invitedAt))),
      );
    }
    if (row.status !== 'pending') throw new AppError('conflict', M.inviteNotPending);
    return row;
  }

  /**
   * Accepts (membership with the invited role) or denies the caller's invitation. The change is
   * conditional on the invitation still being pending, in the membership's transaction, so two
   * concurrent accepts make one membership and the second answers 409.
   */
  async respond(
    claims: AccessClaims,
    orgId: number,
    body: InviteResponse,
    status: 'accepted' | 'denied',
  ): Promise<InviteOutcome> {
    const caller = await this.access.staff(claims);
    const invitation = await this.ownInvitation(caller, orgId, body);
    const row = await this.options.organizations.answer(
      invitation.id,
      status === 'accepted' ? { status, userId: caller.user.id } : { status },
      this.options.now(),
    );
    if (!row) throw new AppError('conflict', M.inviteNotPending);
    return { id: row.id, org_id: row.orgId, role: row.role, status: row.status };
  }

  /** DELETE organizations/{id}/invites/{inviteId}: staff cancel a pending invitation. */
  async cancelInvitation(claims: AccessClaims, orgId: number, inviteId: number): Promise<void> {
    await this.access.allowed(claims, orgId, 'organization.cancelInvite');
    const invitation = await this.options.organizations.invitation(inviteId);
    if (!invitation || invitation.orgId !== orgId) throw invitationNotFound();
    if (
      !(await this.options.organizations.answer(
        inviteId,
        { status: 'cancelled' },
        this.options.now(),
      ))
    ) {
      throw new AppError('conflict', M.inviteNotPending);
    }
  }
}
