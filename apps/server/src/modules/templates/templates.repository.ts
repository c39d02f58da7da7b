import type { CaptureKind } from '@flashbooth/contracts';
import { and, asc, count, desc, eq, gt, inArray } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { allOf, fetchPage, type Page, type PageQuery, searchAny } from '../../db/paging.js';
import {
  organizations,
  templateImages,
  type TemplateImageRow,
  templateOrganizations,
  type TemplateRow,
  templates,
} from '../../db/schema.js';

export interface TemplateChanges {
  name?: string;
  orientation?: 'portrait' | 'landscape';
  isCut?: boolean;
  isDuplicated?: boolean;
  captureKind?: CaptureKind;
  motionFrames?: number;
  motionSeconds?: number;
  motionSpeed?: number;
  motionPrints?: boolean;
}

export interface ImageValues {
  x: number;
  y: number;
  w: number;
  h: number;
  filter: string;
}

/** Which stored picture of a template: the sample or the foreground overlay. */
export type TemplateImageKind = 'sample' | 'foreground';

export interface OrganizationRow {
  id: number;
  name: string;
  logoKey: string | null;
}

const keyColumn = {
  sample: templates.sampleKey,
  foreground: templates.foregroundKey,
} as const;

export class TemplatesRepository {
  constructor(private readonly db: Executor) {}

  async create(values: { name: string; orientation: 'portrait' | 'landscape' }) {
    const [row] = await this.db.insert(templates).values(values).returning();
    return row!;
  }

  /**
   * Runs `work` in a transaction with the template's row locked, so a slot checked against the
   * canvas and an orientation checked against the slots cannot pass at the same time and leave
   * a slot off the canvas. Undefined when the template does not exist.
   */
  async withLockedTemplate<T>(
    id: number,
    work: (repo: TemplatesRepository, template: TemplateRow) => Promise<T>,
  ): Promise<T | undefined> {
    return this.db.transaction(async (tx) => {
      const [row] = await tx.select().from(templates).where(eq(templates.id, id)).for('update');
      return row ? work(new TemplatesRepository(tx), row) : undefined;
    });
  }

  async findById(id: number): Promise<TemplateRow | undefined> {
    const [row] = await this.db.select().from(templates).where(eq(templates.id, id));
    return row;
  }

  /** A page of templates, newest first, searching the name. */
  async list(page: PageQuery): Promise<Page<TemplateRow>> {
    const where = searchAny(page.search, [templates.name]);
    return fetchPage(
      page,
      this.db
        .select()
        .from(templates)
        .where(where)
        .orderBy(desc(templates.createdAt), desc(templates.id)),
      this.db.select({ value: count() }).from(templates).where(where),
    );
  }

  async update(id: number, changes: TemplateChanges & { updatedAt: Date }) {
    const [row] = await this.db
      .update(templates)
      .set(changes)
      .where(eq(templates.id, id))
      .returning();
    return row;
  }

  async touch(id: number, at: Date): Promise<void> {
    await this.db.update(templates).set({ updatedAt: at }).where(eq(templates.id, id));
  }

  /** Deletes the template (slots and associations cascade); returns the row it removed. */
  async delete(id: number): Promise<TemplateRow | undefined> {
    const [row] = await this.db.delete(templates).where(eq(templates.id, id)).returning();
    return row;
  }

  /**
   * Points the template at a new sample or foreground object and returns the key it replaced
   * (null when there was none); undefined when the template is gone. The row is locked between
   * reading the old key and writing the new one, so two confirmations cannot both keep (and
   * neither delete) the same previous object.
   */
  async replaceKey(
    id: number,
    kind: TemplateImageKind,
    key: string,
    at: Date,
  ): Promise<{ previous: string | null } | undefined> {
    const column = keyColumn[kind];
    return this.db.transaction(async (tx) => {
      const [current] = await tx
        .select({ key: column })
        .from(templates)
        .where(eq(templates.id, id))
        .for('update');
      if (!current) return undefined;
      await tx
        .update(templates)
        .set(
          kind === 'sample'
            ? { sampleKey: key, updatedAt: at }
            : { foregroundKey: key, updatedAt: at },
        )
        .where(eq(templates.id, id));
      return { previous: current.key };
    });
  }

  /** Image slots of several templates, each list ordered by id. */
  async imagesOf(templateIds: number[]): Promise<Map<number, TemplateImageRow[]>> {
    const byTemplate = new Map<number, TemplateImageRow[]>(templateIds.map((id) => [id, []]));
    if (templateIds.length === 0) return byTemplate;
    const rows = await this.db
      .select()
      .from(templateImages)
      .where(inArray(templateImages.templateId, templateIds))
      .orderBy(asc(templateImages.id));
    for (const row of rows) byTemplate.get(row.templateId)?.push(row);
    return byTemplate;
  }

  async addImage(templateId: number, values: ImageValues): Promise<TemplateImageRow> {
    const [row] = await this.db
      .insert(templateImages)
      .values({ templateId, ...values })
      .returning();
    return row!;
  }

  async updateImage(
    templateId: number,
    imageId: number,
    changes: Partial<ImageValues>,
  ): Promise<TemplateImageRow | undefined> {
    const [row] = await this.db
      .update(templateImages)
      .set(changes)
      .where(and(eq(templateImages.id, imageId), eq(templateImages.templateId, templateId)))
      .returning();
    return row;
  }

  async deleteImage(templateId: number, imageId: number): Promise<boolean> {
    const rows = await this.db
      .delete(templateImages)
      .where(and(eq(templateImages.id, imageId), eq(templateImages.templateId, templateId)))
      .returning({ id: templateImages.id });
    return rows.length > 0;
  }

  async findOrganization(orgId: number): Promise<OrganizationRow | undefined> {
    const [row] = await this.db
      .select({ id: organizations.id, name: organizations.name, logoKey: organizations.logoKey })
      .from(organizations)
      .where(eq(organizations.id, orgId));
    return row;
  }

  /** Associates the template with the organization; false when it already was. */
  async associate(templateId: number, orgId: number): Promise<boolean> {
    const rows = await this.db
      .insert(templateOrganizations)
      .values({ templateId, orgId })
      .onConflictDoNothing()
      .returning({ orgId: templateOrganizations.orgId });
    return rows.length > 0;
  }

  async dissociate(templateId: number, orgId: number): Promise<boolean> {
    const rows = await this.db
      .delete(templateOrganizations)
      .where(
        and(
          eq(templateOrganizations.templateId, templateId),
          eq(templateOrganizations.orgId, orgId),
        ),
      )
      .returning({ orgId: templateOrganizations.orgId });
    return rows.length > 0;
  }

  /**
   * The organizations a template is associated with, by id (the service keeps those the caller
   * may see).
   */
  async organizationsOf(templateId: number): Promise<OrganizationRow[]> {
    return this.db
      .select({ id: organizations.id, name: organizations.name, logoKey: organizations.logoKey })
      .from(templateOrganizations)
      .innerJoin(organizations, eq(organizations.id, templateOrganizations.orgId))
      .where(eq(templateOrganizations.templateId, templateId))
      .orderBy(asc(organizations.id));
  }

  /**
   * Templates associated with an organization in id order: all of them, or (cursor paging) at
   * most `limit` after the id `afterId`, optionally searching the name.
   */
  async templatesOfOrganization(
    orgId: number,
    options: { search?: string | undefined; afterId?: number | undefined; limit?: number } = {},
  ): Promise<TemplateRow[]> {
    const where = allOf(
      eq(templateOrganizations.orgId, orgId),
      options.afterId === undefined ? undefined : gt(templates.id, options.afterId),
      searchAny(options.search, [templates.name]),
    );
    const query = this.db
      .select({ template: templates })
      .from(templateOrganizations)
      .innerJoin(templates, eq(templates.id, templateOrganizations.templateId))
      .where(where)
      .orderBy(asc(templates.id));
    const rows = options.limit === undefined ? await query : await query.limit(options.limit);
    return rows.map((row) => row.template);
  }
}
