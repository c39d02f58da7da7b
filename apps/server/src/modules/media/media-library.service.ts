import {
  type AllMediaQuery,
  can,
  MEDIA_LIBRARY_MESSAGES,
  type ModerationLogPage,
  ORGANIZATION_MESSAGES,
  type OrganizationMediaQuery,
  type StaffMediaItem,
  type StaffMediaPage,
} from '@flashbooth/contracts';
import { listBodyAsync } from '../../db/paging.js';
import { forbidden, notFound } from '../../errors.js';
import { toApiTimestamp } from '../../lib/time.js';
import type { AccessClaims } from '../../security/access-tokens.js';
import type { ObjectStorage } from '../storage/storage.js';
import type { UsersService } from '../users/users.service.js';
import {
  isHiddenFromWall,
  type LibraryRow,
  type MediaLibraryRepository,
} from './media-library.repository.js';
import { mediaLinks } from './media-items.js';

export interface MediaLibraryServiceOptions {
  library: MediaLibraryRepository;
  users: UsersService;
  storage: ObjectStorage;
}

/**
 * The staff media views (staff spec sections 2, 3 and 7). An organization's repost-allowed media
 * are for its members and privileged staff; an organization the caller may not see is "not
 * found", as on the other organization calls, so ids do not leak. All Media is for privileged
 * staff only (`media.viewAll`): the spec leaves that to the navigation, the server enforces it.
 */
export class MediaLibraryService {
  constructor(private readonly options: MediaLibraryServiceOptions) {}

  private async toItem(row: LibraryRow): Promise<StaffMediaItem> {
    // Only uploaded items are listed, so both links are there.
    const links = await mediaLinks(this.options.storage, row);
    return {
      id: row.id,
      media_type: row.mediaType,
      orientation: row.orientation,
      lowres_s3_url: links.lowres!,
      s3_url: links.hd!,
      preview_s3_url: links.preview,
      gif_s3_url: links.gif,
      s3_key: row.s3Key,
      user_name: row.userName,
      org_id: row.orgId,
      org_name: row.orgName,
      device_id: row.deviceId,
      device_name: row.deviceName,
      created_at: toApiTimestamp(row.createdAt),
      caption: row.caption,
      is_public: row.isPublic,
      is_repost_allowed: row.isRepostAllowed,
      hidden_from_wall: isHiddenFromWall(row),
    };
  }

  async repostAllowed(
    claims: AccessClaims,
    orgId: number,
    query: OrganizationMediaQuery,
  ): Promise<StaffMediaPage> {
    const { principal } = await this.options.users.staffPrincipal(claims);
    const { library } = this.options;
    if (!can(principal, 'organization.view', orgId) || !(await library.organizationExists(orgId))) {
      throw notFound(ORGANIZATION_MESSAGES.notFound);
    }
    if (!can(principal, 'organization.viewMedia', orgId)) {
      throw forbidden();
    }
    return listBodyAsync(await library.repostAllowed(orgId, query), (row) => this.toItem(row));
  }

  /**
   * The organization's moderation log (who hid what, when): for those who may moderate there
   * (its admins, super users and product admins); members get 403, others "not found".
   */
  async moderationLog(
    claims: AccessClaims,
    orgId: number,
    page: { limit: number; offset: number },
  ): Promise<ModerationLogPage> {
    const { principal } = await this.options.users.staffPrincipal(claims);
    const { library } = this.options;
    if (!can(principal, 'organization.view', orgId) || !(await library.organizationExists(orgId))) {
      throw notFound(ORGANIZATION_MESSAGES.notFound);
    }
    if (!can(principal, 'organization.moderate', orgId)) {
      throw forbidden('Only those who moderate this organization can read its moderation log.');
    }
    const { items, total } = await library.moderationLog(orgId, page);
    return {
      items: items.map((row) => ({
        id: row.id,
        action: row.action,
        media_id: row.mediaId,
        comment_id: row.commentId,
        actor_id: row.actorId,
        actor_name: row.actorName,
        created_at: toApiTimestamp(row.createdAt),
      })),
      total_count: total,
    };
  }

  async all(claims: AccessClaims, query: AllMediaQuery): Promise<StaffMediaPage> {
    const { principal } = await this.options.users.staffPrincipal(claims);
    if (!can(principal, 'media.viewAll')) throw forbidden(MEDIA_LIBRARY_MESSAGES.onlyPrivileged);
    const page = await this.options.library.all(query, {
      orgId: query.org_id,
      deviceId: query.device_id,
    });
    return listBodyAsync(page, (row) => this.toItem(row));
  }
}
