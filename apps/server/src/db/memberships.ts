import { type AnyColumn, eq, inArray, type SQL } from 'drizzle-orm';
import type { Executor } from './client.js';
import { organizationMembers } from './schema.js';

/**
 * The list filter of staff who see only their own organizations: `orgColumn` is one of the
 * organizations `userId` belongs to. Undefined (no filter) when `userId` is undefined, for super
 * users and product admins, so it goes straight into `allOf`.
 */
export function inOrganizationsOf(
  db: Executor,
  orgColumn: AnyColumn,
  userId: number | undefined,
): SQL | undefined {
  if (userId === undefined) return undefined;
  return inArray(
    orgColumn,
    db
      .select({ orgId: organizationMembers.orgId })
      .from(organizationMembers)
      .where(eq(organizationMembers.userId, userId)),
  );
}
