import { Readable } from 'node:stream';
import { MEDIA_MAX_BYTES, MEDIA_MESSAGES } from '@flashbooth/contracts';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { expectAppError, FakeStorage, people } from '../../../test/unit-fakes.js';
import type { MediaRow } from '../../db/schema.js';
import type { MediaChanges, MediaListRow, MediaRepository } from './media.repository.js';
import { MediaService } from './media.service.js';

const AT = new Date('2025-09-30T10:00:00Z');
const BOOTH = 5;

/** The media table: every query the visitor makes is scoped by the owner it is given. */
class FakeMedia {
  readonly rows = new Map<number, MediaListRow>();
  private nextId = 1;

  add(userId: number, values: Partial<MediaRow> = {}): MediaListRow {
    const id = this.nextId++;
    const row: MediaListRow = {
      id,
      userId,
      deviceId: BOOTH,
      orgId: 1,
      templateId: 1,
      captureId: '00000000-0000-4000-8000-000000000000',
      mediaType: 'image',
      s3Key: `media/${id}.jpg`,
      lowresKey: null,
      previewKey: null,
      gifKey: null,
      orientation: 'portrait',
      caption: null,
      isPublic: false,
      isRepostAllowed: true,
      isDownloaded: false,
      isShared: false,
      isUploaded: true,
      previewAttempts: 0,
      previewClaimedUntil: null,
      previewError: null,
      createdAt: AT,
      updatedAt: AT,
      likesCount: 0,
      publicId: `publicid${String(id).padStart(14, '0')}`,
      hiddenFromWallAt: null,
      hiddenFromWallBy: null,
      capturedAt: null,
      uploadedAt: null,
      lateAt: null,
      retentionNoticeAt: null,
      orgName: 'Sunrise Mall',
      deviceName: 'Atrium',
      userName: 'Mira',
      ...values,
    };
    this.rows.set(id, row);
    return row;
  }

  private own(userId: number) {
    return [...this.rows.values()].filter((row) => row.userId === userId);
  }
  async listOwn(userId: number) {
    return { rows: this.own(userId), total: this.own(userId).length };
  }
  async uploadedStates(userId: number, ids: number[]) {
    return this.own(userId).filter((row) => ids.includes(row.id));
  }
  async setRepostAllowed(userId: number, ids: number[], allowed: boolean) {
    const mine = this.own(userId).filter((row) => ids.includes(row.id));
    if (mine.length !== ids.length) return false;
    for (const row of mine) row.isRepostAllowed = allowed;
    return true;
  }
  async updateOwn(userId: number, id: number, changes: MediaChanges) {
    const row = this.rows.get(id);
    return row?.userId === userId ? Object.assign(row, changes) : undefined;
  }
  async findById(id: number) {
    return this.rows.get(id);
  }
  async markUploaded(id: number) {
    const row = this.rows.get(id)!;
    const changed = !row.isUploaded;
    row.isUploaded = true;
    return changed;
  }
}

function setUp() {
  const everyone = people();
  const media = new FakeMedia();
  const storage = new FakeStorage();
  const queued: number[] = [];
  const service = new MediaService({
    media: media as unknown as MediaRepository,
    users: everyone.users,
    storage,
    previews: { enqueue: (id) => queued.push(id) },
    now: () => AT,
  });
  return { ...everyone, media, storage, queued, service };
}

const patchCaption = {
  caption: 'Mine',
  is_public: undefined,
  is_downloaded: undefined,
  is_shared: undefined,
};

describe("a visitor's media: their own items only", () => {
  it('lists and reports on the caller’s items, never another visitor’s', async () => {
    const { service, media, claims, repository } = setUp();
    const other = repository.add({ pool: 'regular' });
    const mine = media.add(claims.visitor.userId);
    const theirs = media.add(other.id);
    const page = await service.list(claims.visitor, { limit: 9, offset: 0 });
    expect(page.items.map((item) => item.id)).toEqual([mine.id]);
    expect(await service.uploaded(claims.visitor, [mine.id, theirs.id])).toEqual({
      media_items: [
        {
          id: mine.id,
          is_uploaded: true,
          // No preview made yet for this item.
          lowres_s3_url: null,
          orientation: mine.orientation,
        },
      ],
    });
  });

  it('refuses to change another visitor’s item (404) and leaves it as it was', async () => {
    const { service, media, claims, repository } = setUp();
    const theirs = media.add(repository.add({ pool: 'regular' }).id);
    await expectAppError(
      service.patch(claims.visitor, theirs.id, patchCaption),
      'not_found',
      MEDIA_MESSAGES.notFound,
    );
    await expectAppError(
      service.setRepostAllowed(claims.visitor, [theirs.id], false),
      'not_found',
      MEDIA_MESSAGES.notFound,
    );
    expect(media.rows.get(theirs.id)).toMatchObject({ caption: null, isRepostAllowed: true });
    // The owner may.
    const mine = media.add(claims.visitor.userId);
    await expect(service.patch(claims.visitor, mine.id, patchCaption)).resolves.toMatchObject({
      caption: 'Mine',
    });
    // One foreign id among the caller's own refuses the whole change.
    await expectAppError(
      service.setRepostAllowed(claims.visitor, [mine.id, theirs.id], false),
      'not_found',
    );
    expect(media.rows.get(mine.id)!.isRepostAllowed).toBe(true);
  });

  it('shows an uploaded item’s HD image until its preview exists, and nothing before upload', async () => {
    const { service, media, claims } = setUp();
    const waiting = media.add(claims.visitor.userId, { isUploaded: false });
    const noPreview = media.add(claims.visitor.userId);
    const withPreview = media.add(claims.visitor.userId, { lowresKey: 'media/lowres/3.jpg' });
    const items = (await service.list(claims.visitor, { limit: 9, offset: 0 })).items;
    const urls = (id: number) => {
      const item = items.find((entry) => entry.id === id)!;
      return [item.s3_url, item.lowres_s3_url];
    };
    expect(urls(waiting.id)).toEqual([null, null]);
    expect(urls(noPreview.id)).toEqual(['/download/media/2.jpg', '/download/media/2.jpg']);
    expect(urls(withPreview.id)).toEqual(['/download/media/3.jpg', '/download/media/lowres/3.jpg']);
  });
});

describe("a booth's upload confirmation", () => {
  let jpeg: Buffer;
  beforeAll(async () => {
    jpeg = await sharp({ create: { width: 8, height: 6, channels: 3, background: '#fff' } })
      .jpeg()
      .toBuffer();
  });

  const pending = () => {
    const context = setUp();
    const row = context.media.add(context.claims.visitor.userId, { isUploaded: false });
    return { ...context, row };
  };

  it('accepts a real JPEG from the booth that took it, once, and queues its preview once', async () => {
    const { service, storage, row, queued, media } = pending();
    await storage.put(row.s3Key, jpeg, 'image/jpeg');
    await expect(service.confirmUpload(BOOTH, row.id)).resolves.toEqual({
      id: row.id,
      is_uploaded: true,
    });
    await expect(service.confirmUpload(BOOTH, row.id)).resolves.toEqual({
      id: row.id,
      is_uploaded: true,
    });
    expect(media.rows.get(row.id)!.isUploaded).toBe(true);
    expect(queued).toEqual([row.id]);
  });

  it('is not found for another booth or an unknown item', async () => {
    const { service, storage, row, queued } = pending();
    await storage.put(row.s3Key, jpeg, 'image/jpeg');
    await expectAppError(service.confirmUpload(BOOTH + 1, row.id), 'not_found');
    await expectAppError(service.confirmUpload(BOOTH, 999), 'not_found');
    expect(queued).toEqual([]);
  });

  it('waits for a file that has not arrived (409), keeping the item', async () => {
    const { service, row, storage } = pending();
    await expectAppError(
      service.confirmUpload(BOOTH, row.id),
      'conflict',
      MEDIA_MESSAGES.notUploadedYet,
    );
    expect(storage.deleted).toEqual([]);
  });

  it('deletes a file that is not a JPEG or too large, so the booth can upload again', async () => {
    const { service, row, storage, queued } = pending();
    await storage.put(row.s3Key, Buffer.from('<html>not a photo</html>'), 'image/jpeg');
    await expectAppError(
      service.confirmUpload(BOOTH, row.id),
      'unprocessable',
      MEDIA_MESSAGES.notJpeg,
    );
    // JPEG magic bytes without a header sharp can read are refused too.
    await storage.put(row.s3Key, Buffer.from([0xff, 0xd8, 0xff, 0x00, 0x01]), 'image/jpeg');
    await expectAppError(
      service.confirmUpload(BOOTH, row.id),
      'unprocessable',
      MEDIA_MESSAGES.notJpeg,
    );
    storage.open = async () => ({
      stream: Readable.from([jpeg]),
      size: MEDIA_MAX_BYTES + 1,
      contentType: 'image/jpeg',
    });
    await expectAppError(
      service.confirmUpload(BOOTH, row.id),
      'unprocessable',
      MEDIA_MESSAGES.tooLarge,
    );
    expect(storage.deleted).toEqual([row.s3Key, row.s3Key, row.s3Key]);
    expect(queued).toEqual([]);
  });
});
