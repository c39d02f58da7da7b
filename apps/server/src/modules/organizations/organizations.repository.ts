import type { OrganizationRole } from '@flashbooth/contracts';
import {
  and,
  asc,
  count,
  countDistinct,
  desc,
  eq,
  gt,
  gte,
  isNotNull,
  lte,
  max,
  sql,
} from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.js';
import { inOrganizationsOf } from '../../db/memberships.js';
import {
  after,
  allOf,
  cutPage,
  fetchPage,
  keyText,
  type Page,
  type PageQuery,
  pageKeyset,
  searchAny,
} from '../../db/paging.js';
import {
  media,
  organizationInvitations,
  type OrganizationInvitationRow,
  organizationMembers,
  organizations,
  users,
} from '../../db/schema.js';

export type OrganizationRecord = typeof organizations.$inferSelect;

export interface OrganizationValues {
  name: string;
  email: string | null;
  phone: string | null;
  address: string | null;
}

export type OrganizationChanges = Partial<OrganizationValues>;

export interface MemberRow {
  userId: number;
  name: string;
  phone: string;
  role: OrganizationRole;
  joinedAt: Date;
}

/** An invitation with the names around it: organization, invitee (once signed up), inviter. */
export interface InvitationView {
  id: number;
  orgId: number;
  orgName: string;
  inviteePhone: string;
  inviteeName: string | null;
  role: OrganizationRole;
  status: OrganizationInvitationRow['status'];
  invitedAt: Date;
  invitedByName: string | null;
}

export interface GuestRow {
  id: number;
  name: string;
  email: string | null;
  phone: string;
  lastVisit: Date | null;
}

/** The staff account a phone has (if any) and the account that sent the invitation. */
const invitee = alias(users, 'invitee');
const inviter = alias(users, 'inviter');

const invitationColumns = {
  id: organizationInvitations.id,
  orgId: organizationInvitations.orgId,
  orgName: organizations.name,
  inviteePhone: organizationInvitations.inviteePhone,
  inviteeName: invitee.name,
  role: organizationInvitations.role,
  status: organizationInvitations.status,
  invitedAt: organizationInvitations.createdAt,
  invitedByName: inviter.name,
};

const memberColumns = {
  userId: organizationMembers.userId,
  name: users.name,
  phone: users.phone,
  role: organizationMembers.role,
  joinedAt: organizationMembers.joinedAt,
};

const guestColumns = {
  id: users.id,
  name: users.name,
  email: users.email,
  phone: users.phone,
  lastVisit: max(media.createdAt),
};

/** Organizations, their members, invitations and guests (migrations 0001 and 0009). */
export class OrganizationsRepository {
  constructor(private readonly db: Executor) {}

  async create(values: OrganizationValues): Promise<OrganizationRecord> {
    const [row] = await this.db.insert(organizations).values(values).returning();
    return row!;
  }

  async findById(id: number): Promise<OrganizationRecord | undefined> {
    const [row] = await this.db.select().from(organizations).where(eq(organizations.id, id));
    return row;
  }

  /**
   * A page of organizations by name, searching name, email, phone and address.
   * `memberUserId` limits the list to that user's organizations.
   */
  async list(page: PageQuery, memberUserId?: number): Promise<Page<OrganizationRecord>> {
    const where = allOf(
      searchAny(page.search, [
        organizations.name,
        organizations.email,
        organizations.phone,
        organizations.address,
      ]),
      inOrganizationsOf(this.db, organizations.id, memberUserId),
    );
    return fetchPage(
      page,
      this.db
        .select()
        .from(organizations)
        .where(where)
        .orderBy(asc(sql`lower(${organizations.name})`), asc(organizations.id)),
      this.db.select({ value: count() }).from(organizations).where(where),
    );
  }

  async update(id: number, changes: OrganizationChanges): Promise<OrganizationRecord | undefined> {
    const [row] = await this.db
      .update(organizations)
      .set(changes)
      .where(eq(organizations.id, id))
      .returning();
    return row;
  }

  /**
   * Deletes the organization; the foreign keys do the rest (0001–0009): memberships, invitations
   * and template associations go with it, devices are unlinked, media and payments keep their
   * rows with no organization. Returns the deleted row (its logo is the caller's to delete).
   */
  async delete(id: number): Promise<OrganizationRecord | undefined> {
    const [row] = await this.db.delete(organizations).where(eq(organizations.id, id)).returning();
    return row;
  }

  /**
   * Points the organization at a new logo and returns the key it replaced (null when none);
   * undefined when the organization is gone. The row is locked between reading and writing, so
   * two confirmations cannot both keep (and neither delete) the same previous object.
   */
  async replaceLogo(id: number, key: string): Promise<{ previous: string | null } | undefined> {
    return this.db.transaction(async (tx) => {
      const [current] = await tx
        .select({ key: organizations.logoKey })
        .from(organizations)
        .where(eq(organizations.id, id))
        .for('update');
      if (!current) return undefined;
      await tx.update(organizations).set({ logoKey: key }).where(eq(organizations.id, id));
      return { previous: current.key };
    });
  }

  // ---- members ----

  private membersQuery() {
    return this.db
      .select(memberColumns)
      .from(organizationMembers)
      .innerJoin(users, eq(users.id, organizationMembers.userId));
  }

  /** A page of members in the order they joined, searching name and phone. */
  async members(orgId: number, page: PageQuery): Promise<Page<MemberRow>> {
    const where = allOf(
      eq(organizationMembers.orgId, orgId),
      searchAny(page.search, [users.name, users.phone]),
    );
    return fetchPage(
      page,
      this.membersQuery()
        .where(where)
        .orderBy(asc(organizationMembers.joinedAt), asc(organizationMembers.userId)),
      this.db
        .select({ value: count() })
        .from(organizationMembers)
        .innerJoin(users, eq(users.id, organizationMembers.userId))
        .where(where),
    );
  }

  async member(orgId: number, userId: number): Promise<MemberRow | undefined> {
    const [row] = await this.membersQuery().where(
      and(eq(organizationMembers.orgId, orgId), eq(organizationMembers.userId, userId)),
    );
    return row;
  }

  async setRole(orgId: number, userId: number, role: OrganizationRole): Promise<boolean> {
    const rows = await this.db
      .update(organizationMembers)
      .set({ role })
      .where(and(eq(organizationMembers.orgId, orgId), eq(organizationMembers.userId, userId)))
      .returning({ userId: organizationMembers.userId });
    return rows.length > 0;
  }

  async removeMember(orgId: number, userId: number): Promise<boolean> {
    const rows = await this.db
      .delete(organizationMembers)
      .where(and(eq(organizationMembers.orgId, orgId), eq(organizationMembers.userId, userId)))
      .returning({ userId: organizationMembers.userId });
    return rows.length > 0;
  }

  /** Whether the staff account with this phone is already a member. */
  async hasMemberWithPhone(orgId: number, phone: string): Promise<boolean> {
    const [row] = await this.db
      .select({ userId: organizationMembers.userId })
      .from(organizationMembers)
      .innerJoin(users, eq(users.id, organizationMembers.userId))
      .where(
        and(
          eq(organizationMembers.orgId, orgId),
          eq(users.pool, 'enterprise'),
          eq(users.phone, phone),
        ),
      );
    return row !== undefined;
  }

  // ---- invitations ----

  /** Inserts a pending invitation; a second pending one for the phone meets the unique index. */
  async createInvitation(values: {
    orgId: number;
    inviteePhone: string;
    role: OrganizationRole;
    invitedBy: number;
    at: Date;
  }): Promise<number> {
    const [row] = await this.db
      .insert(organizationInvitations)
      .values({
        orgId: values.orgId,
        inviteePhone: values.inviteePhone,
        role: values.role,
        invitedBy: values.invitedBy,
        createdAt: values.at,
      })
      .returning({ id: organizationInvitations.id });
    return row!.id;
  }

  private invitationsQuery() {
    return this.db
      .select(invitationColumns)
      .from(organizationInvitations)
      .innerJoin(organizations, eq(organizations.id, organizationInvitations.orgId))
      .leftJoin(
        invitee,
        and(
          eq(invitee.pool, 'enterprise'),
          eq(invitee.phone, organizationInvitations.inviteePhone),
        ),
      )
      .leftJoin(inviter, eq(inviter.id, organizationInvitations.invitedBy));
  }

  async invitation(id: number): Promise<InvitationView | undefined> {
    const [row] = await this.invitationsQuery().where(eq(organizationInvitations.id, id));
    return row;
  }

  /** The organization's pending invitations, newest first, searching invitee name and phone. */
  pendingOfOrganization(orgId: number, search: string | undefined): Promise<InvitationView[]> {
    return this.invitationsQuery()
      .where(
        allOf(
          eq(organizationInvitations.orgId, orgId),
          eq(organizationInvitations.status, 'pending'),
          searchAny(search, [invitee.name, organizationInvitations.inviteePhone]),
        ),
      )
      .orderBy(desc(organizationInvitations.createdAt), desc(organizationInvitations.id));
  }

  /** A phone's pending invitations, newest first. */
  pendingForPhone(phone: string): Promise<InvitationView[]> {
    return this.invitationsQuery()
      .where(
        and(
          eq(organizationInvitations.inviteePhone, phone),
          eq(organizationInvitations.status, 'pending'),
        ),
      )
      .orderBy(desc(organizationInvitations.createdAt), desc(organizationInvitations.id));
  }

  async pendingFor(orgId: number, phone: string): Promise<InvitationView | undefined> {
    const [row] = await this.invitationsQuery().where(
      and(
        eq(organizationInvitations.orgId, orgId),
        eq(organizationInvitations.inviteePhone, phone),
        eq(organizationInvitations.status, 'pending'),
      ),
    );
    return row;
  }

  /**
   * Marks pending invitations made at or before `cutoff` expired (INVITE_TTL_DAYS passed without
   * an answer), of one organization, one phone, or all; returns how many. An expired invitation
   * no longer blocks a new one to the same phone (the pending-once index covers pending only).
   */
  async expirePending(
    scope: { orgId?: number; phone?: string },
    cutoff: Date,
    at: Date,
  ): Promise<number> {
    const expired = await this.db
      .update(organizationInvitations)
      .set({ status: 'expired', respondedAt: at })
      .where(
        and(
          eq(organizationInvitations.status, 'pending'),
          lte(organizationInvitations.createdAt, cutoff),
          scope.orgId === undefined ? undefined : eq(organizationInvitations.orgId, scope.orgId),
          scope.phone === undefined
            ? undefined
            : eq(organizationInvitations.inviteePhone, scope.phone),
        ),
      )
      .returning({ id: organizationInvitations.id });
    return expired.length;
  }

  /** Pending invitations made at or before `cutoff` (the expiry job's dry run). */
  async stalePending(cutoff: Date): Promise<number[]> {
    const rows = await this.db
      .select({ id: organizationInvitations.id })
      .from(organizationInvitations)
      .where(
        and(
          eq(organizationInvitations.status, 'pending'),
          lte(organizationInvitations.createdAt, cutoff),
        ),
      )
      .orderBy(organizationInvitations.id)
      .limit(1000);
    return rows.map((row) => row.id);
  }

  /**
   * Ends a pending invitation (`accepted`, `denied` or `cancelled`) with one conditional update:
   * of two concurrent answers one changes the row and the other finds it no longer pending
   * (undefined). An accepted invitation adds the membership in the same transaction, keeping a
   * membership the user already has.
   */
  async answer(
    id: number,
    outcome:
      { status: 'accepted'; userId: number } | { status: 'denied' } | { status: 'cancelled' },
    at: Date,
  ): Promise<OrganizationInvitationRow | undefined> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx
        .update(organizationInvitations)
        .set({ status: outcome.status, respondedAt: at })
        .where(
          and(eq(organizationInvitations.id, id), eq(organizationInvitations.status, 'pending')),
        )
        .returning();
      if (row && outcome.status === 'accepted') {
        await tx
          .insert(organizationMembers)
          .values({ orgId: row.orgId, userId: outcome.userId, role: row.role, joinedAt: at })
          .onConflictDoNothing();
      }
      return row;
    });
  }

  /**
   * The invitation SMS throttle: lets the SMS of invitation `id` through when its phone got fewer
   * than `limit` invitation SMS since `since`, and records it. The phone's advisory lock makes
   * concurrent invitations to one phone count one at a time.
   */
  async reserveInvitationSms(
    id: number,
    phone: string,
    since: Date,
    limit: number,
    at: Date,
  ): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`invite-sms:${phone}`}))`);
      const [sent] = await tx
        .select({ value: count() })
        .from(organizationInvitations)
        .where(
          and(
            eq(organizationInvitations.inviteePhone, phone),
            isNotNull(organizationInvitations.smsSentAt),
            gte(organizationInvitations.smsSentAt, since),
          ),
        );
      if ((sent?.value ?? 0) >= limit) return false;
      await tx
        .update(organizationInvitations)
        .set({ smsSentAt: at })
        .where(eq(organizationInvitations.id, id));
      return true;
    });
  }

  // ---- guests ----

  private guestsWhere(orgId: number, search: string | undefined) {
    return allOf(eq(media.orgId, orgId), searchAny(search, [users.name, users.phone, users.email]));
  }

  private guestsQuery() {
    return this.db
      .select(guestColumns)
      .from(media)
      .innerJoin(users, eq(users.id, media.userId))
      .$dynamic();
  }

  /**
   * A page of the organization's guests (visitors with media captured at its booths), latest
   * visit first (then the newest account), searching name, phone and email; by offset or after a
   * cursor's guest (its latest visit and id, compared after grouping: the order is of an
   * aggregate, which no index holds).
   */
  async guests(orgId: number, page: PageQuery): Promise<Page<GuestRow>> {
    const key = pageKeyset(page);
    const where = this.guestsWhere(orgId, page.search);
    const [rows, [counted]] = await Promise.all([
      this.db
        .select({ ...guestColumns, cursorAt: keyText(max(media.createdAt)) })
        .from(media)
        .innerJoin(users, eq(users.id, media.userId))
        .where(where)
        .groupBy(users.id)
        .having(after(key, max(media.createdAt), users.id))
        .orderBy(desc(max(media.createdAt)), desc(users.id))
        // One more than the page: whether a page follows (its cursor), without counting.
        .limit(page.limit + 1)
        .offset(page.offset),
      this.db
        .select({ value: countDistinct(media.userId) })
        .from(media)
        .innerJoin(users, eq(users.id, media.userId))
        .where(where),
    ]);
    const found = cutPage(rows, page.limit, (row) => ({ at: row.cursorAt, id: row.id }));
    return {
      rows: found.rows.map(({ cursorAt: _at, ...row }) => row),
      total: counted?.value ?? 0,
      nextCursor: found.nextCursor,
    };
  }

  /**
   * Up to `limit` guests with an id above `afterId`, by id: the CSV export reads them in
   * batches, and a guest's id (unlike the latest visit) cannot move while it does.
   */
  guestsAfter(
    orgId: number,
    search: string | undefined,
    afterId: number,
    limit: number,
  ): Promise<GuestRow[]> {
    return this.guestsQuery()
      .where(allOf(this.guestsWhere(orgId, search), gt(users.id, afterId)))
      .groupBy(users.id)
      .orderBy(asc(users.id))
      .limit(limit);
  }
}
