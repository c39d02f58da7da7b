import type { Pool, ProfilePatch, StaffPrincipal, User } from '@flashbooth/contracts';
import DataLoader from 'dataloader';
import type { UserRow } from '../../db/schema.js';
import { AppError, forbidden, notFound } from '../../errors.js';
import { paiseToRupees, toIsoDate } from '../../lib/time.js';
import type { AccessClaims } from '../../security/access-tokens.js';
import type { UsersRepository } from './users.repository.js';

/** Super users and product admins: the staff the spec reserves its privileged calls to. */
export function isPrivileged(user: Pick<UserRow, 'isSuperUser' | 'isFlashboothAdmin'>): boolean {
  return user.isSuperUser || user.isFlashboothAdmin;
}

/** A staff caller with what the shared permission rules read (flags and memberships). */
export interface StaffCaller {
  user: UserRow;
  principal: StaffPrincipal;
}

/** The most accounts one batched caller lookup asks for. */
const CALLER_BATCH = 100;

export class UsersService {
  /**
   * The callers' accounts, looked up together: every request that asks in the same turn of the
   * event loop (requests read from their sockets in one poll) shares one query, so a busy
   * instance makes one round trip for several requests instead of one each. Nothing is kept
   * between batches (`cache: false`): each lookup sees the account as committed when its batch
   * is sent, which is after anything the asking request had already seen committed.
   */
  private readonly callers: DataLoader<number, UserRow | undefined>;

  constructor(private readonly users: UsersRepository) {
    this.callers = new DataLoader(
      async (ids) => {
        const rows = await users.findByIds([...ids]);
        const byId = new Map(rows.map((row) => [row.id, row]));
        return ids.map((id) => byId.get(id));
      },
      { cache: false, maxBatchSize: CALLER_BATCH, batchScheduleFn: (send) => setImmediate(send) },
    );
  }

  /** The spec's User entity: credits for visitors only, organizations for staff only. */
  async toDto(row: UserRow): Promise<User> {
    const base: User = {
      id: row.id,
      phone: row.phone,
      name: row.name,
      email: row.email,
      dob: toIsoDate(row.dob),
      gender: row.gender,
      type: row.pool,
      is_super_user: row.isSuperUser,
      is_flashbooth_admin: row.isFlashboothAdmin,
    };
    if (row.pool === 'regular') return { ...base, credits_rupees: paiseToRupees(row.creditsPaise) };
    return { ...base, organizations: await this.users.organizationsOf(row.id) };
  }

  async getDto(id: number): Promise<User> {
    const row = await this.users.findById(id);
    if (!row) throw notFound('User not found.');
    return this.toDto(row);
  }

  /** Loads the caller's own record; a token for a deleted account is refused. */
  async caller(claims: AccessClaims): Promise<UserRow> {
    const row = await this.callers.load(claims.userId);
    if (!row || row.pool !== claims.pool)
      throw new AppError('unauthorized', 'Please sign in again.');
    return row;
  }

  /**
   * The calling staff member with what the shared permission rules (`can` in
   * @flashbooth/contracts) read: the flags and every membership.
   */
  async staffPrincipal(claims: AccessClaims): Promise<StaffCaller> {
    const user = await this.caller(claims);
    return {
      user,
      principal: {
        is_super_user: user.isSuperUser,
        is_flashbooth_admin: user.isFlashboothAdmin,
        organizations: await this.users.organizationsOf(user.id),
      },
    };
  }

  /** The user's role in one organization, if a member. */
  roleIn(userId: number, orgId: number): Promise<'member' | 'admin' | undefined> {
    return this.users.roleIn(userId, orgId);
  }

  /** The caller, when a super user or product admin; otherwise 403 with `message`. */
  async privilegedCaller(claims: AccessClaims, message: string): Promise<UserRow> {
    const me = await this.caller(claims);
    if (!isPrivileged(me)) throw forbidden(message);
    return me;
  }

  /**
   * Resolves users/{id|self}. Visitors only ever see themselves; staff super users and
   * product admins may read other staff accounts. Accounts of the other pool do not exist here.
   */
  private async target(claims: AccessClaims, id: 'self' | number, pool: Pool, write: boolean) {
    const me = await this.caller(claims);
    if (id === 'self' || id === me.id) return me;
    const mayReach = pool === 'enterprise' && (write ? me.isSuperUser : isPrivileged(me));
    if (!mayReach) throw forbidden('You can only view or change your own profile.');
    const other = await this.users.findById(id);
    if (!other || other.pool !== pool) throw notFound('User not found.');
    return other;
  }

  async get(claims: AccessClaims, id: 'self' | number): Promise<User> {
    return this.toDto(await this.target(claims, id, claims.pool, false));
  }

  async patch(claims: AccessClaims, id: 'self' | number, patch: ProfilePatch): Promise<User> {
    const target = await this.target(claims, id, claims.pool, true);
    const updated = await this.users.update(target.id, patch);
    if (!updated) throw notFound('User not found.');
    return this.toDto(updated);
  }
}
