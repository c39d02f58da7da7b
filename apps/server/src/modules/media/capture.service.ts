import { randomUUID } from 'node:crypto';
import {
  type CaptureCommandPayload,
  captureCount,
  type CaptureResult,
  DEVICE_MESSAGES,
  MEDIA_MAX_BYTES,
  MEDIA_MESSAGES,
  TEMPLATE_MESSAGES,
} from '@flashbooth/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { AppError, notFound } from '../../errors.js';
import type { AccessClaims } from '../auth/access-tokens.js';
import type { DevicesRepository } from '../devices/devices.repository.js';
import type { DeviceLink } from '../mqtt/device-link.js';
import { newObjectKey, type ObjectStorage } from '../storage/storage.js';
import type { TemplatesRepository } from '../templates/templates.repository.js';
import type { UsersService } from '../users/users.service.js';
import { CreditTooLow, type MediaRepository } from './media.repository.js';

/**
 * Upload links for the booth live a day: it uploads after the countdown, composition and print,
 * possibly over a poor venue network, and may retry a broken upload with the same link.
 */
export const MEDIA_UPLOAD_URL_SECONDS = 24 * 3600;
/** The foreground link only has to last until the booth has fetched it for composition. */
export const FOREGROUND_URL_SECONDS = 3600;

export interface CaptureServiceOptions {
  media: MediaRepository;
  devices: Pick<DevicesRepository, 'findById'>;
  templates: Pick<TemplatesRepository, 'findById' | 'imagesOf'>;
  users: UsersService;
  storage: ObjectStorage;
  link: DeviceLink;
  commandTimeoutMs: number;
  now: () => Date;
  log: FastifyBaseLogger;
}

const captureFailed = (cause?: unknown) =>
  new AppError('service_unavailable', MEDIA_MESSAGES.captureFailed, { cause });

/**
 * POST devices/{id}/capture (DESIGN.md 2b and 4): entitlement, media records, the booth's capture
 * command, and the undo when the booth does not take it.
 */
export class CaptureService {
  constructor(private readonly options: CaptureServiceOptions) {}

  async capture(
    claims: AccessClaims,
    deviceId: number,
    templateId: number,
  ): Promise<CaptureResult> {
    const { media, devices, templates, users, storage, link, commandTimeoutMs, now, log } =
      this.options;
    const user = await users.caller(claims);
    const device = await devices.findById(deviceId);
    if (!device || device.orgId === null) throw notFound(DEVICE_MESSAGES.notFound);
    const template = await templates.findById(templateId);
    if (!template) throw notFound(TEMPLATE_MESSAGES.notFound);
    if (!(await media.templateOfferedBy(template.id, device.orgId))) {
      throw new AppError('bad_request', MEDIA_MESSAGES.templateNotOffered);
    }
    const slots = (await templates.imagesOf([template.id])).get(template.id) ?? [];
    if (slots.length === 0) throw new AppError('bad_request', MEDIA_MESSAGES.templateEmpty);

    // Everything that can fail without touching money is prepared first: keys, links, payload.
    const captureId = randomUUID();
    const items = [
      {
        userId: user.id,
        deviceId: device.id,
        orgId: device.orgId,
        templateId: template.id,
        captureId,
        mediaType: 'image' as const,
        s3Key: newObjectKey(`media/${user.id}`, 'jpg'),
        orientation: template.orientation,
        createdAt: now(),
      },
    ];
    const uploadUrls = await Promise.all(
      items.map((item) =>
        storage.presignUpload(item.s3Key, 'image/jpeg', MEDIA_UPLOAD_URL_SECONDS, MEDIA_MAX_BYTES),
      ),
    );
    const foregroundUrl = template.foregroundKey
      ? await storage.presignDownload(template.foregroundKey, FOREGROUND_URL_SECONDS)
      : null;
    const totalCaptures = captureCount(slots.length, template.isDuplicated);

    let mediaIds: number[];
    try {
      mediaIds = await media.startCapture(device.pricePaise, items);
    } catch (error) {
      if (error instanceof CreditTooLow) {
        throw new AppError('payment_required', MEDIA_MESSAGES.paymentRequired);
      }
      throw error;
    }

    const payload: CaptureCommandPayload = {
      capture_id: captureId,
      template: {
        id: template.id,
        name: template.name,
        orientation: template.orientation,
        is_cut: template.isCut,
        is_duplicated: template.isDuplicated,
        images: slots.map(({ x, y, w, h, filter }) => ({ x, y, w, h, filter })),
        foreground_url: foregroundUrl,
      },
      total_captures: totalCaptures,
      uploads: mediaIds.map((mediaId, index) => ({
        media_id: mediaId,
        upload_url: uploadUrls[index]!.url,
        content_type: 'image/jpeg',
      })),
    };

    try {
      await link.request(device.thingName, 'capture', payload, commandTimeoutMs);
    } catch (error) {
      // Refused or unanswered: the booth takes no photo, so the visitor keeps the entitlement.
      log.warn(
        { err: error, deviceId: device.id, captureId },
        'capture not started; undoing the charge',
      );
      try {
        await media.cancelCapture(user.id, captureId);
      } catch (undoError) {
        log.error(
          { err: undoError, userId: user.id, captureId, pricePaise: device.pricePaise },
          'capture could not be undone: refund by hand',
        );
      }
      throw captureFailed(error);
    }
    return { media_ids: mediaIds, total_captures: totalCaptures };
  }
}
