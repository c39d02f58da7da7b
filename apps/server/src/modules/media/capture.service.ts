import { randomUUID } from 'node:crypto';
import {
  boothAvailability,
  CAPTURE_COUNTDOWN_SECONDS,
  type CaptureCommandPayload,
  captureCount,
  type CaptureEntitlement,
  type CaptureResult,
  type CaptureMotionUpload,
  type CapturePrintUpload,
  DEVICE_MESSAGES,
  type DeviceErrorReport,
  isMotionKind,
  templatePrints,
  MEDIA_MAX_BYTES,
  MEDIA_MESSAGES,
  MEDIA_VIDEO_MAX_BYTES,
  recordSeconds,
  TEMPLATE_MESSAGES,
  VISIT_MESSAGES,
} from '@flashbooth/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { isDatabaseUnavailable, whileDatabaseAway } from '../../db/postgres-errors.js';
import type { CaptureRow, TemplateRow } from '../../db/schema.js';
import { AppError, notFound } from '../../errors.js';
import { paiseToRupees, toApiTimestamp } from '../../lib/time.js';
import type { AccessClaims } from '../../security/access-tokens.js';
import { assertBoothAvailable } from '../devices/booth-availability.js';
import type { DevicesRepository } from '../devices/devices.repository.js';
import type { DeviceLink } from '../mqtt/device-link.js';
import { newObjectKey, type ObjectStorage } from '../storage/storage.js';
import type { TemplatesRepository } from '../templates/templates.repository.js';
import type { UsersService } from '../users/users.service.js';
import type { DeliveryFailureRow } from '../../db/schema.js';
import type { ProviderName } from '../payments/payment-provider.js';
import {
  CaptureRunning,
  type CapturesRepository,
  CreditTooLow,
  type NewMedia,
  NEVER_DELIVERED_REASON,
  type ReleaseOptions,
  type ReleaseOutcome,
} from './captures.repository.js';
import {
  deadlineOutcome,
  DELIVERY_FAILED_REASON,
  deliveryCreditRefundId,
  deliveryRefundId,
  hours,
} from './delivery-policy.js';
import { MEDIA_UPLOAD_URL_SECONDS } from './media-items.js';
import type { MediaRepository } from './media.repository.js';

/** The foreground link only has to last until the booth has fetched it for composition. */
export const FOREGROUND_URL_SECONDS = 3600;
/**
 * The booth counts down 10 s before each photo (DESIGN.md 2b step 3); a motion capture counts
 * down once, then records.
 */
export const CAPTURE_SECONDS_PER_PHOTO = CAPTURE_COUNTDOWN_SECONDS;

/** Whether a template's capture needs photo slots: a photo always, a motion kind when it prints. */
export function needsSlots(template: Pick<TemplateRow, 'captureKind' | 'motionPrints'>): boolean {
  return templatePrints(template.captureKind, template.motionPrints);
}

/**
 * What the visitor waits for at the booth after acceptance, in ms: every photo's countdown; for a
 * motion kind the one countdown plus the recording.
 */
export function captureSessionMs(
  template: Pick<TemplateRow, 'captureKind' | 'motionFrames' | 'motionSeconds'>,
  totalCaptures: number,
): number {
  if (!isMotionKind(template.captureKind)) return totalCaptures * CAPTURE_SECONDS_PER_PHOTO * 1000;
  const recording = recordSeconds(
    template.captureKind,
    template.motionFrames,
    template.motionSeconds,
  );
  return Math.ceil((CAPTURE_SECONDS_PER_PHOTO + recording) * 1000);
}
/** How long a capture waits for a booth recorded as not idle to say what it is doing now. */
const STATUS_CHECK_TIMEOUT_MS = 1500;
/** How long a booth's acceptance waits for a restarting database before the answer goes out. */
const ACCEPT_RETRY_MS = 8000;
/** Captures the sweep closes per batch, and batches per run. */
const SWEEP_BATCH = 100;
const SWEEP_BATCHES = 10;

export interface CaptureServiceOptions {
  media: Pick<MediaRepository, 'templateOfferedBy'>;
  captures: CapturesRepository;
  devices: Pick<DevicesRepository, 'findById'>;
  templates: Pick<TemplatesRepository, 'findById' | 'imagesOf'>;
  users: UsersService;
  storage: ObjectStorage;
  link: DeviceLink;
  commandTimeoutMs: number;
  /**
   * How long after the photos' countdown a capture the booth never confirmed still counts as in
   * progress; after that, with nothing uploaded, the sweep gives it back.
   */
  deliveryMarginMs: number;
  /**
   * The delivery promise: how long after the countdown of a capture the booth took every item
   * must have arrived; otherwise it is a delivery failure (delivery-policy.ts).
   */
  deliveryDeadlineMs: number;
  /** The payment provider configured (a capture paid with another is refunded as credit). */
  providerName: ProviderName;
  now: () => Date;
  log: FastifyBaseLogger;
}

const captureFailed = (cause?: unknown) =>
  new AppError('service_unavailable', MEDIA_MESSAGES.captureFailed, { cause });

/**
 * POST devices/{id}/capture (DESIGN.md 2b and 4): entitlement, media records, the booth's capture
 * command; and giving the entitlement back (one function, `releaseEntitlement`) when the booth
 * does not take the capture, reports a failure with nothing delivered, or never delivers.
 */
export class CaptureService {
  constructor(private readonly options: CaptureServiceOptions) {}

  /**
   * GET devices/{id}/entitlement: what a capture would use now (free booth, an unused payment,
   * credit, or nothing: pay first) and whether the booth can take the visitor, read without
   * taking anything. The capture itself decides again, atomically.
   */
  async entitlement(
    claims: AccessClaims,
    deviceId: number,
    templateId: number,
  ): Promise<CaptureEntitlement> {
    const { captures, users } = this.options;
    const user = await users.caller(claims);
    const { device, template } = await this.offered(deviceId, templateId);
    const price = device.pricePaise;
    let entitlement: CaptureEntitlement['entitlement'] = null;
    if (price <= 0) entitlement = 'free';
    else if (await captures.hasUnusedPayment(user.id, device.id, template.id)) {
      entitlement = 'payment';
    } else if (user.creditsPaise >= price) entitlement = 'credit';
    return {
      entitlement,
      price_rupees: paiseToRupees(price),
      credits_rupees: paiseToRupees(user.creditsPaise),
      availability: boothAvailability(device.status),
    };
  }

  /**
   * The booth's status for a capture decision. Idle as recorded is taken as it is (the booth
   * itself still refuses a capture it cannot take, and the entitlement is then given back);
   * anything else is asked of the booth, so a recorded `uploading` from a session that just
   * ended, or an `offline` from before the booth reconnected, does not turn a visitor away. No
   * answer within the ping's time is offline.
   */
  private async currentStatus(device: { thingName: string; status: string }): Promise<string> {
    if (boothAvailability(device.status) === 'available') return device.status;
    const { link, commandTimeoutMs } = this.options;
    // The broker knows the booth is away (its last will, or a clean disconnect): no ping to wait.
    if (await link.isAway?.(device.thingName)) return 'offline';
    try {
      const reply = await link.request(
        device.thingName,
        'ping',
        {},
        Math.min(commandTimeoutMs, STATUS_CHECK_TIMEOUT_MS),
      );
      return reply.status ?? 'idle';
    } catch {
      return 'offline';
    }
  }

  /** The booth (linked) and the template it offers, with the template's photo slots. */
  private async offered(deviceId: number, templateId: number) {
    const { media, devices, templates } = this.options;
    const device = await devices.findById(deviceId);
    if (!device || device.orgId === null) throw notFound(DEVICE_MESSAGES.notFound);
    const template = await templates.findById(templateId);
    if (!template) throw notFound(TEMPLATE_MESSAGES.notFound);
    if (!(await media.templateOfferedBy(template.id, device.orgId))) {
      throw new AppError('bad_request', MEDIA_MESSAGES.templateNotOffered);
    }
    const slots = (await templates.imagesOf([template.id])).get(template.id) ?? [];
    if (slots.length === 0 && needsSlots(template)) {
      throw new AppError('bad_request', MEDIA_MESSAGES.templateEmpty);
    }
    return { device: { ...device, orgId: device.orgId }, template, slots };
  }

  async capture(
    claims: AccessClaims,
    deviceId: number,
    templateId: number,
  ): Promise<CaptureResult> {
    const { captures, users, storage, link, commandTimeoutMs, deliveryMarginMs, now, log } =
      this.options;
    const user = await users.caller(claims);
    const { device, template, slots } = await this.offered(deviceId, templateId);
    // An offline or busy booth is refused before the entitlement is touched.
    assertBoothAvailable(await this.currentStatus(device));

    // Everything that can fail without touching money is prepared first: keys, links, payload.
    const captureId = randomUUID();
    const kind = template.captureKind;
    const motion = isMotionKind(kind);
    const prints = templatePrints(kind, template.motionPrints);
    const base = {
      userId: user.id,
      deviceId: device.id,
      orgId: device.orgId,
      templateId: template.id,
      captureId,
      orientation: template.orientation,
      createdAt: now(),
    };
    const folder = `media/${user.id}`;
    // A motion capture's video first (MP4, its poster, its animated WebP, a gif's .gif), then the
    // print when the template makes one.
    const video: NewMedia | null = motion
      ? {
          ...base,
          mediaType: 'video',
          s3Key: newObjectKey(folder, 'mp4'),
          lowresKey: newObjectKey(`${folder}/lowres`, 'jpg'),
          previewKey: newObjectKey(`${folder}/preview`, 'webp'),
          gifKey: kind === 'gif' ? newObjectKey(`${folder}/gif`, 'gif') : null,
        }
      : null;
    const print: NewMedia | null = prints
      ? { ...base, mediaType: 'image', s3Key: newObjectKey(folder, 'jpg') }
      : null;
    const items = [video, print].filter((item): item is NewMedia => item !== null);
    const uploads = await Promise.all(items.map((item) => uploadLinksOf(storage, item)));
    const foregroundUrl = template.foregroundKey
      ? await storage.presignDownload(template.foregroundKey, FOREGROUND_URL_SECONDS)
      : null;
    // The stills the print needs (a motion kind picks them from its recording).
    const totalCaptures = prints ? captureCount(slots.length, template.isDuplicated) : 0;
    const photosMs = captureSessionMs(template, totalCaptures);
    const recording = recordSeconds(kind, template.motionFrames, template.motionSeconds);

    let mediaIds: number[];
    try {
      const requestedAt = now();
      mediaIds = await captures.start({
        captureId,
        userId: user.id,
        deviceId: device.id,
        templateId: template.id,
        pricePaise: device.pricePaise,
        createdAt: requestedAt,
        // Should this server stop before the booth answers, the sweep still finds the capture.
        deadlineAt: new Date(
          requestedAt.getTime() + commandTimeoutMs + photosMs + deliveryMarginMs,
        ),
        items,
        captureKind: kind,
        totalCaptures: motion ? 1 : totalCaptures,
        recordSeconds: recording,
      });
    } catch (error) {
      if (error instanceof CreditTooLow) {
        throw new AppError('payment_required', MEDIA_MESSAGES.paymentRequired);
      }
      if (error instanceof CaptureRunning) {
        throw new AppError('capture_in_progress', VISIT_MESSAGES.captureInProgress);
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
        capture_kind: kind,
        motion: motion
          ? {
              frames: template.motionFrames,
              seconds: template.motionSeconds,
              speed: template.motionSpeed,
              print: template.motionPrints,
            }
          : null,
      },
      total_captures: totalCaptures,
      uploads: mediaIds.map((mediaId, index) => ({ media_id: mediaId, ...uploads[index]! })),
    };

    try {
      await link.request(device.thingName, 'capture', payload, commandTimeoutMs);
    } catch (error) {
      // Refused or unanswered: the booth takes no photo, so the visitor keeps the entitlement.
      // The media rows stay (hidden from My Media): a booth whose acceptance came too late and
      // that uploads anyway still delivers to the visitor.
      log.warn(
        { err: error, deviceId: device.id, captureId },
        'capture not started; giving the entitlement back',
      );
      await this.releaseQuietly(captureId, 'the booth did not start the capture', {
        userId: user.id,
        pricePaise: device.pricePaise,
      });
      throw captureFailed(error);
    }
    const acceptedAt = now();
    // From acceptance the booth has the countdown plus the delivery promise to deliver.
    const accepted = await this.markAccepted(
      captureId,
      acceptedAt,
      new Date(acceptedAt.getTime() + photosMs + this.options.deliveryDeadlineMs),
    );
    // Already given back: the booth reported a failure before its acceptance reached us.
    if (!accepted) throw captureFailed();
    return {
      media_ids: mediaIds,
      // One countdown, then the recording, for a motion kind.
      total_captures: motion ? 1 : totalCaptures,
      capture_kind: kind,
      record_seconds: recording,
    };
  }

  /**
   * THE place a capture's entitlement is given back (DESIGN.md 2b step 4), once, and only if
   * none of its media arrived (the database decides, never a booth's word): the credit with a
   * 'refund' ledger row (and a paid transaction, when payments add it, in
   * `CapturesRepository.giveBack`), and the capture marked failed so its never-coming items
   * leave My Media. When something did arrive, the capture is marked delivered and nothing is
   * given back. Safe to call concurrently and repeatedly, from any server instance.
   */
  /**
   * Records the booth's acceptance. The booth is taking the photos by now, so a database that is
   * restarting is waited for (ACCEPT_RETRY_MS); should it stay away, the visitor is still told
   * the capture started: the capture stays `requested` with its first deadline, and its
   * deliveries (or the deadline sweep) settle it as for a server that stopped here.
   */
  private async markAccepted(captureId: string, at: Date, deadlineAt: Date): Promise<boolean> {
    const { captures, log } = this.options;
    try {
      return await whileDatabaseAway(
        () => captures.markAccepted(captureId, at, deadlineAt),
        ACCEPT_RETRY_MS,
      );
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      log.error(
        { err: error, captureId },
        'the booth accepted the capture but the database is away: left requested',
      );
      return true;
    }
  }

  async releaseEntitlement(
    captureId: string,
    reason: string,
    options: Omit<ReleaseOptions, 'reason' | 'at'> = {},
  ): Promise<ReleaseOutcome> {
    const outcome = await this.options.captures.release(captureId, {
      ...options,
      reason,
      at: this.options.now(),
    });
    if (outcome.outcome === 'released') {
      this.options.log.info(
        {
          captureId,
          userId: outcome.capture.userId,
          deviceId: outcome.capture.deviceId,
          refundedPaise: outcome.refundedPaise,
          reason,
        },
        'capture entitlement given back',
      );
    }
    return outcome;
  }

  private async releaseQuietly(
    captureId: string,
    reason: string,
    context: Record<string, unknown>,
  ): Promise<void> {
    try {
      await this.releaseEntitlement(captureId, reason);
    } catch (error) {
      // The capture stays open, so the sweep gives it back after its deadline.
      this.options.log.error(
        { err: error, captureId, ...context },
        'capture could not be given back now; the sweep will',
      );
    }
  }

  /**
   * A booth's error report that names a capture (DESIGN.md 2b step 4). Only that booth's own
   * captures count; its list of delivered items is only a hint (logged when it disagrees).
   */
  async releaseReported(deviceId: number, report: DeviceErrorReport): Promise<ReleaseOutcome> {
    const captureId = report.capture_id;
    if (!captureId) return { outcome: 'closed' };
    const outcome = await this.releaseEntitlement(
      captureId,
      `the booth reported: ${report.message}`.slice(0, 1000),
      { deviceId },
    );
    const claimedNone = (report.delivered_media_ids ?? []).length === 0;
    if (
      (outcome.outcome === 'released' && !claimedNone) ||
      (outcome.outcome === 'delivered' && claimedNone)
    ) {
      this.options.log.warn(
        { deviceId, captureId, delivered: report.delivered_media_ids, outcome: outcome.outcome },
        "the booth's list of delivered items disagrees with the database; the database decides",
      );
    }
    return outcome;
  }

  /**
   * What the deadline sweep would do now, one line per capture past its deadline (read only:
   * its dry run), and how many of each outcome.
   */
  async planSweep(): Promise<{ counts: Record<string, number>; plan: string[] }> {
    const due = await this.options.captures.dueSummaries(
      this.options.now(),
      SWEEP_BATCH * SWEEP_BATCHES,
    );
    const counts = { delivered: 0, givenBack: 0, deliveryFailures: 0 };
    const plan = due.map((capture) => {
      const outcome = deadlineOutcome(capture);
      const items = `${capture.delivered} of ${capture.promised} items arrived`;
      if (outcome === 'delivered') {
        counts.delivered += 1;
        return `capture ${capture.captureId}: ${items}; would be closed as delivered`;
      }
      if (outcome === 'given_back') {
        counts.givenBack += 1;
        return `capture ${capture.captureId}: never confirmed by the booth, ${items}; entitlement would be given back`;
      }
      counts.deliveryFailures += 1;
      return `capture ${capture.captureId}: ${items}; delivery failure: would be refunded and the visitor told`;
    });
    return { counts, plan };
  }

  /**
   * Closes every open capture past its deadline (delivery-policy.ts): delivered; given back when
   * the booth never confirmed it and nothing arrived; a delivery failure when the booth took it
   * and not every item arrived (refund started, error log, counted; the delivery job then sends
   * the refund and the SMS). Captures another instance is closing at the same moment are
   * skipped, and a closed capture is never closed again.
   */
  async sweepUndelivered(): Promise<{
    delivered: number;
    givenBack: number;
    deliveryFailures: number;
  }> {
    const { captures, now, log, providerName } = this.options;
    const report = { delivered: 0, givenBack: 0, deliveryFailures: 0 };
    const deadlineMinutes = Math.round(this.options.deliveryDeadlineMs / 60_000);
    for (let batch = 0; batch < SWEEP_BATCHES; batch += 1) {
      const at = now();
      const due = await captures.dueIds(at, SWEEP_BATCH);
      for (const captureId of due) {
        const closed = await captures.closeDue(captureId, {
          at,
          provider: providerName,
          decide: deadlineOutcome,
          reasons: { givenBack: NEVER_DELIVERED_REASON, deliveryFailure: DELIVERY_FAILED_REASON },
          refundIds: (id) => ({
            refundId: deliveryRefundId(id),
            creditRefundId: deliveryCreditRefundId(id),
          }),
          logMessage: (capture, outcome) =>
            outcome.kind === 'given_back'
              ? neverDeliveredMessage(capture, outcome.refundedPaise)
              : deliveryFailureMessage(capture, outcome.failure, deadlineMinutes),
        });
        if (closed.outcome === 'delivered') report.delivered += 1;
        else if (closed.outcome === 'given_back') {
          report.givenBack += 1;
          log.info(
            { captureId, refundedPaise: closed.refundedPaise },
            'capture never confirmed by the booth given back',
          );
        } else if (closed.outcome === 'delivery_failure') {
          report.deliveryFailures += 1;
          log.warn(
            {
              captureId,
              deviceId: closed.failure.deviceId,
              refund: closed.failure.refund,
              refundPaise: closed.failure.refundPaise,
              promised: closed.failure.itemsPromised,
              delivered: closed.failure.itemsDelivered,
            },
            'delivery failure: refund started',
          );
        }
      }
      if (due.length < SWEEP_BATCH) break;
    }
    return report;
  }
}

/**
 * The presigned uploads of one item, as the capture command lists them: a print's JPEG, or a
 * video's MP4 with its poster, animated WebP and (gif kind) `.gif`, each capped in size.
 */
export async function uploadLinksOf(
  storage: Pick<ObjectStorage, 'presignUpload'>,
  item: Pick<NewMedia, 'mediaType' | 's3Key' | 'lowresKey' | 'previewKey' | 'gifKey'>,
): Promise<Omit<CapturePrintUpload, 'media_id'> | Omit<CaptureMotionUpload, 'media_id'>> {
  const upload = async (key: string, type: string, maxBytes: number) =>
    (await storage.presignUpload(key, type, MEDIA_UPLOAD_URL_SECONDS, maxBytes)).url;
  if (item.mediaType === 'image') {
    return {
      upload_url: await upload(item.s3Key, 'image/jpeg', MEDIA_MAX_BYTES),
      content_type: 'image/jpeg' as const,
    };
  }
  if (!item.lowresKey || !item.previewKey)
    throw new Error('a video item needs its poster and preview keys');
  const [mp4, poster, preview, gif] = await Promise.all([
    upload(item.s3Key, 'video/mp4', MEDIA_VIDEO_MAX_BYTES),
    upload(item.lowresKey, 'image/jpeg', MEDIA_MAX_BYTES),
    upload(item.previewKey, 'image/webp', MEDIA_MAX_BYTES),
    item.gifKey ? upload(item.gifKey, 'image/gif', MEDIA_MAX_BYTES) : null,
  ]);
  return {
    upload_url: mp4,
    content_type: 'video/mp4' as const,
    poster_upload_url: poster,
    preview_upload_url: preview,
    gif_upload_url: gif,
  };
}

/** The device error log's entry for a capture the sweep gave back. */
function neverDeliveredMessage(capture: CaptureRow, refundedPaise: number): string {
  const started = capture.acceptedAt
    ? `accepted at ${toApiTimestamp(capture.acceptedAt)} UTC`
    : 'the booth never confirmed it';
  const given =
    refundedPaise > 0
      ? `₹${paiseToRupees(refundedPaise).toFixed(2)} credit given back to the visitor`
      : "the visitor's entitlement was given back";
  return `Capture ${capture.captureId} never delivered: ${started}, nothing uploaded by ${toApiTimestamp(capture.deadlineAt)} UTC; ${given}.`;
}

/** The device error log's entry for a delivery failure. */
function deliveryFailureMessage(
  capture: CaptureRow,
  failure: DeliveryFailureRow,
  deadlineMinutes: number,
): string {
  const missing = failure.itemsPromised - failure.itemsDelivered;
  const what = `${missing} of ${failure.itemsPromised} ${failure.itemsPromised === 1 ? 'item' : 'items'}`;
  const refund =
    failure.refund === 'payment'
      ? `₹${paiseToRupees(failure.refundPaise).toFixed(2)} refunded to the visitor's payment method`
      : failure.refund === 'credit' && failure.refundPaise > 0
        ? `₹${paiseToRupees(failure.refundPaise).toFixed(2)} credit given back to the visitor`
        : 'nothing to refund (free booth)';
  const started = capture.acceptedAt ? toApiTimestamp(capture.acceptedAt) : '?';
  return (
    `Capture ${capture.captureId}: delivery failure, ${what} not delivered within ${hours(deadlineMinutes)} ` +
    `(accepted ${started} UTC); ${refund}. The items may still wait in the booth's delivery queue: ` +
    "check the booth's network and power."
  );
}
