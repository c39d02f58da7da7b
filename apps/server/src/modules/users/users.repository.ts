import type { Pool } from '@flashbooth/contracts';
import { and, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { organizationMembers, users, type UserRow } from '../../db/schema.js';

export interface NewUser {
  pool: Pool;
  phone: string;
  name: string;
  isSuperUser?: boolean;
}

export interface UserChanges {
  name?: string;
  email?: string | null;
  dob?: string | null;
  gender?: string | null;
}

export class UsersRepository {
  constructor(private readonly db: Executor) {}

  with(executor: Executor): UsersRepository {
    return new UsersRepository(executor);
  }

  async findById(id: number): Promise<UserRow | undefined> {
    const [row] = await this.db.select().from(users).where(eq(users.id, id));
    return row;
  }

  /** The accounts of `ids` that exist (in no order). */
  findByIds(ids: number[]): Promise<UserRow[]> {
    return this.db.select().from(users).where(inArray(users.id, ids));
  }

  async findByPhone(pool: Pool, phone: string): Promise<UserRow | undefined> {
    const [row] = await this.db
      .select()
      .from(users)
      .where(and(eq(users.pool, pool), eq(users.phone, phone)));
    return row;
  }

  /** Inserts the account, or returns undefined when the phone is already registered in the pool. */
  async create(user: NewUser): Promise<UserRow | undefined> {
    const [row] = await this.db
      .insert(users)
      .values({
        pool: user.pool,
        phone: user.phone,
        name: user.name,
        isSuperUser: user.isSuperUser ?? false,
      })
      .onConflictDoNothing({ target: [users.pool, users.phone] })
      .returning();
    return row;
  }

  async update(id: number, changes: UserChanges): Promise<UserRow | undefined> {
    const [row] = await this.db
      .update(users)
      .set({ ...changes, updatedAt: new Date() })
      .where(eq(users.id, id))
      .returning();
    return row;
  }

  /** Makes sure a staff account exists for the phone and carries is_super_user. */
  async ensureSuperUser(phone: string, name: string): Promise<UserRow> {
    const [row] = await this.db
      .insert(users)
      .values({ pool: 'enterprise', phone, name, isSuperUser: true })
      .onConflictDoUpdate({
        target: [users.pool, users.phone],
        set: { isSuperUser: true, updatedAt: new Date() },
      })
      .returning();
    return row!;
  }

  /** The user's role in one organization, if a member (devices, templates, software, organizations). */
  async roleIn(userId: number, orgId: number): Promise<'member' | 'admin' | undefined> {
    const [row] = await this.db
      .select({ role: organizationMembers.role })
      .from(organizationMembers)
      .where(and(eq(organizationMembers.userId, userId), eq(organizationMembers.orgId, orgId)));
    return row?.role;
  }

  organizationsOf(userId: number) {
    return this.db
      .select({ org_id: organizationMembers.orgId, role: organizationMembers.role })
      .from(organizationMembers)
      .where(eq(organizationMembers.userId, userId))
      .orderBy(organizationMembers.orgId);
  }
}
