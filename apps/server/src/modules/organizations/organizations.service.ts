import {
  type Guest,
  type GuestList,
  LOGO_MAX_BYTES,
  type LogoPresignRequest,
  isPrivilegedStaff,
  type Organization,
  type OrganizationCreate,
  type OrganizationList,
  ORGANIZATION_MESSAGES,
  type OrganizationPatch,
  type OrganizationRole,
  type OrganizationUser,
  type OrganizationUserList,
} from '@flashbooth/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { listBody, listBodyAsync, type PageQuery } from '../../db/paging.js';
import { AppError, notFound } from '../../errors.js';
import { toApiTimestamp } from '../../lib/time.js';
import type { AccessClaims } from '../../security/access-tokens.js';
import type { ObjectCleanup } from '../storage/object-cleanup.js';
import {
  confirmObjectUpload,
  imageInspection,
  presignObjectUpload,
} from '../storage/presigned-upload.js';
import { deleteUnreferenced, extensionFor, type ObjectStorage } from '../storage/storage.js';
import type { UsersService } from '../users/users.service.js';
import type { InvitationsService } from './invitations.service.js';
import { OrganizationAccess, organizationNotFound } from './organization-access.js';
import type {
  GuestRow,
  MemberRow,
  OrganizationChanges,
  OrganizationRecord,
  OrganizationsRepository,
} from './organizations.repository.js';

export interface OrganizationsServiceOptions {
  organizations: OrganizationsRepository;
  users: UsersService;
  /** The members list shows the organization's pending invitations. */
  invitations: Pick<InvitationsService, 'expireInvitations' | 'sentInvitationDto'>;
  storage: ObjectStorage;
  /** Deletes objects nothing points at (uploads never confirmed, deleted records' files). */
  cleanup: Pick<ObjectCleanup, 'uploadStarted' | 'uploadConfirmed' | 'deleteRecordObjects'>;
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

const M = ORGANIZATION_MESSAGES;
const userNotFound = () => notFound(M.userNotFound);

/**
 * Organizations, their logo, their people and their guests (invitations are
 * `InvitationsService`'s). Super users and product admins see and manage every organization;
 * other staff see the organizations they belong to, where admins edit the details and logo and
 * export guests (`OrganizationAccess` decides, with the shared rule set).
 */
export class OrganizationsService {
  private readonly access: OrganizationAccess;

  constructor(private readonly options: OrganizationsServiceOptions) {
    this.access = new OrganizationAccess(options);
  }

  private get repo() {
    return this.options.organizations;
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
    this.access.authorize(await this.access.staff(claims), 'organization.create');
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
    const caller = await this.access.staff(claims);
    const everyOrganization = isPrivilegedStaff(caller.principal);
    const rows = await this.repo.list(page, everyOrganization ? undefined : caller.user.id);
    return listBodyAsync(rows, (row) => this.toDto(row));
  }

  async get(claims: AccessClaims, orgId: number): Promise<Organization> {
    return this.toDto(await this.access.visible(await this.access.staff(claims), orgId));
  }

  async patch(
    claims: AccessClaims,
    orgId: number,
    patch: OrganizationPatch,
  ): Promise<Organization> {
    await this.access.allowed(claims, orgId, 'organization.edit');
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
    await this.access.allowed(claims, orgId, 'organization.delete');
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
    await this.access.allowed(claims, orgId, 'organization.edit');
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
    await this.access.allowed(claims, orgId, 'organization.edit');
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

  /** A page of members and every pending invitation of the organization, with one search. */
  async users(claims: AccessClaims, orgId: number, page: PageQuery): Promise<OrganizationUserList> {
    await this.access.allowed(claims, orgId, 'organization.view');
    await this.options.invitations.expireInvitations({ orgId });
    const members = await this.repo.members(orgId, page);
    const invites = await this.repo.pendingOfOrganization(orgId, page.search);
    return {
      ...listBody(members, (row) => this.userDto(row)),
      invites: invites.map((row) => this.options.invitations.sentInvitationDto(row)),
    };
  }

  async user(claims: AccessClaims, orgId: number, userId: number): Promise<OrganizationUser> {
    await this.access.allowed(claims, orgId, 'organization.view');
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
    const { caller } = await this.access.allowed(claims, orgId, 'organization.editRole');
    if (userId === caller.user.id) throw new AppError('bad_request', M.ownRole);
    if (!(await this.repo.setRole(orgId, userId, role))) throw userNotFound();
    return this.user(claims, orgId, userId);
  }

  async removeUser(claims: AccessClaims, orgId: number, userId: number): Promise<void> {
    const { caller } = await this.access.allowed(claims, orgId, 'organization.removeUser');
    if (userId === caller.user.id) throw new AppError('bad_request', M.removeSelf);
    if (!(await this.repo.removeMember(orgId, userId))) throw userNotFound();
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
    await this.access.allowed(claims, orgId, 'organization.viewGuests');
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
    const { organization } = await this.access.allowed(claims, orgId, 'organization.exportGuests');
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
