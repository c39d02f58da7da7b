import type { Pool } from '@flashbooth/contracts';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, expect } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client.js';
import { devices, organizations } from '../../src/db/schema.js';
import { createStorage } from '../../src/modules/storage/create-storage.js';
import type { ObjectStorage } from '../../src/modules/storage/storage.js';
import type { DatabaseTarget } from '../databases.js';
import {
  apiCall,
  newPhone,
  signedIn,
  signedInOrgStaff,
  signedInProductAdmin,
  startApp,
} from '../harness.js';

export const JPEG = Buffer.from([
  0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0xff, 0xd9,
]);
export const PNG = Buffer.from([
  0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
]);

export interface TemplateBody {
  id: number;
  name: string;
  orientation: string;
  is_cut: boolean;
  is_duplicated: boolean;
  sample_s3_url: string | null;
  foreground_s3_url: string | null;
  images: { id: number; x: number; y: number; w: number; h: number; filter: string }[];
}

export const expectError = (
  response: { statusCode: number; json: () => unknown },
  status: number,
  message: string,
) => {
  expect(response.statusCode).toBe(status);
  expect(response.json()).toMatchObject({ message });
};

/**
 * One test file's app and local store, a super user, a product admin, a member of organization
 * A (Sunrise Mall, with a logo), an admin of organization B (Harbour Café) and a visitor, and the
 * calls the template tests make. Started before the file's tests, stopped after them.
 */
export function useTemplatesSuite(open: DatabaseTarget['open']): TemplatesSuite {
  const suite = new TemplatesSuite();
  beforeAll(() => suite.start(open));
  afterAll(() => suite.stop());
  return suite;
}

export class TemplatesSuite {
  readonly superPhone = newPhone();
  database!: DatabaseHandle;
  app!: FastifyInstance;
  /** The same local store (folder, secret, clock) the app uses, to look at objects directly. */
  storage!: ObjectStorage;

  superToken!: string;
  productAdminToken!: string;
  orgA!: number;
  orgB!: number;
  memberA!: string;
  adminB!: string;
  visitor!: string;

  async start(open: DatabaseTarget['open']) {
    this.database = await open();
    const started = await startApp(this.database, {
      OTP_SEND_LIMIT_PER_IP: '1000',
      SUPER_USER_PHONES: this.superPhone,
    });
    const app = (this.app = started.app);
    this.storage = await createStorage(started.config, started.clock.now);
    const db = this.database.db;
    this.superToken = (await signedIn(app, 'enterprise', this.superPhone)).token;
    this.productAdminToken = (await signedInProductAdmin(app, this.database)).token;
    [this.orgA, this.orgB] = (
      await db
        .insert(organizations)
        .values([{ name: 'Sunrise Mall', logoKey: 'logos/sunrise.png' }, { name: 'Harbour Café' }])
        .returning({ id: organizations.id })
    ).map((row) => row.id) as [number, number];
    const staff = async (orgId: number, role: 'admin' | 'member') =>
      (await signedInOrgStaff(app, this.database, orgId, role)).token;
    this.memberA = await staff(this.orgA, 'member');
    this.adminB = await staff(this.orgB, 'admin');
    this.visitor = (await signedIn(app, 'regular')).token;
  }

  async stop() {
    await this.app.close();
    await this.storage.close();
    await this.database.close();
  }

  call = (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    token: string,
    payload?: object,
    pool: Pool = 'enterprise',
  ) => apiCall(this.app, method, url, token, payload, pool);

  template = async (name = 'Classic strip', orientation?: 'portrait' | 'landscape') => {
    const response = await this.call('POST', 'templates', this.superToken, {
      name,
      ...(orientation ? { orientation } : {}),
    });
    expect(response.statusCode, response.body).toBe(201);
    return response.json<TemplateBody>();
  };

  device = async (orgId: number | null) => {
    const [row] = await this.database.db
      .insert(devices)
      .values({
        name: 'Booth',
        orgId,
        thingName: `fb-t${Math.random().toString(36).slice(2, 12)}`,
        secretHash: 'x',
      })
      .returning({ id: devices.id });
    return row!.id;
  };
}

/** A box on the canvas, in canvas pixels. */
export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/**
 * A PNG `width`×`height` of opaque pink, fully transparent inside each of `clear` (a
 * foreground with openings where the photos go); `alpha: false` leaves out the alpha channel.
 */
export function foregroundPng(
  width: number,
  height: number,
  clear: readonly Box[] = [],
  { alpha = true }: { alpha?: boolean } = {},
): Promise<Buffer> {
  const rgba = Buffer.alloc(width * height * 4);
  const opaque = Buffer.from([255, 90, 122, 255]);
  for (let at = 0; at < rgba.length; at += 4) opaque.copy(rgba, at);
  for (const box of clear) {
    for (let y = Math.max(0, box.y); y < Math.min(height, box.y + box.h); y++) {
      const start = (y * width + Math.max(0, box.x)) * 4;
      const end = (y * width + Math.min(width, box.x + box.w)) * 4;
      if (end > start) rgba.fill(0, start, end);
    }
  }
  const image = sharp(rgba, { raw: { width, height, channels: 4 } });
  return (alpha ? image : image.removeAlpha()).png().toBuffer();
}
