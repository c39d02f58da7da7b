import {
  TEMPLATE_PREVIEW_MESSAGES,
  captureCount,
  type TemplatePreviewRequest,
} from '@flashbooth/contracts';
import { composePrint, samplePhoto } from '@flashbooth/print-composition';
import type { FastifyBaseLogger } from 'fastify';
import { AppError } from '../../errors.js';
import type { AccessClaims } from '../../security/access-tokens.js';
import type { ObjectStorage } from '../storage/storage.js';
import type { TemplatesRepository } from './templates.repository.js';
import type { TemplatesService } from './templates.service.js';

export interface TemplatePreviewOptions {
  /** Reading the template checks the caller may view it (every signed-in staff member). */
  templates: Pick<TemplatesService, 'get'>;
  /** The stored foreground's key (the DTO only carries a download URL). */
  repository: Pick<TemplatesRepository, 'findById'>;
  storage: Pick<ObjectStorage, 'get'>;
  log: FastifyBaseLogger;
  /** Previews composed at once on this instance; more wait, and past `maxWaiting` are refused. */
  maxRunning?: number;
  maxWaiting?: number;
}

/** JPEG quality of the preview: the print's composition, a lighter file for the browser. */
const PREVIEW_QUALITY = 80;
/** The sample photos carry a fixed time stamp, so the same draft always gives the same image. */
const SAMPLE_TAKEN_AT = new Date('2025-01-01T12:00:00Z');

/**
 * The true print preview (beyond the spec): the template's draft composed with sample photos by
 * the booth's own composition code (`@flashbooth/print-composition`), on the stored foreground.
 * Composing a 3600×2400 print is CPU work on libuv's pool, so at most `maxRunning` run at once.
 */
export class TemplatePreviewService {
  private readonly photos = new Map<number, Promise<Buffer>>();
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly options: TemplatePreviewOptions) {}

  /** Sample photo `index` (0-based), rendered once per process. */
  private photo(index: number): Promise<Buffer> {
    let photo = this.photos.get(index);
    if (!photo) {
      photo = samplePhoto(index, { takenAt: SAMPLE_TAKEN_AT });
      photo.catch(() => this.photos.delete(index));
      this.photos.set(index, photo);
    }
    return photo;
  }

  private async slot<T>(work: () => Promise<T>): Promise<T> {
    const { maxRunning = 2, maxWaiting = 8 } = this.options;
    if (this.running >= maxRunning) {
      if (this.waiting.length >= maxWaiting) {
        throw new AppError('rate_limited', TEMPLATE_PREVIEW_MESSAGES.busy);
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
    this.running += 1;
    try {
      return await work();
    } finally {
      this.running -= 1;
      this.waiting.shift()?.();
    }
  }

  async preview(claims: AccessClaims, id: number, draft: TemplatePreviewRequest): Promise<Buffer> {
    await this.options.templates.get(claims, id);
    const row = await this.options.repository.findById(id);
    const foreground = row?.foregroundKey
      ? ((await this.options.storage.get(row.foregroundKey))?.body ?? null)
      : null;
    const needed = captureCount(draft.images.length, draft.is_duplicated);
    return this.slot(async () => {
      const photos = await Promise.all(Array.from({ length: needed }, (_, i) => this.photo(i)));
      try {
        return await composePrint(
          {
            id,
            name: row?.name ?? '',
            orientation: draft.orientation,
            is_cut: draft.is_cut,
            is_duplicated: draft.is_duplicated,
            images: draft.images,
            foreground,
          },
          photos,
          { quality: PREVIEW_QUALITY },
        );
      } catch (error) {
        // A foreground the image library cannot read, say: the staff member gets a 422, not a 500.
        this.options.log.warn({ err: error, templateId: id }, 'print preview failed');
        throw new AppError('unprocessable', TEMPLATE_PREVIEW_MESSAGES.failed, { cause: error });
      }
    });
  }
}
