import {
  can,
  DEVICE_MESSAGES,
  FOREGROUND_MESSAGES,
  type StaffAction,
  type Template,
  TEMPLATE_IMAGE_MAX_BYTES,
  TEMPLATE_MESSAGES,
  type TemplateCreate,
  type TemplateImage,
  type TemplateImageCreate,
  type TemplateImagePatch,
  type TemplateImagePresignRequest,
  type TemplateOrganization,
  type TemplatePatch,
  templatePrints,
  type VisitorTemplatePage,
  slotCanvasProblem,
} from '@flashbooth/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { ListBody, PageQuery } from '../../db/paging.js';
import type { TemplateImageRow, TemplateRow } from '../../db/schema.js';
import { AppError, forbidden, notFound } from '../../errors.js';
import type { AccessClaims } from '../../security/access-tokens.js';
import type { DevicesRepository } from '../devices/devices.repository.js';
import { deleteUnreferenced, extensionFor, type ObjectStorage } from '../storage/storage.js';
import type { ObjectCleanup } from '../storage/object-cleanup.js';
import {
  confirmObjectUpload,
  imageInspection,
  presignObjectUpload,
} from '../storage/presigned-upload.js';
import type { StaffCaller, UsersService } from '../users/users.service.js';
import { uploadedForegroundProblem } from './foreground-check.js';
import type {
  OrganizationRow,
  TemplateChanges,
  TemplateImageKind,
  TemplatesRepository,
} from './templates.repository.js';

export interface TemplatesServiceOptions {
  templates: TemplatesRepository;
  users: UsersService;
  storage: ObjectStorage;
  /** Deletes objects nothing points at (uploads never confirmed, deleted records' files). */
  cleanup: Pick<ObjectCleanup, 'uploadStarted' | 'uploadConfirmed' | 'deleteRecordObjects'>;
  /** Only to find the organization of a visitor's booth. */
  devices: Pick<DevicesRepository, 'findById'>;
  now: () => Date;
  log: FastifyBaseLogger;
}

/** Upload links for samples and foregrounds live 15 minutes; download links one hour. */
export const TEMPLATE_UPLOAD_URL_SECONDS = 15 * 60;
export const TEMPLATE_DOWNLOAD_URL_SECONDS = 3600;

const KIND = {
  sample: { folder: 'templates/samples', typeMessage: TEMPLATE_MESSAGES.sampleType },
  foreground: { folder: 'templates/foregrounds', typeMessage: TEMPLATE_MESSAGES.foregroundType },
} as const;

/** Every key handed out for template `id`'s sample (or foreground): folder/id/uuid.jpg|png. */
function issuedKeyPattern(kind: TemplateImageKind, id: number): RegExp {
  return new RegExp(`^${KIND[kind].folder}/${id}/[0-9a-f-]{36}\\.(jpg|png)$`);
}

const templateNotFound = () => notFound(TEMPLATE_MESSAGES.notFound);

/** 400 when slot `slotNumber` (1-based, in id order as listed) runs off the template's canvas. */
function assertSlotFits(
  slot: { x: number; y: number; w: number; h: number },
  slotNumber: number,
  orientation: TemplateRow['orientation'],
): void {
  const problem = slotCanvasProblem(slot, slotNumber, orientation);
  if (problem) throw new AppError('bad_request', problem);
}
const orgNotFound = () => notFound(TEMPLATE_MESSAGES.orgNotFound);

/** The visitor cursor: the last id, base64url-encoded (opaque to clients). */
export function encodeCursor(id: number): string {
  return Buffer.from(String(id)).toString('base64url');
}

/** A signed download link to a template's file (sample, foreground, logo); null without one. */
function templateFileUrl(
  storage: Pick<ObjectStorage, 'presignDownload'>,
  key: string | null,
): Promise<string | null> {
  return key ? storage.presignDownload(key, TEMPLATE_DOWNLOAD_URL_SECONDS) : Promise.resolve(null);
}

/**
 * A page of a booth's templates as a visitor gets it, from up to `limit + 1` rows in id order
 * (one more than the page: whether another follows). The visitor API and the booth page's HTML
 * (booth-page-source.ts) both answer with it.
 */
export async function visitorTemplatePage(
  rows: TemplateRow[],
  limit: number,
  storage: Pick<ObjectStorage, 'presignDownload'>,
): Promise<VisitorTemplatePage> {
  const page = rows.slice(0, limit);
  return {
    items: await Promise.all(
      page.map(async (row) => ({
        id: row.id,
        name: row.name,
        orientation: row.orientation,
        sample_s3_url: await templateFileUrl(storage, row.sampleKey),
        is_cut: row.isCut,
        is_duplicated: row.isDuplicated,
        capture_kind: row.captureKind,
        motion_prints: templatePrints(row.captureKind, row.motionPrints),
      })),
    ),
    last_evaluated_key: rows.length > limit ? encodeCursor(page[page.length - 1]!.id) : null,
  };
}

export function decodeCursor(cursor: string): number {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const id = /^[1-9]\d{0,9}$/.test(text) ? Number(text) : NaN;
  if (!(id <= 2_147_483_647) || encodeCursor(id) !== cursor) {
    throw new AppError('bad_request', 'Invalid last_evaluated_key.');
  }
  return id;
}

/**
 * Templates and their permissions (staff spec section 6), enforced here with the shared rules
 * (`can` in @flashbooth/contracts, which the web app mirrors): every signed-in staff member may
 * read templates (`template.view`); only super users and product admins create, change, delete,
 * upload and associate them (`template.manage`). Organizations stay as private as everywhere
 * else (`organization.view`): a template's organizations are listed to the others only where
 * they are members, and another organization's template list is "not found" for them.
 */
export class TemplatesService {
  constructor(private readonly options: TemplatesServiceOptions) {}

  private get repo() {
    return this.options.templates;
  }

  /** 403 unless the shared rules let the caller take the action; the caller otherwise. */
  private async authorize(claims: AccessClaims, action: StaffAction): Promise<StaffCaller> {
    const caller = await this.options.users.staffPrincipal(claims);
    if (!can(caller.principal, action)) {
      throw forbidden(
        action === 'template.manage' ? TEMPLATE_MESSAGES.onlyPrivileged : 'Not allowed.',
      );
    }
    return caller;
  }

  /** `template.manage`: super users and product admins. */
  private privileged(claims: AccessClaims): Promise<StaffCaller> {
    return this.authorize(claims, 'template.manage');
  }

  /** `template.view`: every signed-in staff member. */
  private viewer(claims: AccessClaims): Promise<StaffCaller> {
    return this.authorize(claims, 'template.view');
  }

  private async existing(id: number): Promise<TemplateRow> {
    const row = await this.repo.findById(id);
    if (!row) throw templateNotFound();
    return row;
  }

  private downloadUrl(key: string | null): Promise<string | null> {
    return templateFileUrl(this.options.storage, key);
  }

  private imageDto(row: TemplateImageRow): TemplateImage {
    return { id: row.id, x: row.x, y: row.y, w: row.w, h: row.h, filter: row.filter };
  }

  private async toDtos(rows: TemplateRow[]): Promise<Template[]> {
    const images = await this.repo.imagesOf(rows.map((row) => row.id));
    return Promise.all(
      rows.map(async (row) => ({
        id: row.id,
        name: row.name,
        orientation: row.orientation,
        is_cut: row.isCut,
        is_duplicated: row.isDuplicated,
        sample_s3_url: await this.downloadUrl(row.sampleKey),
        foreground_s3_url: await this.downloadUrl(row.foregroundKey),
        images: (images.get(row.id) ?? []).map((image) => this.imageDto(image)),
        capture_kind: row.captureKind,
        motion_frames: row.motionFrames,
        motion_seconds: row.motionSeconds,
        motion_speed: row.motionSpeed,
        motion_prints: row.motionPrints,
      })),
    );
  }

  private async toDto(row: TemplateRow): Promise<Template> {
    const [dto] = await this.toDtos([row]);
    return dto!;
  }

  private async organizationDto(row: OrganizationRow): Promise<TemplateOrganization> {
    return { id: row.id, name: row.name, logo_s3_url: await this.downloadUrl(row.logoKey) };
  }

  // ---- templates ----

  async create(claims: AccessClaims, body: TemplateCreate): Promise<Template> {
    await this.privileged(claims);
    return this.toDto(await this.repo.create(body));
  }

  async list(claims: AccessClaims, page: PageQuery) {
    await this.viewer(claims);
    const { rows, total } = await this.repo.list(page);
    return { items: await this.toDtos(rows), total_count: total } satisfies ListBody<Template>;
  }

  async get(claims: AccessClaims, id: number): Promise<Template> {
    await this.viewer(claims);
    return this.toDto(await this.existing(id));
  }

  async patch(claims: AccessClaims, id: number, patch: TemplatePatch): Promise<Template> {
    await this.privileged(claims);
    const changes: TemplateChanges = {};
    if (patch.name !== undefined) changes.name = patch.name;
    if (patch.orientation !== undefined) changes.orientation = patch.orientation;
    if (patch.is_cut !== undefined) changes.isCut = patch.is_cut;
    if (patch.is_duplicated !== undefined) changes.isDuplicated = patch.is_duplicated;
    if (patch.capture_kind !== undefined) changes.captureKind = patch.capture_kind;
    if (patch.motion_frames !== undefined) changes.motionFrames = patch.motion_frames;
    if (patch.motion_seconds !== undefined) changes.motionSeconds = patch.motion_seconds;
    if (patch.motion_speed !== undefined) changes.motionSpeed = patch.motion_speed;
    if (patch.motion_prints !== undefined) changes.motionPrints = patch.motion_prints;
    const row = await this.repo.withLockedTemplate(id, async (repo, current) => {
      // A new orientation is a new canvas: every slot must lie inside it too.
      if (changes.orientation && changes.orientation !== current.orientation) {
        const slots = (await repo.imagesOf([id])).get(id) ?? [];
        slots.forEach((slot, index) => assertSlotFits(slot, index + 1, changes.orientation!));
      }
      return repo.update(id, { ...changes, updatedAt: this.options.now() });
    });
    if (!row) throw templateNotFound();
    return this.toDto(row);
  }

  /** Deletes the template, then its stored sample and foreground (a failure there is logged). */
  async remove(claims: AccessClaims, id: number): Promise<void> {
    await this.privileged(claims);
    const row = await this.repo.delete(id);
    if (!row) throw templateNotFound();
    // Its sample and foreground, and any upload of either never confirmed; a store failure is
    // retried by the object-cleanup job, so nothing of the template stays in the store.
    await this.options.cleanup.deleteRecordObjects(
      [row.sampleKey, row.foregroundKey],
      Object.values(KIND).map((kind) => `${kind.folder}/${id}/`),
    );
  }

  private deleteObject(key: string, templateId: number): Promise<void> {
    const { storage, log } = this.options;
    return deleteUnreferenced(storage, key, log, { what: 'a template object', templateId });
  }

  // ---- image slots ----

  async images(claims: AccessClaims, id: number): Promise<{ items: TemplateImage[] }> {
    await this.viewer(claims);
    await this.existing(id);
    const images = await this.repo.imagesOf([id]);
    return { items: (images.get(id) ?? []).map((row) => this.imageDto(row)) };
  }

  async addImage(claims: AccessClaims, id: number, body: TemplateImageCreate) {
    await this.privileged(claims);
    const row = await this.repo.withLockedTemplate(id, async (repo, template) => {
      const slots = (await repo.imagesOf([id])).get(id) ?? [];
      assertSlotFits(body, slots.length + 1, template.orientation);
      const added = await repo.addImage(id, body);
      await repo.touch(id, this.options.now());
      return added;
    });
    if (!row) throw templateNotFound();
    return this.imageDto(row);
  }

  async patchImage(
    claims: AccessClaims,
    id: number,
    imageId: number,
    patch: TemplateImagePatch,
  ): Promise<TemplateImage> {
    await this.privileged(claims);
    const changes = Object.fromEntries(
      Object.entries(patch).filter(([, value]) => value !== undefined),
    );
    const row = await this.repo.withLockedTemplate(id, async (repo, template) => {
      const slots = (await repo.imagesOf([id])).get(id) ?? [];
      const index = slots.findIndex((slot) => slot.id === imageId);
      if (index < 0) throw notFound(TEMPLATE_MESSAGES.imageNotFound);
      assertSlotFits({ ...slots[index]!, ...changes }, index + 1, template.orientation);
      const updated = await repo.updateImage(id, imageId, changes);
      if (!updated) throw notFound(TEMPLATE_MESSAGES.imageNotFound);
      await repo.touch(id, this.options.now());
      return updated;
    });
    if (!row) throw templateNotFound();
    return this.imageDto(row);
  }

  async removeImage(claims: AccessClaims, id: number, imageId: number): Promise<void> {
    await this.privileged(claims);
    await this.existing(id);
    if (!(await this.repo.deleteImage(id, imageId))) {
      throw notFound(TEMPLATE_MESSAGES.imageNotFound);
    }
    await this.repo.touch(id, this.options.now());
  }

  // ---- organizations ----

  /** Associates (idempotently); `created` is false when it already was associated. */
  async associate(
    claims: AccessClaims,
    id: number,
    orgId: number,
  ): Promise<{ created: boolean; organization: TemplateOrganization }> {
    await this.privileged(claims);
    await this.existing(id);
    const organization = await this.repo.findOrganization(orgId);
    if (!organization) throw orgNotFound();
    const created = await this.repo.associate(id, orgId);
    return { created, organization: await this.organizationDto(organization) };
  }

  async dissociate(claims: AccessClaims, id: number, orgId: number): Promise<void> {
    await this.privileged(claims);
    await this.existing(id);
    if (!(await this.repo.dissociate(id, orgId))) throw notFound(TEMPLATE_MESSAGES.notAssociated);
  }

  async organizations(claims: AccessClaims, id: number) {
    const caller = await this.viewer(claims);
    await this.existing(id);
    const rows = (await this.repo.organizationsOf(id)).filter((row) =>
      can(caller.principal, 'organization.view', row.id),
    );
    return { items: await Promise.all(rows.map((row) => this.organizationDto(row))) };
  }

  async templatesOfOrganization(claims: AccessClaims, orgId: number) {
    const caller = await this.viewer(claims);
    if (!(await this.repo.findOrganization(orgId))) throw orgNotFound();
    if (!can(caller.principal, 'organization.view', orgId)) throw orgNotFound();
    return { items: await this.toDtos(await this.repo.templatesOfOrganization(orgId)) };
  }

  // ---- sample and foreground uploads ----

  /**
   * A presigned PUT (15 min, 20 MB) to a fresh random key under this template's folder (a
   * foreground's request must say PNG: the route's schema refuses any other type).
   */
  async presignUpload(
    claims: AccessClaims,
    id: number,
    kind: TemplateImageKind,
    request: TemplateImagePresignRequest,
  ): Promise<{ key: string; uploadUrl: string }> {
    await this.privileged(claims);
    await this.existing(id);
    const { key, url } = await presignObjectUpload(this.options, {
      folder: `${KIND[kind].folder}/${id}`,
      extension: extensionFor(request.contentType),
      contentType: request.contentType,
      urlSeconds: TEMPLATE_UPLOAD_URL_SECONDS,
      maxBytes: TEMPLATE_IMAGE_MAX_BYTES,
    });
    return { key, uploadUrl: url };
  }

  /**
   * The foreground rule on the uploaded object at `key` (issue 38, item 1): a PNG of the canvas
   * size of the template's orientation, transparent over each of its current slots; else 400
   * with the rule's words (the Template Studio's for a wrong size).
   */
  private async assertForeground(id: number, key: string): Promise<void> {
    const template = await this.existing(id);
    const slots = (await this.repo.imagesOf([id])).get(id) ?? [];
    const object = await this.options.storage.get(key);
    const problem = object
      ? await uploadedForegroundProblem(object.body, template.orientation, slots)
      : FOREGROUND_MESSAGES.unreadable;
    if (problem) throw new AppError('bad_request', problem);
  }

  /**
   * Accepts an uploaded sample or foreground: only a key handed out for this template, only
   * when the object exists, is at most 20 MB and really is a JPEG or PNG; a foreground must also
   * follow the foreground rule. A refused object is deleted and the template keeps what it had;
   * an accepted one replaces the previous object, which is deleted.
   */
  async confirmUpload(
    claims: AccessClaims,
    id: number,
    kind: TemplateImageKind,
    key: string,
  ): Promise<Template> {
    await this.privileged(claims);
    await this.existing(id);
    if (!issuedKeyPattern(kind, id).test(key)) {
      throw new AppError('bad_request', `This ${kind} upload does not belong to this template.`);
    }
    await confirmObjectUpload(this.options, key, {
      maxBytes: TEMPLATE_IMAGE_MAX_BYTES,
      notUploaded: `The ${kind} image has not been uploaded yet.`,
      tooLarge: `The ${kind} image must be at most 20 MB.`,
      inspect: async (info) => {
        await imageInspection(this.options.storage, key, KIND[kind].typeMessage)(info);
        if (kind === 'foreground') await this.assertForeground(id, key);
      },
      swap: () => this.repo.replaceKey(id, kind, key, this.options.now()),
      recordGone: templateNotFound,
      deletePrevious: (previous) => this.deleteObject(previous, id),
    });
    return this.toDto(await this.existing(id));
  }

  // ---- visitors ----

  /**
   * A booth's templates for a visitor: those associated with the booth's organization, in id
   * order, `limit` at a time after the cursor. A booth that is unknown or not linked to an
   * organization is "not found".
   */
  async forDevice(
    claims: AccessClaims,
    deviceId: number,
    query: { search?: string | undefined; limit: number; last_evaluated_key?: string | undefined },
  ): Promise<VisitorTemplatePage> {
    await this.options.users.caller(claims);
    const afterId = query.last_evaluated_key ? decodeCursor(query.last_evaluated_key) : undefined;
    const device = await this.options.devices.findById(deviceId);
    if (!device || device.orgId === null) throw notFound(DEVICE_MESSAGES.notFound);
    const rows = await this.repo.templatesOfOrganization(device.orgId, {
      search: query.search || undefined,
      afterId,
      limit: query.limit + 1,
    });
    return visitorTemplatePage(rows, query.limit, this.options.storage);
  }
}
