import {
  can,
  type Comment,
  type CommentPage,
  type CommentsQuery,
  type LikeState,
  type Media,
  type StaffPrincipal,
  WALL_MESSAGES,
  type WallHideState,
  type WallPage,
  type WallQuery,
} from '@flashbooth/contracts';
import { listBody, listBodyAsync } from '../../db/paging.js';
import { AppError, forbidden, notFound } from '../../errors.js';
import { toApiTimestamp } from '../../lib/time.js';
import type { AccessClaims } from '../../security/access-tokens.js';
import { toVisitorMedia } from '../media/media-items.js';
import type { ObjectStorage } from '../storage/storage.js';
import { type CachedWallPage, holds, type WallCache, wallPageKey } from './wall-cache.js';
import type { WallFeed } from './wall-feed.js';
import type { CommentRow, ModeratedMedia, WallRepository, WallRow } from './wall.repository.js';

/** What the wall needs of the users module: the caller's id, and a staff caller's roles. */
export interface WallUsers {
  caller(claims: AccessClaims): Promise<{ id: number }>;
  staffPrincipal(
    claims: AccessClaims,
  ): Promise<{ user: { id: number }; principal: StaffPrincipal }>;
}

export interface WallServiceOptions {
  wall: WallRepository;
  users: WallUsers;
  storage: Pick<ObjectStorage, 'presignDownload'>;
  now: () => Date;
  /** Told when a moderator takes an item off the wall or puts it back (the kiosk walls). */
  changes?: Pick<WallFeed, 'publish'>;
  /** The pages kept until the wall changes; absent = every page read from the database. */
  cache?: WallCache;
}

const mediaNotFound = () => notFound(WALL_MESSAGES.mediaNotFound);
const commentNotFound = () => notFound(WALL_MESSAGES.commentNotFound);

/**
 * Who moderates an item: privileged staff anywhere, and the admins of the organization whose
 * booth made it (`organization.moderate`); an item of no organization only privileged staff.
 */
export function mayModerate(principal: StaffPrincipal, orgId: number | null): boolean {
  if (orgId === null) return principal.is_super_user || principal.is_flashbooth_admin;
  return can(principal, 'organization.moderate', orgId);
}

/** The public wall (visitors, optional session) and its moderation (staff). */
export class WallService {
  constructor(private readonly options: WallServiceOptions) {}

  private get repo() {
    return this.options.wall;
  }

  /** A wall item: the caller's like from the page query; nothing on the wall is hidden. */
  private toMedia(row: WallRow): Promise<Media> {
    return toVisitorMedia(this.options.storage, row, {
      likedByCaller: row.likedByCaller,
      hiddenFromWall: false,
    });
  }

  private toComment(row: CommentRow, canEdit: boolean): Comment {
    return {
      id: row.id,
      user_name: row.userName,
      comment_text: row.commentText,
      created_at: toApiTimestamp(row.createdAt),
      can_edit: canEdit,
    };
  }

  /**
   * GET media/public: anyone; `claims` (a signed-in visitor) only decides is_liked_by_caller.
   * A page kept by the cache (`WallCache`) is answered from it, the caller's likes from its
   * likers; otherwise read (and kept for the next caller).
   */
  async list(claims: AccessClaims | undefined, query: WallQuery): Promise<WallPage> {
    const cache = this.options.cache;
    const key = wallPageKey(query);
    const version = cache?.current();
    const kept = cache?.page(key, version);
    if (cache && kept && (!claims || kept.likers)) {
      if (claims && !cache.knowsCaller(claims, version)) {
        await this.options.users.caller(claims);
        cache.rememberCaller(claims, version);
      }
      cache.counts.hits += 1;
      return listBodyAsync(withCallerLikes(kept, claims?.userId), (row) => this.toMedia(row));
    }
    const page = await this.repo.listPublic(
      claims && { id: claims.userId, pool: claims.pool },
      query,
    );
    // The page query checked the caller's account too; when it could not say (an empty page) or
    // found none, the users module decides (and refuses a deleted account as everywhere).
    if (claims && page.callerKnown !== true) await this.options.users.caller(claims);
    if (cache) {
      if (version !== undefined) cache.counts.misses += 1;
      if (claims) cache.rememberCaller(claims, version);
      cache.keep(key, version, page);
    }
    return listBodyAsync(page, (row) => this.toMedia(row));
  }

  async like(claims: AccessClaims, mediaId: number): Promise<LikeState> {
    const me = await this.options.users.caller(claims);
    const state = await this.repo.like(mediaId, me.id);
    if (!state) throw mediaNotFound();
    return { id: mediaId, likes_count: state.likesCount, is_liked_by_caller: true };
  }

  async unlike(claims: AccessClaims, mediaId: number): Promise<LikeState> {
    const me = await this.options.users.caller(claims);
    const state = await this.repo.unlike(mediaId, me.id);
    if (!state) throw mediaNotFound();
    return { id: mediaId, likes_count: state.likesCount, is_liked_by_caller: false };
  }

  /** A wall item's comments (newest first); can_edit for the caller's own. */
  async comments(
    claims: AccessClaims | undefined,
    mediaId: number,
    query: CommentsQuery,
  ): Promise<CommentPage> {
    const callerId = claims ? (await this.options.users.caller(claims)).id : undefined;
    if (!(await this.repo.isOnWall(mediaId))) throw mediaNotFound();
    const page = await this.repo.listComments(mediaId, query);
    return listBody(page, (row) => this.toComment(row, row.userId === callerId));
  }

  async addComment(claims: AccessClaims, mediaId: number, text: string): Promise<Comment> {
    const me = await this.options.users.caller(claims);
    const added = await this.repo.addComment(mediaId, me.id, text, this.options.now());
    if (!added) throw mediaNotFound();
    const row = await this.repo.findComment(added.id);
    if (!row) throw commentNotFound();
    return this.toComment(row, true);
  }

  /** The visitor's own comment on an item still on the wall. */
  private async ownComment(claims: AccessClaims, id: number) {
    const me = await this.options.users.caller(claims);
    const row = await this.repo.findComment(id);
    if (!row || !row.mediaOnWall) throw commentNotFound();
    if (row.userId !== me.id) throw forbidden(WALL_MESSAGES.notYourComment);
    return { me, row };
  }

  async editComment(claims: AccessClaims, id: number, text: string): Promise<Comment> {
    const { me, row } = await this.ownComment(claims, id);
    if (!(await this.repo.updateComment(id, me.id, text, this.options.now()))) {
      throw commentNotFound();
    }
    return this.toComment({ ...row, commentText: text }, true);
  }

  async deleteComment(claims: AccessClaims, id: number): Promise<void> {
    const { me } = await this.ownComment(claims, id);
    if (!(await this.repo.deleteOwnComment(id, me.id))) throw commentNotFound();
  }

  // ---- Moderation (staff) ----

  private async moderator(claims: AccessClaims, mediaId: number) {
    const { user, principal } = await this.options.users.staffPrincipal(claims);
    const item = await this.repo.findModerated(mediaId);
    if (!item) throw mediaNotFound();
    if (!mayModerate(principal, item.orgId)) throw forbidden(WALL_MESSAGES.notModerator);
    return { user, item };
  }

  private toHideState(item: ModeratedMedia): WallHideState {
    return {
      id: item.id,
      hidden_from_wall: item.hiddenFromWallAt !== null,
      hidden_from_wall_at: item.hiddenFromWallAt && toApiTimestamp(item.hiddenFromWallAt),
      hidden_from_wall_by: item.hiddenFromWallBy,
    };
  }

  /**
   * Hides a public item from the wall (`hide`; 409 for one that is not public) or shows it
   * again; logged with the moderator.
   */
  async setHidden(claims: AccessClaims, mediaId: number, hide: boolean): Promise<WallHideState> {
    const { user } = await this.moderator(claims, mediaId);
    const item = await this.repo.setHidden(mediaId, hide, user.id, this.options.now());
    if (!item) throw mediaNotFound();
    // Nothing of a private item is on the wall; hiding it would only mislead (issue 20, item 13).
    if (hide && item.hiddenFromWallAt === null && !item.isPublic) {
      throw new AppError('conflict', WALL_MESSAGES.hideNotPublic);
    }
    this.options.changes?.publish({
      mediaId: item.id,
      orgId: item.orgId,
      onWall: item.isPublic && item.hiddenFromWallAt === null,
    });
    return this.toHideState(item);
  }

  /** Any item's comments for its moderators, every one editable (deletable) by them. */
  async staffComments(
    claims: AccessClaims,
    mediaId: number,
    query: CommentsQuery,
  ): Promise<CommentPage> {
    await this.moderator(claims, mediaId);
    const page = await this.repo.listComments(mediaId, query);
    return listBody(page, (row) => this.toComment(row, true));
  }

  async staffDeleteComment(claims: AccessClaims, id: number): Promise<void> {
    const comment = await this.repo.findComment(id);
    if (!comment) throw commentNotFound();
    const { user } = await this.moderator(claims, comment.mediaId);
    if (!(await this.repo.moderateDeleteComment(id, user.id, this.options.now()))) {
      throw commentNotFound();
    }
  }
}

const NO_LIKERS = new Int32Array(0);

/** A kept page as `callerId` sees it: each item's `likedByCaller` from its likers. */
function withCallerLikes(page: CachedWallPage, callerId: number | undefined): CachedWallPage {
  const { likers } = page;
  return {
    ...page,
    rows: page.rows.map((row) => ({
      ...row,
      likedByCaller: callerId !== undefined && holds(likers?.get(row.id) ?? NO_LIKERS, callerId),
    })),
  };
}
