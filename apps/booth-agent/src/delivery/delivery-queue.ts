import { mkdir, open, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { CaptureCommandPayload, DeviceHealth } from '@flashbooth/contracts';
import type { AgentLog } from '../log.js';
import { MOTION_FILES, type MotionEncoder } from '../motion/encoder.js';
import { clipAspect, type MotionKind } from '../motion/timeline.js';
import { utcStamp } from '../time.js';
import type { QueueFolder } from './queue-folder.js';

/**
 * An upload's progress, kept on disk so a restart neither uploads an item twice nor confirms it
 * twice: `pending` (not uploaded yet), `put` (the object store took it; the server has not
 * confirmed), `confirmed`, or `rejected` (the server refused it for good; kept aside).
 */
export type UploadState = 'pending' | 'put' | 'confirmed' | 'rejected';

export interface QueuedUpload {
  media_id: number;
  upload_url: string;
  /** image/jpeg: the print; video/mp4: a motion item (its MP4 goes to `upload_url`). */
  content_type: string;
  /** When `upload_url` stops working, when known (ISO-8601 UTC). */
  expires_at: string | null;
  state: UploadState;
  /** A motion item's other links: its poster JPEG, animated WebP and (gif kind) .gif. */
  poster_upload_url?: string;
  preview_upload_url?: string;
  gif_upload_url?: string | null;
  /**
   * A motion item's files the object store already took (while `pending`): after a restart only
   * the others are sent. Cleared when the item goes back to `pending`.
   */
  puts?: MotionPart[];
}

/** The files of a motion item, each PUT to its own link. */
export type MotionPart = 'video' | 'poster' | 'preview' | 'gif';

export const MOTION_PART_TYPES: Record<MotionPart, string> = {
  video: 'video/mp4',
  poster: 'image/jpeg',
  preview: 'image/webp',
  gif: 'image/gif',
};

export const VIDEO_CONTENT_TYPE = 'video/mp4';

/**
 * Where a capture is: `capturing` (accepted; photos or frames being taken), `recorded` (a motion
 * capture's frames are all on disk), `composed` (the print is on disk; printing), `queued`
 * (printed, or a motion capture without a print: its uploads may go).
 */
export type CaptureStage = 'capturing' | 'recorded' | 'composed' | 'queued';

/** capture.json, one per capture folder. */
export interface CaptureManifest {
  format: typeof MANIFEST_FORMAT;
  capture_id: string;
  /** When the booth accepted the capture (ISO-8601 UTC). */
  accepted_at: string;
  /** When the last photo was taken (ISO-8601 UTC); the server measures delivery from it. */
  captured_at: string | null;
  stage: CaptureStage;
  /** The capture command without its foreground link (the foreground is saved beside). */
  template: Omit<CaptureCommandPayload['template'], 'foreground_url'>;
  has_foreground: boolean;
  total_captures: number;
  uploads: QueuedUpload[];
  /** A motion capture's recorded frames, relative to its folder, once all are on disk. */
  frames?: string[];
  /** The rate they were recorded at. */
  frames_fps?: number;
  /** The motion item's files (MOTION_FILES) are all in the folder. */
  encoded?: boolean;
}

const MANIFEST_FORMAT = 1;
export const MANIFEST_FILE = 'capture.json';
export const FOREGROUND_FILE = 'foreground.png';
export const PRINT_FILE = 'print.jpg';
export const photoFile = (index: number) => `photo-${index + 1}.img`;
export const FRAMES_DIR = 'frames';

/** The capture kind a manifest (or a command's template) records; older ones are photos. */
export function captureKindOf(template: { capture_kind?: string }): 'photo' | MotionKind {
  const kind = template.capture_kind;
  return kind === 'gif' || kind === 'boomerang' || kind === 'video' ? kind : 'photo';
}

/** One waiting upload, oldest capture first. */
export interface QueueItem {
  captureId: string;
  upload: Readonly<QueuedUpload>;
  capturedAt: string | null;
  /** Loaded from disk at start-up (it may have been uploaded before the restart). */
  recovered: boolean;
}

interface Entry {
  name: string;
  manifest: CaptureManifest;
  bytes: number;
  recovered: boolean;
  /** The entry's manifest writes, one after another. */
  writing: Promise<void>;
}

export interface DeliveryQueueOptions {
  folder: QueueFolder;
  /** Waiting items beyond which the status says `over_limit` (BOOTH_QUEUE_WARN_ITEMS). */
  warnItems: number;
  log: AgentLog;
}

/** What changed: a capture's items became deliverable, or the last waiting item went. */
export type QueueChange = 'added' | 'drained' | 'delivered';

/**
 * The booth's delivery queue (docs/delivery-queue.md): every capture's photos, foreground and
 * composed print, with the state of each of its uploads, in one folder per capture, written
 * before the booth reports the capture done and deleted only once the server has confirmed
 * every upload. Captures are kept in the order they were accepted (their folder names sort so).
 */
export class DeliveryQueue {
  private readonly entries = new Map<string, Entry>();
  private readonly listeners = new Set<(change: QueueChange) => void>();
  /** The encoding in progress: one at a time, whoever asks. */
  private encoding: Promise<void> = Promise.resolve();

  constructor(private readonly options: DeliveryQueueOptions) {}

  get dir(): string | undefined {
    return this.options.folder.dir;
  }

  onChange(listener: (change: QueueChange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit(change: QueueChange): void {
    for (const listener of this.listeners) listener(change);
  }

  /**
   * Reads the queue folder (once, at start-up). An entry whose manifest cannot be read is set
   * aside and logged. Returns the manifests found, oldest first.
   */
  async load(): Promise<CaptureManifest[]> {
    const { folder, log } = this.options;
    const names = (await folder.list()).sort();
    for (const name of names) {
      let manifest: CaptureManifest | string;
      try {
        const text = await folder.read(name, MANIFEST_FILE);
        manifest = text ? parseManifest(JSON.parse(text.toString('utf8'))) : 'no capture.json';
      } catch (error) {
        manifest = `unreadable capture.json (${(error as Error).message})`;
      }
      if (typeof manifest === 'string') {
        log.error(
          { entry: name, problem: manifest },
          'a delivery queue entry is corrupt: set aside',
        );
        await folder.setAside(name).catch(() => undefined);
        continue;
      }
      const open = manifest.uploads.some((u) => u.state === 'pending' || u.state === 'put');
      if (manifest.stage === 'queued' && !open) {
        // Every item settled, but the folder outlived its deletion (a crash, a failed delete).
        const rejected = manifest.uploads.some((u) => u.state === 'rejected');
        await (rejected ? folder.setAside(name) : folder.remove(name));
        continue;
      }
      const files = await folder.files(name);
      this.entries.set(manifest.capture_id, {
        name,
        manifest,
        bytes: files.reduce((sum, file) => sum + file.size, 0),
        recovered: true,
        writing: Promise.resolve(),
      });
    }
    const manifests = [...this.entries.values()].map((entry) => entry.manifest);
    if (manifests.length > 0) {
      log.info(
        { captures: manifests.length, items: this.stats().items, dir: this.dir },
        'delivery queue read: resuming',
      );
    }
    return manifests;
  }

  /** A capture just accepted: its folder with the command and the foreground. */
  async open(payload: CaptureCommandPayload, foreground: Buffer | null, at: Date): Promise<void> {
    const template: Partial<CaptureCommandPayload['template']> = { ...payload.template };
    delete template.foreground_url;
    const manifest: CaptureManifest = {
      format: MANIFEST_FORMAT,
      capture_id: payload.capture_id,
      accepted_at: at.toISOString(),
      captured_at: null,
      stage: 'capturing',
      template: template as CaptureManifest['template'],
      has_foreground: foreground !== null,
      total_captures: payload.total_captures,
      uploads: payload.uploads.map((upload): QueuedUpload => {
        const queued: QueuedUpload = {
          media_id: upload.media_id,
          upload_url: upload.upload_url,
          content_type: upload.content_type,
          expires_at: linkExpiry(upload.upload_url)?.toISOString() ?? null,
          state: 'pending',
        };
        if (upload.content_type === VIDEO_CONTENT_TYPE) {
          queued.poster_upload_url = upload.poster_upload_url;
          queued.preview_upload_url = upload.preview_upload_url;
          queued.gif_upload_url = upload.gif_upload_url;
          queued.puts = [];
        }
        return queued;
      }),
    };
    // Sorts in acceptance order; the capture id keeps names unique.
    const name = `${at.toISOString().replace(/[-:.]/g, '')}-${payload.capture_id}`;
    const files = new Map<string, Buffer>([[MANIFEST_FILE, manifestBytes(manifest)]]);
    if (foreground) files.set(FOREGROUND_FILE, foreground);
    await this.options.folder.create(name, files);
    let bytes = 0;
    for (const data of files.values()) bytes += data.length;
    this.entries.set(payload.capture_id, {
      name,
      manifest,
      bytes,
      recovered: false,
      writing: Promise.resolve(),
    });
  }

  manifest(captureId: string): Readonly<CaptureManifest> | undefined {
    return this.entries.get(captureId)?.manifest;
  }

  async addPhoto(captureId: string, index: number, photo: Buffer): Promise<void> {
    await this.writeFile(captureId, photoFile(index), photo);
  }

  /** The photos saved so far, in order, stopping at the first missing one. */
  async photos(captureId: string): Promise<Buffer[]> {
    const entry = this.entry(captureId);
    const photos: Buffer[] = [];
    for (let index = 0; index < entry.manifest.total_captures; index += 1) {
      const photo = await this.options.folder.read(entry.name, photoFile(index));
      if (!photo) break;
      photos.push(photo);
    }
    return photos;
  }

  async foreground(captureId: string): Promise<Buffer | null> {
    const entry = this.entry(captureId);
    if (!entry.manifest.has_foreground) return null;
    const data = await this.options.folder.read(entry.name, FOREGROUND_FILE);
    if (!data) throw new Error(`the foreground of capture ${captureId} is missing from its queue`);
    return data;
  }

  async print(captureId: string): Promise<Buffer> {
    const entry = this.entry(captureId);
    const data = await this.options.folder.read(entry.name, PRINT_FILE);
    if (!data) throw new Error(`the print of capture ${captureId} is missing from its queue`);
    return data;
  }

  /**
   * A folder on disk for the files programs write themselves (a motion capture's frames and its
   * encoded files): the capture's own folder when the queue is on disk.
   */
  async workDir(captureId: string): Promise<string> {
    return this.options.folder.path(this.entry(captureId).name);
  }

  /** The (new, empty) folder a camera records a motion capture's frames into. */
  async framesDir(captureId: string): Promise<string> {
    const dir = path.join(await this.workDir(captureId), FRAMES_DIR);
    await mkdir(dir, { recursive: true });
    return dir;
  }

  /**
   * A motion capture's frames are all taken: made durable (each file and the folder fsync'd),
   * then recorded in the manifest with the rate they were taken at and when the last was.
   */
  async recorded(captureId: string, frames: readonly string[], fps: number, capturedAt: Date) {
    const base = await this.workDir(captureId);
    for (const frame of frames) await syncPath(frame);
    if (frames[0]) await syncPath(path.dirname(frames[0]));
    const entry = this.entry(captureId);
    for (const frame of frames) entry.bytes += (await sizeOf(frame)) ?? 0;
    await this.update(captureId, (manifest) => {
      manifest.stage = 'recorded';
      manifest.frames = frames.map((frame) => path.relative(base, frame));
      manifest.frames_fps = fps;
      manifest.captured_at = capturedAt.toISOString();
    });
  }

  /** A motion capture's frame files, in order (none before they are all taken). */
  async motionFrames(captureId: string): Promise<string[]> {
    const base = await this.workDir(captureId);
    return (this.entry(captureId).manifest.frames ?? []).map((frame) => path.join(base, frame));
  }

  /**
   * Makes a motion capture's MP4, poster, preview and (gif kind) .gif from its frames, once:
   * an encoding a restart cut short is made again from the start (its half-written files are
   * temporary ones, cleared), and the manifest says `encoded` only once every file is in place.
   * One encoding at a time.
   */
  async encode(captureId: string, encoder: MotionEncoder): Promise<void> {
    const run = this.encoding.then(() => this.encodeNow(captureId, encoder));
    this.encoding = run.catch(() => undefined);
    await run;
  }

  private async encodeNow(captureId: string, encoder: MotionEncoder): Promise<void> {
    const entry = this.entry(captureId);
    const { manifest } = entry;
    if (manifest.encoded) return;
    const kind = captureKindOf(manifest.template);
    const motion = (manifest.template as { motion?: { speed?: number } | null }).motion;
    if (kind === 'photo' || !manifest.frames?.length) {
      throw new Error(`capture ${captureId} has no recorded frames to encode`);
    }
    const started = performance.now();
    const result = await encoder.encode({
      kind,
      speed: motion?.speed ?? 1,
      frames: await this.motionFrames(captureId),
      fps: manifest.frames_fps ?? 30,
      foreground: await this.foreground(captureId),
      // Framed by the template's slot, as its print's photo is.
      aspect: clipAspect(manifest.template),
      outDir: await this.workDir(captureId),
      gif: kind === 'gif',
    });
    for (const file of [result.video, result.poster, result.preview, result.gif]) {
      if (file) entry.bytes += (await sizeOf(file)) ?? 0;
    }
    await this.update(captureId, (changed) => {
      changed.encoded = true;
    });
    this.options.log.info(
      {
        captureId,
        kind,
        ms: Math.round(performance.now() - started),
        parts: result.ms,
        seconds: result.seconds,
        size: `${result.width}x${result.height}`,
      },
      'motion encoded',
    );
  }

  /** One encoded file of a motion capture. */
  async motionFile(captureId: string, part: MotionPart): Promise<Buffer> {
    const name = MOTION_FILES[part];
    return readFile(path.join(await this.workDir(captureId), name)).catch((error: unknown) => {
      throw new Error(`the ${part} of capture ${captureId} is missing from its queue`, {
        cause: error,
      });
    });
  }

  /** Whether a capture's motion item is encoded. */
  isEncoded(captureId: string): boolean {
    return this.entries.get(captureId)?.manifest.encoded === true;
  }

  /** The composed print is on disk (before it is printed); `capturedAt`: the last photo's time. */
  async composed(captureId: string, print: Buffer, capturedAt: Date): Promise<void> {
    await this.writeFile(captureId, PRINT_FILE, print);
    await this.update(captureId, (manifest) => {
      manifest.stage = 'composed';
      manifest.captured_at = capturedAt.toISOString();
    });
  }

  /** Printed (or recovered after a restart): the capture's uploads may go. */
  async release(captureId: string): Promise<void> {
    try {
      await this.update(captureId, (manifest) => {
        manifest.stage = 'queued';
      });
    } catch (error) {
      // Queued in memory all the same; after a restart it is recovered from its files.
      this.options.log.error({ err: error, captureId }, 'could not save a capture as queued');
    }
    this.emit('added');
  }

  /** A capture that cannot be delivered, moved out of the queue whole for a technician. */
  async setAside(captureId: string): Promise<void> {
    const entry = this.entries.get(captureId);
    if (!entry) return;
    this.entries.delete(captureId);
    await entry.writing;
    await this.options.folder.setAside(entry.name);
  }

  /** A capture that failed before it was queued: nothing of it is delivered. */
  async discard(captureId: string): Promise<void> {
    const entry = this.entries.get(captureId);
    if (!entry) return;
    this.entries.delete(captureId);
    await entry.writing;
    await this.options.folder.remove(entry.name);
  }

  /**
   * The oldest waiting upload of a queued capture that `skip` does not exclude (the worker
   * skips items waiting for their own retry).
   */
  next(skip: (mediaId: number) => boolean = () => false): QueueItem | undefined {
    const ordered = [...this.entries.values()].sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const entry of ordered) {
      if (entry.manifest.stage !== 'queued') continue;
      for (const upload of entry.manifest.uploads) {
        if (upload.state !== 'pending' && upload.state !== 'put') continue;
        if (skip(upload.media_id)) continue;
        return {
          captureId: entry.manifest.capture_id,
          upload: { ...upload },
          capturedAt: entry.manifest.captured_at,
          recovered: entry.recovered,
        };
      }
    }
    return undefined;
  }

  /** A fresh upload link for an item whose link expired or was refused. */
  async relink(
    captureId: string,
    mediaId: number,
    link: {
      upload_url: string;
      content_type: string;
      expires_at: string | null;
      poster_upload_url?: string;
      preview_upload_url?: string;
      gif_upload_url?: string | null;
    },
  ): Promise<void> {
    await this.updateUpload(captureId, mediaId, (upload) => Object.assign(upload, link));
  }

  /** Back to `pending`: the server no longer has the object (it refused the file). */
  async markPending(captureId: string, mediaId: number): Promise<void> {
    await this.updateUpload(captureId, mediaId, (upload) => {
      upload.state = 'pending';
      if (upload.puts) upload.puts = [];
    });
  }

  /** One file of a motion item reached the object store (the item stays `pending`). */
  async markPartPut(captureId: string, mediaId: number, part: MotionPart): Promise<void> {
    await this.updateUpload(captureId, mediaId, (upload) => {
      const puts = new Set(upload.puts ?? []);
      puts.add(part);
      upload.puts = [...puts];
    });
  }

  async markPut(captureId: string, mediaId: number): Promise<void> {
    await this.updateUpload(captureId, mediaId, (upload) => {
      upload.state = 'put';
    });
  }

  async markConfirmed(captureId: string, mediaId: number): Promise<void> {
    await this.settle(captureId, mediaId, 'confirmed');
    this.emit(this.stats().items === 0 ? 'drained' : 'delivered');
  }

  /** Refused for good: the capture's folder is set aside (not deleted) once nothing else waits. */
  async markRejected(captureId: string, mediaId: number): Promise<void> {
    await this.settle(captureId, mediaId, 'rejected');
    if (this.stats().items === 0) this.emit('drained');
  }

  /** Media ids of a capture's items the server confirmed. */
  confirmedOf(captureId: string): number[] {
    const entry = this.entries.get(captureId);
    return (entry?.manifest.uploads ?? [])
      .filter((upload) => upload.state === 'confirmed')
      .map((upload) => upload.media_id);
  }

  /** What the status reports (DeviceHealth.queue). */
  stats(): NonNullable<DeviceHealth['queue']> {
    let items = 0;
    let bytes = 0;
    let oldest: string | undefined;
    for (const entry of this.entries.values()) {
      const waiting = entry.manifest.uploads.filter(
        (upload) => upload.state === 'pending' || upload.state === 'put',
      ).length;
      if (waiting === 0) continue;
      items += waiting;
      bytes += entry.bytes;
      const at = entry.manifest.captured_at ?? entry.manifest.accepted_at;
      if (oldest === undefined || at < oldest) oldest = at;
    }
    return {
      items,
      bytes,
      oldest_at: oldest ? utcStamp(new Date(oldest)) : null,
      over_limit: items > this.options.warnItems,
    };
  }

  private entry(captureId: string): Entry {
    const entry = this.entries.get(captureId);
    if (!entry) throw new Error(`capture ${captureId} is not in the delivery queue`);
    return entry;
  }

  private async writeFile(captureId: string, file: string, data: Buffer): Promise<void> {
    const entry = this.entry(captureId);
    await this.options.folder.write(entry.name, file, data);
    entry.bytes += data.length;
  }

  private async settle(captureId: string, mediaId: number, state: UploadState): Promise<void> {
    await this.updateUpload(captureId, mediaId, (upload) => {
      upload.state = state;
    });
    const entry = this.entries.get(captureId);
    if (!entry) return;
    const open = entry.manifest.uploads.some(
      (upload) => upload.state === 'pending' || upload.state === 'put',
    );
    if (open) return;
    this.entries.delete(captureId);
    await entry.writing;
    const rejected = entry.manifest.uploads.some((upload) => upload.state === 'rejected');
    if (rejected) await this.options.folder.setAside(entry.name);
    else await this.options.folder.remove(entry.name);
  }

  private async updateUpload(
    captureId: string,
    mediaId: number,
    change: (upload: QueuedUpload) => void,
  ): Promise<void> {
    await this.update(captureId, (manifest) => {
      const upload = manifest.uploads.find((item) => item.media_id === mediaId);
      if (!upload) throw new Error(`media ${mediaId} is not part of capture ${captureId}`);
      change(upload);
    });
  }

  /** Changes the manifest and writes it (atomically, after the entry's earlier writes). */
  private async update(captureId: string, change: (manifest: CaptureManifest) => void) {
    const entry = this.entry(captureId);
    change(entry.manifest);
    const bytes = manifestBytes(entry.manifest);
    const write = entry.writing.then(() =>
      this.options.folder.write(entry.name, MANIFEST_FILE, bytes),
    );
    entry.writing = write.catch(() => undefined);
    await write;
  }
}

function manifestBytes(manifest: CaptureManifest): Buffer {
  return Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
}

const UPLOAD_STATES: readonly string[] = ['pending', 'put', 'confirmed', 'rejected'];
const STAGES: readonly string[] = ['capturing', 'recorded', 'composed', 'queued'];

/** fsync of a file or folder. */
async function syncPath(file: string): Promise<void> {
  const handle = await open(file, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function sizeOf(file: string): Promise<number | undefined> {
  return stat(file).then(
    (found) => found.size,
    () => undefined,
  );
}

/** The manifest in `json`, or why it is not one. */
export function parseManifest(json: unknown): CaptureManifest | string {
  if (typeof json !== 'object' || json === null) return 'not an object';
  const data = json as Partial<CaptureManifest>;
  if (data.format !== MANIFEST_FORMAT) return `unknown format ${JSON.stringify(data.format)}`;
  if (typeof data.capture_id !== 'string' || !data.capture_id) return 'capture_id is missing';
  if (typeof data.stage !== 'string' || !STAGES.includes(data.stage)) return 'bad stage';
  if (typeof data.template !== 'object' || data.template === null) return 'template is missing';
  if (!Number.isInteger(data.total_captures)) return 'total_captures is missing';
  if (!Array.isArray(data.uploads)) return 'uploads is missing';
  for (const upload of data.uploads as Partial<QueuedUpload>[]) {
    if (!Number.isInteger(upload.media_id) || typeof upload.upload_url !== 'string') {
      return 'an upload has no media_id or upload_url';
    }
    if (typeof upload.state !== 'string' || !UPLOAD_STATES.includes(upload.state)) {
      return `media ${upload.media_id} has a bad state`;
    }
    if (
      upload.content_type === VIDEO_CONTENT_TYPE &&
      (typeof upload.poster_upload_url !== 'string' ||
        typeof upload.preview_upload_url !== 'string')
    ) {
      return `media ${upload.media_id} is a video without its poster and preview links`;
    }
  }
  if (data.frames !== undefined && !Array.isArray(data.frames)) return 'frames is not a list';
  return data as CaptureManifest;
}

/**
 * When a presigned link stops working, read from the link itself when it says: the local object
 * store's `expires` (Unix seconds), or S3's `X-Amz-Date` plus `X-Amz-Expires`.
 */
export function linkExpiry(url: string): Date | undefined {
  let query: URLSearchParams;
  try {
    query = new URL(url, 'http://relative.invalid').searchParams;
  } catch {
    return undefined;
  }
  const expires = Number(query.get('expires'));
  if (query.has('expires') && Number.isFinite(expires) && expires > 0) {
    return new Date(expires * 1000);
  }
  const amzDate = /^(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)Z$/.exec(query.get('X-Amz-Date') ?? '');
  const amzExpires = Number(query.get('X-Amz-Expires'));
  if (amzDate && Number.isFinite(amzExpires)) {
    const [, y, mo, d, h, mi, s] = amzDate.map(Number) as number[];
    return new Date(Date.UTC(y!, mo! - 1, d!, h!, mi!, s!) + amzExpires * 1000);
  }
  return undefined;
}
