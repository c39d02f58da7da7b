import { and, asc, count, desc, eq, gt, ilike, inArray, type SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import {
  organizationMembers,
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
}

export interface ImageValues {
  x: number;
  y: number;
  w: number;
  h: number;
  filter: string;
}

export interface Page {
  search?: string | undefined;
  limit: number;
  offset: number;
}

/** Which stored picture of a template: the sample or the foreground overlay. */
export type TemplateImageKind = 'sample' | 'foreground';

export interface OrganizationRow {
  id: number;
  name: string;
  logoKey: string | null;
}

/** `%text%` for ILIKE with the pattern characters taken literally. */
function containing(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
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

  async findById(id: number): Promise<TemplateRow | undefined> {
    const [row] = await this.db.select().from(templates).where(eq(templates.id, id));
    return row;
  }

  /** A page of templates, newest first, searching the name. */
  async list(page: Page): Promise<{ rows: TemplateRow[]; total: number }> {
    const where = page.search ? ilike(templates.name, containing(page.search)) : undefined;
    const rows = await this.db
      .select()
      .from(templates)
      .where(where)
      .orderBy(desc(templates.createdAt), desc(templates.id))
      .limit(page.limit)
      .offset(page.offset);
    const [total] = await this.db.select({ value: count() }).from(templates).where(where);
    return { rows, total: total?.value ?? 0 };
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
   * The organizations a template is associated with, by id; `memberUserId` keeps only those
   * that user belongs to.
   */
  async organizationsOf(templateId: number, memberUserId?: number): Promise<OrganizationRow[]> {
    const conditions: SQL[] = [eq(templateOrganizations.templateId, templateId)];
    if (memberUserId !== undefined) {
      conditions.push(
        inArray(
          organizations.id,
          this.db
            .select({ orgId: organizationMembers.orgId })
            .from(organizationMembers)
            .where(eq(organizationMembers.userId, memberUserId)),
        ),
      );
    }
    return this.db
      .select({ id: organizations.id, name: organizations.name, logoKey: organizations.logoKey })
      .from(templateOrganizations)
      .innerJoin(organizations, eq(organizations.id, templateOrganizations.orgId))
      .where(and(...conditions))
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
    const conditions: SQL[] = [eq(templateOrganizations.orgId, orgId)];
    if (options.afterId !== undefined) conditions.push(gt(templates.id, options.afterId));
    if (options.search) conditions.push(ilike(templates.name, containing(options.search)));
    const query = this.db
      .select({ template: templates })
      .from(templateOrganizations)
      .innerJoin(templates, eq(templates.id, templateOrganizations.templateId))
      .where(and(...conditions))
      .orderBy(asc(templates.id));
    const rows = options.limit === undefined ? await query : await query.limit(options.limit);
    return rows.map((row) => row.template);
  }

  /** The caller's role in one organization, if a member. */
  async roleIn(userId: number, orgId: number): Promise<'member' | 'admin' | undefined> {
    const [row] = await this.db
      .select({ role: organizationMembers.role })
      .from(organizationMembers)
      .where(and(eq(organizationMembers.userId, userId), eq(organizationMembers.orgId, orgId)));
    return row?.role;
  }
}
