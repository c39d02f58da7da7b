/**
 * Small in-memory fakes for the unit tests beside the code (the *.test.ts files under src): the
 * people of every role the staff spec names, the users repository the services ask about them,
 * and a logger. No database: a service under test gets these instead of its real collaborators.
 */
import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { expect } from 'vitest';
import type { UserRow } from '../src/db/schema.js';
import type { ErrorCode } from '../src/errors.js';
import type { ObjectStorage } from '../src/modules/storage/storage.js';
import type { UsersRepository } from '../src/modules/users/users.repository.js';
import { UsersService } from '../src/modules/users/users.service.js';
import type { AccessClaims } from '../src/security/access-tokens.js';

/** The organization the tests' devices, templates and members belong to. */
export const ORG = 1;
/** Another organization: its admin is an outsider to ORG. */
export const OTHER_ORG = 2;

/** The callers the permission rules tell apart (staff spec section 6), and a visitor. */
export const STAFF_ROLES = [
  'super user',
  'product admin',
  'org admin',
  'member',
  'outsider',
] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];
export type Role = StaffRole | 'visitor';

const AT = new Date('2025-09-30T10:00:00Z');

/** The users table and organization memberships, as the users repository reads them. */
export class FakeUsersRepository {
  readonly rows = new Map<number, UserRow>();
  /** `${userId}:${orgId}` → role */
  readonly memberships = new Map<string, 'admin' | 'member'>();
  private nextId = 1;

  add(values: Partial<UserRow> & Pick<UserRow, 'pool'>): UserRow {
    const id = this.nextId++;
    const row: UserRow = {
      id,
      phone: `+9190000${String(id).padStart(5, '0')}`,
      name: `Person ${id}`,
      email: null,
      dob: null,
      gender: null,
      isSuperUser: false,
      isFlashboothAdmin: false,
      creditsPaise: 0,
      createdAt: AT,
      updatedAt: AT,
      lastSignInAt: null,
      erasureNoticeAt: null,
      mediaNoticeLeaseUntil: null,
      erasureNoticeLeaseUntil: null,
      ...values,
    };
    this.rows.set(id, row);
    return row;
  }

  join(userId: number, orgId: number, role: 'admin' | 'member') {
    this.memberships.set(`${userId}:${orgId}`, role);
  }

  async findById(id: number) {
    return this.rows.get(id);
  }

  async findByIds(ids: number[]) {
    return ids.flatMap((id) => this.rows.get(id) ?? []);
  }

  async roleIn(userId: number, orgId: number) {
    return this.memberships.get(`${userId}:${orgId}`);
  }

  async organizationsOf(userId: number) {
    return [...this.memberships]
      .filter(([key]) => key.startsWith(`${userId}:`))
      .map(([key, role]) => ({ org_id: Number(key.split(':')[1]), role }));
  }

  async update(id: number, changes: Partial<UserRow>) {
    const row = this.rows.get(id);
    if (!row) return undefined;
    // As Drizzle's set(): fields given as undefined are left alone.
    const given = Object.entries(changes).filter(([, value]) => value !== undefined);
    const updated = { ...row, ...Object.fromEntries(given) } as UserRow;
    this.rows.set(id, updated);
    return updated;
  }
}

export interface People {
  repository: FakeUsersRepository;
  /** The real UsersService (caller, isPrivileged, roleIn) over the fake repository. */
  users: UsersService;
  /** Each role's access claims, as the auth hook hands them to a service. */
  claims: Record<Role, AccessClaims>;
  rows: Record<Role, UserRow>;
}

/**
 * One person of every role: a super user, a product admin (`is_flashbooth_admin`), ORG's admin
 * and member, an outsider (admin of OTHER_ORG only) and a visitor.
 */
export function people(): People {
  const repository = new FakeUsersRepository();
  const staff = (values: Partial<UserRow> = {}) =>
    repository.add({ pool: 'enterprise', ...values });
  const rows: Record<Role, UserRow> = {
    'super user': staff({ isSuperUser: true }),
    'product admin': staff({ isFlashboothAdmin: true }),
    'org admin': staff(),
    member: staff(),
    outsider: staff(),
    visitor: repository.add({ pool: 'regular' }),
  };
  repository.join(rows['org admin'].id, ORG, 'admin');
  repository.join(rows.member.id, ORG, 'member');
  repository.join(rows.outsider.id, OTHER_ORG, 'admin');
  const claims = Object.fromEntries(
    Object.entries(rows).map(([role, row]) => [role, { userId: row.id, pool: row.pool }]),
  ) as Record<Role, AccessClaims>;
  return {
    repository,
    users: new UsersService(repository as unknown as UsersRepository),
    claims,
    rows,
  };
}

/** What a call comes to: it succeeds, or fails with an AppError of this code. */
export type Outcome = 'ok' | ErrorCode;

/** Runs `call` and says how it ended; any error that is not an AppError is rethrown. */
export async function outcomeOf(call: () => Promise<unknown>): Promise<Outcome> {
  try {
    await call();
    return 'ok';
  } catch (error) {
    if (error instanceof Error && error.name === 'AppError' && 'code' in error) {
      return error.code as ErrorCode;
    }
    throw error;
  }
}

/** Expects `promise` to fail with an AppError of `code` (and `message`, when given). */
export async function expectAppError(promise: Promise<unknown>, code: ErrorCode, message?: string) {
  await expect(promise).rejects.toMatchObject({
    name: 'AppError',
    code,
    ...(message !== undefined ? { message } : {}),
  });
}

/** A logger that keeps what was logged, by level, for the tests that look. */
export function memoryLog() {
  const entries: { level: string; message: string | undefined; data: unknown }[] = [];
  const record =
    (level: string) =>
    (data: unknown, message?: string): void => {
      entries.push({ level, message, data });
    };
  const log = {
    entries,
    level: 'info',
    trace: record('trace'),
    debug: record('debug'),
    info: record('info'),
    warn: record('warn'),
    error: record('error'),
    fatal: record('fatal'),
    silent: () => undefined,
    child: () => log,
  };
  return log as typeof log & FastifyBaseLogger;
}

/** An object store in memory: what was put, and every key deleted. */
export class FakeStorage implements ObjectStorage {
  readonly kind = 'local' as const;
  readonly objects = new Map<string, { body: Buffer; contentType: string }>();
  readonly deleted: string[] = [];

  async presignUpload(key: string, contentType: string) {
    return {
      url: `/upload/${key}`,
      method: 'PUT' as const,
      headers: { 'Content-Type': contentType },
      expires_at: '2025-09-30T10:15:00',
    };
  }
  async presignDownload(key: string) {
    return `/download/${key}`;
  }
  async put(key: string, body: Buffer, contentType: string) {
    this.objects.set(key, { body, contentType });
  }
  async putFile(key: string, filePath: string, contentType: string) {
    this.objects.set(key, { body: await readFile(filePath), contentType });
  }
  async get(key: string) {
    const object = this.objects.get(key);
    return object ? { ...object } : null;
  }
  async head(key: string) {
    const object = this.objects.get(key);
    return object ? { size: object.body.length, contentType: object.contentType } : null;
  }
  async open(key: string) {
    const object = this.objects.get(key);
    return object
      ? {
          stream: Readable.from([object.body]),
          size: object.body.length,
          contentType: object.contentType,
        }
      : null;
  }
  async delete(key: string) {
    this.deleted.push(key);
    this.objects.delete(key);
  }
  async ping() {}
  async close() {}
}

/**
 * The store's cleanup queue in memory: uploads handed out and confirmed, and a deleted record's
 * objects deleted from `storage` at once (the database-backed queue is tested in integration).
 */
export class FakeCleanup {
  readonly started = new Set<string>();
  readonly confirmed = new Set<string>();
  constructor(private readonly storage: ObjectStorage) {}
  async uploadStarted(key: string) {
    this.started.add(key);
  }
  async uploadConfirmed(key: string) {
    this.confirmed.add(key);
  }
  async deleteRecordObjects(keys: (string | null)[], prefixes: string[]) {
    const pending = [...this.started].filter(
      (key) => !this.confirmed.has(key) && prefixes.some((prefix) => key.startsWith(prefix)),
    );
    const all = [...keys.filter((key): key is string => key !== null), ...pending];
    for (const key of all) await this.storage.delete(key);
    return all.length;
  }
}
