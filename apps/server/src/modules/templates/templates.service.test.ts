import { newTemplateSlot } from '@flashbooth/contracts';
import { describe, expect, it } from 'vitest';
import type { TemplateImagePatch } from '@flashbooth/contracts';
import {
  expectAppError,
  FakeCleanup,
  FakeStorage,
  memoryLog,
  ORG,
  OTHER_ORG,
  type Outcome,
  outcomeOf,
  people,
  STAFF_ROLES,
  type StaffRole,
} from '../../../test/unit-fakes.js';
import type { TemplateImageRow, TemplateRow } from '../../db/schema.js';
import type { AccessClaims } from '../../security/access-tokens.js';
import type { DevicesRepository } from '../devices/devices.repository.js';
import type { TemplatesRepository } from './templates.repository.js';
import { decodeCursor, encodeCursor, TemplatesService } from './templates.service.js';

describe('the booth template cursor', () => {
  it('round-trips ids as opaque base64url', () => {
    for (const id of [1, 9, 12345, 2_147_483_647]) {
      const cursor = encodeCursor(id);
      expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
      expect(decodeCursor(cursor)).toBe(id);
    }
  });

  it('refuses anything it did not make', () => {
    for (const bad of [
      '',
      'abc!',
      encodeCursor(1) + '=',
      Buffer.from('0').toString('base64url'),
      Buffer.from('01').toString('base64url'),
      Buffer.from('-5').toString('base64url'),
      Buffer.from('1.5').toString('base64url'),
      Buffer.from('2147483648').toString('base64url'),
      Buffer.from('12 ').toString('base64url'),
    ]) {
      expect(() => decodeCursor(bad), bad).toThrow('Invalid last_evaluated_key.');
    }
  });
});

describe('new image slots (staff spec section 5)', () => {
  it('are 1080×720 without filter, placed by how many slots exist', () => {
    expect(newTemplateSlot(0)).toEqual({ x: 61, y: 555, w: 1080, h: 720, filter: 'none' });
    expect(newTemplateSlot(1)).toMatchObject({ x: 61, y: 1440 });
    expect(newTemplateSlot(2)).toMatchObject({ x: 61, y: 2325 });
    expect(newTemplateSlot(3)).toMatchObject({ x: 0, y: 0, w: 1080, h: 720 });
  });
});

const AT = new Date('2025-09-30T10:00:00Z');

/** Templates, their slots and organizations as TemplatesService reads and changes them. */
class FakeTemplates {
  readonly rows = new Map<number, TemplateRow>();
  readonly images = new Map<number, TemplateImageRow>();
  /** `${templateId}:${orgId}` */
  readonly offered = new Set<string>();
  readonly organizations = new Map([
    [ORG, { id: ORG, name: 'Sunrise Mall', logoKey: null }],
    [OTHER_ORG, { id: OTHER_ORG, name: 'Harbour Café', logoKey: null }],
  ]);
  private nextId = 1;

  add(): TemplateRow {
    const id = this.nextId++;
    const row: TemplateRow = {
      id,
      name: `Template ${id}`,
      orientation: 'portrait',
      isCut: false,
      isDuplicated: false,
      sampleKey: null,
      foregroundKey: null,
      createdAt: AT,
      updatedAt: AT,
      captureKind: 'photo',
      motionFrames: 4,
      motionSeconds: 5,
      motionSpeed: 1,
      motionPrints: true,
    };
    this.rows.set(id, row);
    const image: TemplateImageRow = {
      id: 100 + id,
      templateId: id,
      x: 0,
      y: 0,
      w: 10,
      h: 10,
      filter: 'none',
      createdAt: AT,
    };
    this.images.set(image.id, image);
    return row;
  }

  async create(values: { name: string }) {
    return Object.assign(this.add(), values);
  }
  async findById(id: number) {
    return this.rows.get(id);
  }
  async withLockedTemplate<T>(id: number, work: (repo: this, row: TemplateRow) => Promise<T>) {
    const row = this.rows.get(id);
    return row ? work(this, row) : undefined;
  }
  async list() {
    return { rows: [...this.rows.values()], total: this.rows.size };
  }
  async update(id: number, changes: Partial<TemplateRow>) {
    const row = this.rows.get(id);
    return row && Object.assign(row, changes);
  }
  async touch() {}
  async delete(id: number) {
    const row = this.rows.get(id);
    this.rows.delete(id);
    return row;
  }
  async imagesOf(ids: number[]) {
    const found = new Map<number, TemplateImageRow[]>();
    for (const image of this.images.values()) {
      if (ids.includes(image.templateId)) {
        found.set(image.templateId, [...(found.get(image.templateId) ?? []), image]);
      }
    }
    return found;
  }
  async addImage(templateId: number, values: Partial<TemplateImageRow>) {
    const image = { ...[...this.images.values()][0]!, ...values, id: 999, templateId };
    this.images.set(image.id, image);
    return image;
  }
  async updateImage(templateId: number, imageId: number, changes: Partial<TemplateImageRow>) {
    const image = this.images.get(imageId);
    return image?.templateId === templateId ? Object.assign(image, changes) : undefined;
  }
  async deleteImage(templateId: number, imageId: number) {
    return this.images.get(imageId)?.templateId === templateId && this.images.delete(imageId);
  }
  async findOrganization(orgId: number) {
    return this.organizations.get(orgId);
  }
  async associate(templateId: number, orgId: number) {
    const had = this.offered.has(`${templateId}:${orgId}`);
    this.offered.add(`${templateId}:${orgId}`);
    return !had;
  }
  async dissociate(templateId: number, orgId: number) {
    return this.offered.delete(`${templateId}:${orgId}`);
  }
  async organizationsOf(templateId: number) {
    return [...this.organizations.values()].filter((org) =>
      this.offered.has(`${templateId}:${org.id}`),
    );
  }
  async templatesOfOrganization(orgId: number) {
    return [...this.rows.values()].filter((row) => this.offered.has(`${row.id}:${orgId}`));
  }
  async replaceKey(id: number) {
    return this.rows.has(id) ? { previous: null } : undefined;
  }
}

function setUp() {
  const everyone = people();
  const templates = new FakeTemplates();
  const storage = new FakeStorage();
  const devices = new Map([
    [1, { id: 1, orgId: ORG }],
    [2, { id: 2, orgId: null }],
  ]);
  const service = new TemplatesService({
    templates: templates as unknown as TemplatesRepository,
    users: everyone.users,
    storage,
    cleanup: new FakeCleanup(storage),
    devices: { findById: async (id: number) => devices.get(id) } as unknown as Pick<
      DevicesRepository,
      'findById'
    >,
    now: () => AT,
    log: memoryLog(),
  });
  return { ...everyone, templates, storage, service };
}

type TemplateCall = (
  service: TemplatesService,
  caller: AccessClaims,
  id: number,
) => Promise<unknown>;
const slotPatch: TemplateImagePatch = {
  x: 5,
  y: undefined,
  w: undefined,
  h: undefined,
  filter: undefined,
};
const page = { limit: 9, offset: 0 };

/** Reading templates: every staff member. */
const reads: Record<string, TemplateCall> = {
  'list templates': (service, caller) => service.list(caller, page),
  'read a template': (service, caller, id) => service.get(caller, id),
  'read its slots': (service, caller, id) => service.images(caller, id),
  "read a template's organizations": (service, caller, id) => service.organizations(caller, id),
};
/** Changing templates: super users and product admins only, whatever else a person is. */
const writes: Record<string, TemplateCall> = {
  'create a template': (service, caller) =>
    service.create(caller, { name: 'New', orientation: 'portrait' }),
  'rename a template': (service, caller, id) =>
    service.patch(caller, id, {
      name: 'Renamed',
      orientation: undefined,
      is_cut: undefined,
      is_duplicated: undefined,
    }),
  'delete a template': (service, caller, id) => service.remove(caller, id),
  'add a slot': (service, caller, id) =>
    service.addImage(caller, id, { x: 1, y: 1, w: 10, h: 10, filter: 'none' }),
  'move a slot': (service, caller, id) => service.patchImage(caller, id, 100 + id, slotPatch),
  'remove a slot': (service, caller, id) => service.removeImage(caller, id, 100 + id),
  'offer it to an organization': (service, caller, id) => service.associate(caller, id, ORG),
  'withdraw it from an organization': async (service, caller, id) => {
    // Offered first by the super user (the first person `people()` makes, id 1).
    await service.associate({ userId: 1, pool: 'enterprise' }, id, OTHER_ORG);
    return service.dissociate(caller, id, OTHER_ORG);
  },
  'presign a sample upload': (service, caller, id) =>
    service.presignUpload(caller, id, 'sample', { filename: 'a.jpg', contentType: 'image/jpeg' }),
  'confirm a sample upload': (service, caller, id) =>
    service.confirmUpload(caller, id, 'sample', `templates/samples/${id}/not-a-key.jpg`),
};

describe('template permissions (staff spec section 6)', () => {
  const privileged = (role: StaffRole) => role === 'super user' || role === 'product admin';
  const cases = [
    ...Object.keys(reads).flatMap((call) =>
      STAFF_ROLES.map((role) => ({ role, call, expected: 'ok' as Outcome })),
    ),
    ...Object.keys(writes).flatMap((call) =>
      STAFF_ROLES.map((role) => ({
        role,
        call,
        // A privileged caller gets past the rule; the upload key here is not one it was given.
        expected: (privileged(role)
          ? call === 'confirm a sample upload'
            ? 'bad_request'
            : 'ok'
          : 'forbidden') as Outcome,
      })),
    ),
  ];

  it.each(cases)('a $role may $call: $expected', async (c) => {
    const { service, templates, claims } = setUp();
    const template = templates.add();
    const call = reads[c.call] ?? writes[c.call]!;
    expect(await outcomeOf(() => call(service, claims[c.role], template.id))).toBe(c.expected);
  });

  it('leaves templates, slots and offers unchanged when a change is refused', async () => {
    const { service, templates, storage, claims } = setUp();
    const template = templates.add();
    const before = structuredClone({ rows: templates.rows, images: templates.images });
    for (const role of ['org admin', 'member', 'outsider'] as const) {
      for (const call of Object.values(writes)) {
        await outcomeOf(() => call(service, claims[role], template.id));
      }
    }
    expect({ rows: templates.rows, images: templates.images }).toEqual(before);
    expect([...templates.offered]).toEqual([`${template.id}:${OTHER_ORG}`]);
    expect(storage.deleted).toEqual([]);
  });

  it("shows a template's organizations in full to privileged staff, filtered for the rest", async () => {
    const { service, templates, claims } = setUp();
    const template = templates.add();
    await service.associate(claims['super user'], template.id, ORG);
    await service.associate(claims['super user'], template.id, OTHER_ORG);
    const seen: Record<string, number[]> = {};
    for (const role of STAFF_ROLES) {
      const { items } = await service.organizations(claims[role], template.id);
      seen[role] = items.map((org) => org.id);
    }
    expect(seen).toEqual({
      'super user': [ORG, OTHER_ORG],
      'product admin': [ORG, OTHER_ORG],
      'org admin': [ORG],
      member: [ORG],
      outsider: [OTHER_ORG],
    });
  });

  it.each(STAFF_ROLES)(
    "lets a %s list an organization's templates only as a member or privileged",
    async (role) => {
      const { service, claims } = setUp();
      const expected = role === 'outsider' ? 'not_found' : 'ok';
      expect(await outcomeOf(() => service.templatesOfOrganization(claims[role], ORG))).toBe(
        expected,
      );
      // An organization that does not exist is not found for anyone.
      await expectAppError(service.templatesOfOrganization(claims[role], 99), 'not_found');
    },
  );

  it("lists a booth's templates to visitors only when the booth is linked", async () => {
    const { service, templates, claims } = setUp();
    const template = templates.add();
    await service.associate(claims['super user'], template.id, ORG);
    const query = { limit: 10 };
    await expect(service.forDevice(claims.visitor, 1, query)).resolves.toMatchObject({
      items: [{ id: template.id }],
      last_evaluated_key: null,
    });
    await expectAppError(service.forDevice(claims.visitor, 2, query), 'not_found');
    await expectAppError(service.forDevice(claims.visitor, 3, query), 'not_found');
  });
});
