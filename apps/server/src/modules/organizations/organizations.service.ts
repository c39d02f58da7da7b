import {
  can,
  type Guest,
  type GuestList,
  invitationSmsText,
  LOGO_MAX_BYTES,
  type LogoPresignRequest,
  type InviteOutcome,
  type InviteResponse,
  isPrivilegedOnly,
  isPrivilegedStaff,
  type Organization,
  type OrganizationCreate,
  type OrganizationInvitation,
  type OrganizationInvitationList,
  type OrganizationInviteCreate,
  type OrganizationList,
  ORGANIZATION_MESSAGES,
  type OrganizationPatch,
  type OrganizationRole,
  type OrganizationUser,
  type OrganizationUserList,
  type SentInvitation,
  type StaffAction,
} from '@flashbooth/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { listBody, listBodyAsync, type PageQuery } from '../../db/paging.js';
import { isForeignKeyViolation, isUniqueViolation } from '../../db/postgres-errors.js';
import { AppError, forbidden, notFound } from '../../errors.js';
import { toApiTimestamp } from '../../lib/time.js';
import type { AccessClaims } from '../../security/access-tokens.js';
import type { SmsSender } from '../sms/sms.sender.js';
import type { ObjectCleanup } from '../storage/object-cleanup.js';
import {
  confirmObjectUpload,
  imageInspection,
  presignObjectUpload,
} from '../storage/presigned-upload.js';
import { deleteUnreferenced, extensionFor, type ObjectStorage } from '../storage/storage.js';
import type { UsersRepository } from '../users/users.repository.js';
import type { StaffCaller, UsersService } from '../users/users.service.js';
import type {
  GuestRow,
  InvitationView,
  MemberRow,
  OrganizationChanges,
  OrganizationRecord,
  OrganizationsRepository,
} from './organizations.repository.js';

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

export interface OrganizationsServiceOptions {
  organizations: OrganizationsRepository;
  users: UsersService;
  /** Staff accounts by id (users/{id}/invites for another person). */
  accounts: Pick<UsersRepository, 'findById'>;
  storage: ObjectStorage;
  /** Deletes objects nothing points at (uploads never confirmed, deleted records' files). */
  cleanup: Pick<ObjectCleanup, 'uploadStarted' | 'uploadConfirmed' | 'deleteRecordObjects'>;
  sms: SmsSender;
  invitationSms: InvitationSmsPolicy;
  /** An invitation not answered this long expires (INVITE_TTL_DAYS). */
  inviteTtlMs: number;
  now: () => Date;
  log: FastifyBaseLogger;
}

/** Logo upload links live 15 minutes; download links one hour (as template pictures). */
export const LOGO_UPLOAD_URL_SECONDS = 15 * 60;
export const LOGO_DOWNLOAD_URL_SECONDS = 3600;
/** The guest CSV is read from the database this many guests at a time. */
const GUEST_EXPORT_BATCH = 500;

const LOGO_FOLDER = 'organizations/logos';
/** Every key handed out for organization `id`'s logo: organizations/logos/id/uuid.jpg|png. */
const issuedLogoKey = (id: number) =>
  new RegExp(`^${LOGO_FOLDER}/${id}/[0-9a-f-]{36}\\.(jpg|png)$`);

/** The unique index that allows one pending invitation per organization and phone (0009). */
const PENDING_INVITATION_INDEX = 'organization_invitations_pending_once';
const INVITATION_ORGANIZATION_KEY = 'organization_invitations_org_id_fkey';

const M = ORGANIZATION_MESSAGES;
const organizationNotFound = () => notFound(M.notFound);
const userNotFound = () => notFound(M.userNotFound);
const invitationNotFound = () => notFound(M.inviteNotFound);
/** dd/mm/yyyy hh:mm in UTC, as the console shows times. */
const formatUtc = (at: Date) => {
  const [date, time] = at.toISOString().slice(0, 16).split('T') as [string, string];
  const [year, month, day] = date.split('-');
  return `${day}/${month}/${year} ${time}`;
};

/**
 * Organizations, their people, invitations and guests (staff spec sections 2–7). Every decision
 * is the shared rule set's (`can` in @flashbooth/contracts, which the web app mirrors): super
 * users and product admins see and manage every organization; other staff see the organizations
 * they belong to, where admins edit the details and logo and export guests. An organization the
 * caller cannot see is "not found", never "forbidden", so ids do not leak.
 */
export class OrganizationsService {
  constructor(private readonly options: OrganizationsServiceOptions) {}

  private get repo() {
    return this.options.organizations;
  }

  private staff(claims: AccessClaims): Promise<StaffCaller> {
    return this.options.users.staffPrincipal(claims);
  }

  /** 403 unless the caller may take the action (on `orgId`). */
  private authorize(caller: StaffCaller, action: StaffAction, orgId?: number): void {
    if (can(caller.principal, action, orgId)) return;
    throw forbidden(isPrivilegedOnly(action) ? M.onlyPrivileged : M.onlyOrgAdmins);
  }

  /** The organization if the caller may see it; 404 otherwise (another organization's too). */
  private async visible(caller: StaffCaller, orgId: number): Promise<OrganizationRecord> {
    const row = await this.repo.findById(orgId);
    if (!row || !can(caller.principal, 'organization.view', orgId)) throw organizationNotFound();
    return row;
  }

  /** Visible, and the caller may take `action` there (403 otherwise). */
  private async allowed(
    claims: AccessClaims,
    orgId: number,
    action: StaffAction,
  ): Promise<{ caller: StaffCaller; organization: OrganizationRecord }> {
    const caller = await this.staff(claims);
    const organization = await this.visible(caller, orgId);
    this.authorize(caller, action, orgId);
    return { caller, organization };
  }

  private async toDto(row: OrganizationRecord): Promise<Organization> {
    return {
      id: row.id,
      name: row.name,
      email: row.email,
      phone: row.phone,
      address: row.address,
      created_at: toApiTimestamp(row.createdAt),
      logo_s3_url: row.logoKey
        ? await this.options.storage.presignDownload(row.logoKey, LOGO_DOWNLOAD_URL_SECONDS)
        : null,
    };
  }

  // ---- organizations ----

  async create(claims: AccessClaims, body: OrganizationCreate): Promise<Organization> {
    this.authorize(await this.staff(claims), 'organization.create');
    return this.toDto(
      await this.repo.create({
        name: body.name,
        email: body.email ?? null,
        phone: body.phone ?? null,
        address: body.address ?? null,
      }),
    );
  }

  async list(claims: AccessClaims, page: PageQuery): Promise<OrganizationList> {
    const caller = await this.staff(claims);
    const everyOrganization = isPrivilegedStaff(caller.principal);
    const rows = await this.repo.list(page, everyOrganization ? undefined : caller.user.id);
    return listBodyAsync(rows, (row) => this.toDto(row));
  }

  async get(claims: AccessClaims, orgId: number): Promise<Organization> {
    return this.toDto(await this.visible(await this.staff(claims), orgId));
  }

  async patch(
    claims: AccessClaims,
    orgId: number,
    patch: OrganizationPatch,
  ): Promise<Organization> {
    await this.allowed(claims, orgId, 'organization.edit');
    const changes: OrganizationChanges = {};
    if (patch.name !== undefined) changes.name = patch.name;
    if (patch.email !== undefined) changes.email = patch.email;
    if (patch.phone !== undefined) changes.phone = patch.phone;
    if (patch.address !== undefined) changes.address = patch.address;
    const row = await this.repo.update(orgId, changes);
    if (!row) throw organizationNotFound();
    return this.toDto(row);
  }

  /**
   * Deletes the organization: devices are unlinked, memberships, invitations and template
   * associations go, visitors keep their media (the foreign keys decide, in one statement), and
   * then the stored logo is deleted (a failure there is logged with the key).
   */
  async remove(claims: AccessClaims, orgId: number): Promise<void> {
    await this.allowed(claims, orgId, 'organization.delete');
    const row = await this.repo.delete(orgId);
    if (!row) throw organizationNotFound();
    // The logo, and any logo upload never confirmed; a store failure is retried by the
    // object-cleanup job, so nothing of the organization stays in the store.
    await this.options.cleanup.deleteRecordObjects([row.logoKey], [`${LOGO_FOLDER}/${orgId}/`]);
  }

  private deleteObject(key: string, orgId: number): Promise<void> {
    const { storage, log } = this.options;
    return deleteUnreferenced(storage, key, log, { what: 'an organization logo', orgId });
  }

  // ---- logo ----

  /** A presigned PUT (15 min, 5 MB) to a fresh random key under this organization's folder. */
  async presignLogo(
    claims: AccessClaims,
    orgId: number,
    request: LogoPresignRequest,
  ): Promise<{ logo_key: string; upload_url: string }> {
    await this.allowed(claims, orgId, 'organization.edit');
    const { key, url } = await presignObjectUpload(this.options, {
      folder: `${LOGO_FOLDER}/${orgId}`,
      extension: extensionFor(request.contentType),
      contentType: request.contentType,
      urlSeconds: LOGO_UPLOAD_URL_SECONDS,
      maxBytes: LOGO_MAX_BYTES,
    });
    return { logo_key: key, upload_url: url };
  }

  /**
   * Accepts an uploaded logo: only a key handed out for this organization, only when the object
   * exists, is at most 5 MB (S3 cannot cap a presigned PUT) and really is a JPEG or PNG. A bad
   * upload is deleted; the previous logo is deleted once the organization points at the new one.
   */
  async confirmLogo(claims: AccessClaims, orgId: number, key: string): Promise<Organization> {
    await this.allowed(claims, orgId, 'organization.edit');
    if (!issuedLogoKey(orgId).test(key)) throw new AppError('bad_request', M.logoForeign);
    await confirmObjectUpload(this.options, key, {
      maxBytes: LOGO_MAX_BYTES,
      notUploaded: M.logoNotUploaded,
      tooLarge: M.logoTooLarge,
      inspect: imageInspection(this.options.storage, key, M.logoFormat),
      swap: () => this.repo.replaceLogo(orgId, key),
      recordGone: organizationNotFound,
      deletePrevious: (previous) => this.deleteObject(previous, orgId),
    });
    return this.get(claims, orgId);
  }

  // ---- people ----

  private userDto(row: MemberRow): OrganizationUser {
    return {
      id: row.userId,
      name: row.name,
      role: row.role,
      phone: row.phone,
      joined_at: toApiTimestamp(row.joinedAt),
    };
  }

  private sentInvitationDto(row: InvitationView): SentInvitation {
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
    return this.repo.expirePending(scope, this.expiryCutoff(), this.options.now());
  }

  /** The ids the invitation-expiry job would mark expired now (its dry run). */
  staleInvitations(): Promise<number[]> {
    return this.repo.stalePending(this.expiryCutoff());
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

  /** A page of members and every pending invitation of the organization, with one search. */
  async users(claims: AccessClaims, orgId: number, page: PageQuery): Promise<OrganizationUserList> {
    await this.allowed(claims, orgId, 'organization.view');
    await this.expireInvitations({ orgId });
    const members = await this.repo.members(orgId, page);
    const invites = await this.repo.pendingOfOrganization(orgId, page.search);
    return {
      ...listBody(members, (row) => this.userDto(row)),
      invites: invites.map((row) => this.sentInvitationDto(row)),
    };
  }

  async user(claims: AccessClaims, orgId: number, userId: number): Promise<OrganizationUser> {
    await this.allowed(claims, orgId, 'organization.view');
    const row = await this.repo.member(orgId, userId);
    if (!row) throw userNotFound();
    return this.userDto(row);
  }

  async setRole(
    claims: AccessClaims,
    orgId: number,
    userId: number,
    role: OrganizationRole,
  ): Promise<OrganizationUser> {
    const { caller } = await this.allowed(claims, orgId, 'organization.editRole');
    if (userId === caller.user.id) throw new AppError('bad_request', M.ownRole);
    if (!(await this.repo.setRole(orgId, userId, role))) throw userNotFound();
    return this.user(claims, orgId, userId);
  }

  async removeUser(claims: AccessClaims, orgId: number, userId: number): Promise<void> {
    const { caller } = await this.allowed(claims, orgId, 'organization.removeUser');
    if (userId === caller.user.id) throw new AppError('bad_request', M.removeSelf);
    if (!(await this.repo.removeMember(orgId, userId))) throw userNotFound();
  }

  // ---- invitations ----

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
    const { caller, organization } = await this.allowed(claims, orgId, 'organization.invite');
    if (await this.repo.hasMemberWithPhone(orgId, body.invitee_phone)) {
      throw new AppError('conflict', M.alreadyMember);
    }
    // An earlier invitation of this phone that expired unanswered no longer blocks a new one.
    await this.expireInvitations({ orgId, phone: body.invitee_phone });
    let id: number;
    try {
      id = await this.repo.createInvitation({
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
    const view = await this.repo.invitation(id);
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
      if (!(await this.repo.reserveInvitationSms(id, phone, since, policy.limitPerPhone, at))) {
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
    const caller = await this.staff(claims);
    let phone = caller.user.phone;
    if (id !== 'self' && id !== caller.user.id) {
      if (!isPrivilegedStaff(caller.principal)) throw forbidden(M.onlyOwnInvites);
      const other = await this.options.accounts.findById(id);
      if (!other || other.pool !== 'enterprise') throw userNotFound();
      phone = other.phone;
    }
    await this.expireInvitations({ phone });
    const rows = await this.repo.pendingForPhone(phone);
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
    if (!(await this.repo.findById(orgId))) throw organizationNotFound();
    const inviteId = body?.invite_id;
    const row =
      inviteId === undefined
        ? await this.repo.pendingFor(orgId, caller.user.phone)
        : await this.repo.invitation(inviteId);
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
    const caller = await this.staff(claims);
    const invitation = await this.ownInvitation(caller, orgId, body);
    const row = await this.repo.answer(
      invitation.id,
      status === 'accepted' ? { status, userId: caller.user.id } : { status },
      this.options.now(),
    );
    if (!row) throw new AppError('conflict', M.inviteNotPending);
    return { id: row.id, org_id: row.orgId, role: row.role, status: row.status };
  }

  /** DELETE organizations/{id}/invites/{inviteId}: staff cancel a pending invitation. */
  async cancelInvitation(claims: AccessClaims, orgId: number, inviteId: number): Promise<void> {
    await this.allowed(claims, orgId, 'organization.cancelInvite');
    const invitation = await this.repo.invitation(inviteId);
    if (!invitation || invitation.orgId !== orgId) throw invitationNotFound();
    if (!(await this.repo.answer(inviteId, { status: 'cancelled' }, this.options.now()))) {
      throw new AppError('conflict', M.inviteNotPending);
    }
  }

  // ---- guests ----

  private guestDto(row: GuestRow): Guest {
    return {
      id: row.id,
      name: row.name,
      email: row.email,
      phone: row.phone,
      last_visit: row.lastVisit ? toApiTimestamp(row.lastVisit) : null,
    };
  }

  async guests(claims: AccessClaims, orgId: number, page: PageQuery): Promise<GuestList> {
    await this.allowed(claims, orgId, 'organization.viewGuests');
    return listBody(await this.repo.guests(orgId, page), (row) => this.guestDto(row));
  }

  /**
   * The guest CSV export (admins of the organization and privileged staff): permission is
   * checked here, before anything is sent; the guests are then read in batches by id while the
   * response streams.
   */
  async exportGuests(
    claims: AccessClaims,
    orgId: number,
    search: string | undefined,
  ): Promise<{ organization: Organization; guests: AsyncIterable<Guest> }> {
    const { organization } = await this.allowed(claims, orgId, 'organization.exportGuests');
    const repo = this.repo;
    const toDto = (row: GuestRow) => this.guestDto(row);
    async function* guests(): AsyncGenerator<Guest> {
      let afterId = 0;
      for (;;) {
        const rows = await repo.guestsAfter(orgId, search, afterId, GUEST_EXPORT_BATCH);
        for (const row of rows) yield toDto(row);
        if (rows.length < GUEST_EXPORT_BATCH) return;
        afterId = rows[rows.length - 1]!.id;
      }
    }
    return { organization: await this.toDto(organization), guests: guests() };
  }
}
