import { type SQL, sql } from 'drizzle-orm';
import { containing } from './paging.js';
import { devices, media, organizations, users } from './schema.js';

/**
 * The media within `scope` (a condition on `media` alone) whose caption, owner's name,
 * organization's name or booth's name contains `search` (ILIKE, pattern characters literal),
 * as `(id, created_at)` rows: the same matches as a join with an OR of four ILIKEs, found as
 * four index lookups united (the caption's trigram index, the trigram indexes on the three name
 * tables, then the media of each matching user, organization or booth by their indexes).
 * A join with the OR reads every row of the scope instead (seconds at a million media). Used as
 * a CTE by the wall and the staff media views (docs/benchmarks.md).
 */
export function mediaMatching(search: string, scope: SQL): SQL {
  const pattern = containing(search);
  return sql`select ${media.id}, ${media.createdAt} from ${media}
      where ${scope} and ${media.caption} ilike ${pattern}
    union select ${media.id}, ${media.createdAt} from ${media}
      join ${users} on ${users.id} = ${media.userId}
      where ${scope} and ${users.name} ilike ${pattern}
    union select ${media.id}, ${media.createdAt} from ${media}
      join ${organizations} on ${organizations.id} = ${media.orgId}
      where ${scope} and ${organizations.name} ilike ${pattern}
    union select ${media.id}, ${media.createdAt} from ${media}
      join ${devices} on ${devices.id} = ${media.deviceId}
      where ${scope} and ${devices.name} ilike ${pattern}`;
}
