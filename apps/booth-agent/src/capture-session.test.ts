import { randomUUID } from 'node:crypto';
import { type CaptureCommandPayload, PRINTS_LEFT_WARNING } from '@flashbooth/contracts';
import { LAYOUTS } from '@flashbooth/print-composition';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import {
  commandMessage,
  FakeChannel,
  FIXED_NOW,
  linkTo,
  memoryStore,
  recordingLog,
  recordingReply,
} from '../test/fakes.js';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type Camera, frameName, requestedFrames } from './camera/camera.js';
import { SimulatedCamera } from './camera/simulated-camera.js';
import { CaptureSession, QUEUE_REFUSAL } from './capture-session.js';
import { DeliveryQueue, PRINT_FILE } from './delivery/delivery-queue.js';
import { MemoryQueueFolder } from './delivery/queue-folder.js';
import type { PrintJob } from './printer/printer.js';
import { BOOTH_MESSAGES } from './replies.js';
import { ReportOutbox } from './report-outbox.js';
import { StatusBoard } from './status.js';

/** Lets what the session does in the background (reports, the last status) go out. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

function payload(mediaIds: number[] = [101]): CaptureCommandPayload {
  return {
    capture_id: randomUUID(),
    template: {
      id: 11,
      name: 'One up',
      orientation: 'landscape',
      is_cut: true,
      is_duplicated: false,
      images: LAYOUTS.landscape1.images.map((slot) => ({ ...slot })),
      foreground_url: '/foreground.png',
      capture_kind: 'photo',
      motion: null,
    },
    total_captures: 1,
    uploads: mediaIds.map((id) => ({
      media_id: id,
      upload_url: `/upload/${id}?sig=x`,
      content_type: 'image/jpeg' as const,
    })),
  };
}

/** A session with in-memory state, a recording channel, printer and transfers. */
async function setup(options: { printsLeft?: number; printError?: Error; camera?: Camera } = {}) {
  const clock = { now: FIXED_NOW };
  const now = () => clock.now;
  const log = recordingLog();
  const channel = new FakeChannel();
  const link = linkTo(channel);
  const store = memoryStore({ prints_left: options.printsLeft ?? 300 });
  const board = new StatusBoard({ link, store, now, log });
  board.online();
  const outbox = new ReportOutbox({ link, store, now, log });
  const foreground = await sharp({
    create: { width: 36, height: 24, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } },
  })
    .png()
    .toBuffer();
  const jobs: PrintJob[] = [];
  const transfers = {
    /** Runs while the foreground "downloads". */
    onDownload: (): void | Promise<void> => undefined,
    async download(url: string): Promise<Buffer> {
      await transfers.onDownload();
      if (url !== '/foreground.png') throw new Error('GET foreground: HTTP 404');
      return foreground;
    },
  };
  const folder = new MemoryQueueFolder();
  const queue = new DeliveryQueue({ folder, warnItems: 10, log });
  const added: string[] = [];
  queue.onChange((change) => added.push(change));
  const cameraResults: unknown[] = [];
  const session = new CaptureSession({
    thingName: 'fb-test',
    camera: options.camera ?? new SimulatedCamera({ width: 300, height: 200 }),
    printer: {
      print: async (job) => {
        if (options.printError) throw options.printError;
        jobs.push(job);
        return { jobId: `job-${jobs.length}` };
      },
    },
    countdownMs: 0,
    board,
    store,
    outbox,
    transfers,
    queue,
    onCameraResult: (error) => cameraResults.push(error),
    now,
    log,
  });
  const run = async (body: CaptureCommandPayload | Record<string, unknown>, expiresAt?: string) => {
    const { bodies, reply } = recordingReply();
    const command = commandMessage('capture', body as Record<string, unknown>, {
      expires_at: expiresAt ?? new Date(FIXED_NOW.getTime() + 30_000).toISOString(),
    });
    await session.handle(command, reply);
    return bodies;
  };
  return {
    clock,
    log,
    channel,
    store,
    board,
    transfers,
    jobs,
    run,
    queue,
    folder,
    added,
    cameraResults,
  };
}

describe('CaptureSession', () => {
  it('accepts, then reports ready, processing and idle; one print off the roll, queued', async () => {
    const { run, board, channel, store, jobs, queue, folder, added, cameraResults } = await setup({
      printsLeft: 300,
    });
    const capture = payload([101, 102]);
    expect(await run(capture)).toEqual([{ status: 'accepted' }]);
    expect(board.busy).toBe(true);
    await board.idle();
    await settle();

    // Uploads do not hold the booth: idle right after the print.
    expect(channel.statuses.map((s) => s.status)).toEqual(['ready', 'processing', 'idle']);
    expect(channel.statuses.at(-1)?.prints_left).toBe(299);
    expect(store.state.prints_left).toBe(299);
    expect(store.saves).toBeGreaterThan(0);
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ copies: 1, strips: 2, jobName: 'media-101' });
    const meta = await sharp(jobs[0]!.image).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 3600, 2400]);
    // The print, the photo and both items wait in the queue for the delivery worker.
    expect(added).toEqual(['added']);
    expect(queue.manifest(capture.capture_id)).toMatchObject({
      stage: 'queued',
      captured_at: FIXED_NOW.toISOString(),
      uploads: [
        { media_id: 101, state: 'pending', upload_url: '/upload/101?sig=x' },
        { media_id: 102, state: 'pending' },
      ],
    });
    expect(queue.next()).toMatchObject({
      captureId: capture.capture_id,
      upload: { media_id: 101 },
    });
    const [entry] = await folder.list();
    expect((await folder.read(entry!, PRINT_FILE))?.equals(jobs[0]!.image)).toBe(true);
    expect((await folder.files(entry!)).map((f) => f.name).sort()).toEqual([
      'capture.json',
      'foreground.png',
      'photo-1.img',
      'print.jpg',
    ]);
    expect(queue.stats()).toMatchObject({ items: 2, over_limit: false });
    expect(cameraResults).toEqual([undefined]);
    expect(channel.reports).toEqual([]);
  });

  it('refuses a capture it cannot write to the queue, and reports it', async () => {
    const { run, channel, board, folder } = await setup();
    folder.create = () => Promise.reject(new Error('ENOSPC: no space left on device'));
    const capture = payload();
    expect(await run(capture)).toEqual([{ error: QUEUE_REFUSAL }]);
    await settle();
    expect(channel.reports).toMatchObject([
      { capture_id: capture.capture_id, delivered_media_ids: [] },
    ]);
    expect(channel.reports[0]?.message).toMatch(/delivery queue \(ENOSPC/);
    expect(board.free).toBe(true);
  });

  it('leaves nothing in the queue when the print fails; reports nothing delivered', async () => {
    const { run, board, channel, queue, folder, store } = await setup({
      printsLeft: 300,
      printError: new Error('ribbon out'),
    });
    const capture = payload([201]);
    expect(await run(capture)).toEqual([{ status: 'accepted' }]);
    await board.idle();
    await settle();
    expect(channel.reports).toMatchObject([
      { capture_id: capture.capture_id, delivered_media_ids: [] },
    ]);
    expect(channel.reports[0]?.message).toMatch(/printer did not print \(ribbon out\)/);
    expect(queue.stats().items).toBe(0);
    expect(await folder.list()).toEqual([]);
    expect(store.state.prints_left).toBe(300);
  });

  it('refuses a malformed capture, naming what is wrong', async () => {
    const { run, board } = await setup();
    const [reply] = await run({ template: {} });
    expect(reply?.error).toMatch(/^Invalid capture command \(.*capture_id/);
    expect(board.free).toBe(true);
  });

  it('refuses a capture while another job holds the booth', async () => {
    const { run, board, jobs } = await setup();
    const end = board.claim('updating');
    expect(await run(payload())).toEqual([{ error: BOOTH_MESSAGES.busy }]);
    end();
    expect(jobs).toEqual([]);
  });

  it('refuses a capture when the roll is empty and reports it', async () => {
    const { run, channel, board } = await setup({ printsLeft: 0 });
    const capture = payload();
    expect(await run(capture)).toEqual([{ error: BOOTH_MESSAGES.rollEmpty }]);
    await settle();
    expect(channel.reports).toMatchObject([
      { capture_id: capture.capture_id, delivered_media_ids: [] },
    ]);
    expect(channel.reports[0]?.message).toMatch(/paper roll is empty/);
    expect(board.free).toBe(true);
  });

  it('refuses a capture whose foreground cannot be fetched, reports it, and is free again', async () => {
    const { run, channel, board, jobs } = await setup();
    const capture = payload();
    capture.template.foreground_url = '/missing.png';
    expect(await run(capture)).toEqual([{ error: BOOTH_MESSAGES.foreground }]);
    await settle();
    expect(channel.reports[0]?.message).toMatch(/artwork \(foreground\).*HTTP 404/);
    expect(board.free).toBe(true);
    expect(jobs).toEqual([]);
  });

  it('drops a capture that expires while its foreground loads: no reply, no session', async () => {
    const { run, clock, transfers, board, jobs, log } = await setup();
    const expiresAt = new Date(FIXED_NOW.getTime() + 5000).toISOString();
    transfers.onDownload = () => {
      clock.now = new Date(FIXED_NOW.getTime() + 6000);
    };
    expect(await run(payload(), expiresAt)).toEqual([]);
    expect(log.messages('warn')).toContain('capture expired before it was accepted');
    expect(board.free).toBe(true);
    expect(jobs).toEqual([]);
  });

  it('reports the roll running low when a print crosses the warning line, not below it', async () => {
    const { run, board, channel } = await setup({ printsLeft: PRINTS_LEFT_WARNING });
    for (let n = 0; n < 2; n += 1) {
      await run(payload([300 + n]));
      await board.idle();
    }
    await settle();
    expect(channel.reports.map((r) => r.message)).toEqual([
      `Only ${PRINTS_LEFT_WARNING - 1} prints left on the paper roll. Restock the printer soon.`,
    ]);
  });
});

function motionPayload(
  kind: 'gif' | 'boomerang',
  print: boolean,
  ids = { video: 201, print: 202 },
): CaptureCommandPayload {
  const base = payload([]);
  return {
    ...base,
    template: {
      ...base.template,
      capture_kind: kind,
      motion: { frames: 3, seconds: 5, speed: 1.5, print },
    },
    total_captures: print ? 1 : 0,
    uploads: [
      {
        media_id: ids.video,
        upload_url: `/upload/${ids.video}`,
        content_type: 'video/mp4',
        poster_upload_url: `/upload/${ids.video}/poster`,
        preview_upload_url: `/upload/${ids.video}/preview`,
        gif_upload_url: kind === 'gif' ? `/upload/${ids.video}/gif` : null,
      },
      ...(print
        ? [
            {
              media_id: ids.print,
              upload_url: `/upload/${ids.print}`,
              content_type: 'image/jpeg' as const,
            },
          ]
        : []),
    ],
  };
}

/** A camera that records small grey frames at once, as many as asked. */
function fastRecorder(): Camera {
  return {
    capture: () => Promise.reject(new Error('no stills expected')),
    record: async (request) => {
      const frame = await sharp({
        create: { width: 300, height: 200, channels: 3, background: '#777' },
      })
        .jpeg()
        .toBuffer();
      const frames = Array.from({ length: requestedFrames(request) }, (_, i) =>
        path.join(request.dir, frameName(i)),
      );
      for (const file of frames) await writeFile(file, frame);
      return { frames, fps: request.fps };
    },
  };
}

describe('CaptureSession with a motion template', () => {
  const folders: MemoryQueueFolder[] = [];
  afterEach(async () => {
    for (const folder of folders.splice(0)) await folder.dispose();
  });

  it('records a boomerang burst after one countdown, prints a still from it, queues video and print', async () => {
    const { run, board, channel, store, jobs, queue, folder } = await setup({
      camera: fastRecorder(),
    });
    folders.push(folder);
    const capture = motionPayload('boomerang', true);
    expect(await run(capture)).toEqual([{ status: 'accepted' }]);
    await board.idle();
    await settle();
    expect(channel.statuses.map((s) => s.status)).toEqual(['ready', 'processing', 'idle']);
    const manifest = queue.manifest(capture.capture_id);
    expect(manifest?.stage).toBe('queued');
    // 1.5 s at 30 fps.
    expect(manifest?.frames).toHaveLength(45);
    expect(manifest?.frames_fps).toBe(30);
    expect(await queue.motionFrames(capture.capture_id)).toHaveLength(45);
    // The print is the print item's, one off the roll.
    expect(jobs.map((job) => job.jobName)).toEqual(['media-202']);
    expect(store.state.prints_left).toBe(299);
    expect(queue.stats().items).toBe(2);
    expect(queue.isEncoded(capture.capture_id)).toBe(false);
  });

  it('takes a gif burst of its stills without a print when the template does not print', async () => {
    const recorded: unknown[] = [];
    const camera: Camera = {
      capture: () => Promise.reject(new Error('no stills expected')),
      record: async (request) => {
        recorded.push(request);
        const file = path.join(request.dir, frameName(0));
        await writeFile(
          file,
          await sharp({ create: { width: 8, height: 8, channels: 3, background: '#000' } })
            .jpeg()
            .toBuffer(),
        );
        return { frames: [file], fps: 4 / 3 };
      },
    };
    const { run, board, jobs, queue, store, channel, folder } = await setup({ camera });
    folders.push(folder);
    const capture = motionPayload('gif', false);
    await run(capture);
    await board.idle();
    await settle();
    // Frames of the template's slot's shape (landscape1's 2880×1920: 3:2), not 16:9.
    expect(recorded).toMatchObject([
      { mode: 'burst', count: 3, intervalMs: 750, fps: 30, size: { width: 1280, height: 854 } },
    ]);
    expect(jobs).toEqual([]);
    expect(store.state.prints_left).toBe(300);
    expect(queue.manifest(capture.capture_id)?.stage).toBe('queued');
    expect(channel.statuses.map((s) => s.status)).toEqual(['ready', 'processing', 'idle']);
  });

  it('reports a camera that cannot record, and keeps nothing of the capture', async () => {
    const camera: Camera = {
      capture: () => Promise.reject(new Error('no stills expected')),
      record: () => Promise.reject(new Error('The webcam /dev/video0 recorded nothing')),
    };
    const { run, board, queue, channel, cameraResults, folder } = await setup({ camera });
    folders.push(folder);
    const capture = motionPayload('boomerang', true);
    await run(capture);
    await board.idle();
    await settle();
    expect(queue.manifest(capture.capture_id)).toBeUndefined();
    expect(cameraResults).toHaveLength(1);
    expect(channel.reports.at(-1)?.message).toMatch(
      /the camera did not record the boomerang \(The webcam \/dev\/video0 recorded nothing\)/,
    );
  });
});
