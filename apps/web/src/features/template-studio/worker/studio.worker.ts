import QRCode from 'qrcode';
import {
  coverCrop,
  designSizeError,
  LAYOUTS,
  openings,
  outputSizes,
  qrModuleGrid,
  qrPlacements,
  samplePhotoFor,
  STUDIO,
  STUDIO_MESSAGES,
  type LayoutName,
  type Rect,
} from '../template-studio-model';
import type { StudioRequest, StudioResponse } from './studio-protocol';

/**
 * Template Studio's pixel work, off the main thread: decode the design (createImageBitmap), cut
 * the photo openings and stamp the QR codes on an OffscreenCanvas, compose the sample, encode
 * both (convertToBlob). The page only sends a File and receives Blobs, so it never decodes,
 * copies or encodes the 3600×2400 image itself.
 */

type Context = OffscreenCanvasRenderingContext2D;
const scope = self as unknown as {
  onmessage: ((event: MessageEvent<StudioRequest>) => void) | null;
  postMessage: (message: StudioResponse) => void;
};

let photoCache: { key: string; photos: Promise<ImageBitmap[]> } | null = null;

/** The five sample photos, fetched and decoded on the first run and kept for the next ones. */
function samplePhotos(urls: readonly string[]): Promise<ImageBitmap[]> {
  const key = urls.join('\n');
  if (photoCache?.key !== key) {
    const photos = Promise.all(
      urls.map(async (url) => {
        const response = await fetch(url);
        if (!response.ok) throw new Error(`Sample photo ${url}: ${response.status}`);
        return createImageBitmap(await response.blob());
      }),
    );
    photos.catch(() => (photoCache = null));
    photoCache = { key, photos };
  }
  return photoCache.photos;
}

function context(canvas: OffscreenCanvas): Context {
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('2D canvas is not available in this browser.');
  return ctx;
}

/** A QR code of `text` on a white square at `at`, drawn module by module on whole pixels. */
function drawQr(ctx: Context, text: string, at: Rect): void {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const { cell, offset } = qrModuleGrid(modules.size, at.w);
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(at.x, at.y, at.w, at.h);
  ctx.fillStyle = '#000000';
  for (let row = 0; row < modules.size; row += 1) {
    for (let column = 0; column < modules.size; column += 1) {
      if (modules.get(row, column)) {
        ctx.fillRect(at.x + offset + column * cell, at.y + offset + row * cell, cell, cell);
      }
    }
  }
}

/** The overlay: the design with transparent rounded openings and the QR code(s). */
function drawOverlay(design: ImageBitmap, layout: LayoutName, qrText: string): OffscreenCanvas {
  const { png } = outputSizes(layout);
  const canvas = new OffscreenCanvas(png.width, png.height);
  const ctx = context(canvas);
  ctx.drawImage(design, 0, 0);
  ctx.globalCompositeOperation = 'destination-out';
  ctx.beginPath();
  for (const { x, y, w, h, radius } of openings(layout)) ctx.roundRect(x, y, w, h, radius);
  ctx.fill();
  ctx.globalCompositeOperation = 'source-over';
  for (const at of qrPlacements(layout)) drawQr(ctx, qrText, at);
  return canvas;
}

/** The sample: the photos in their slots behind the overlay, all at a quarter of the size. */
function drawSample(overlay: OffscreenCanvas, layout: LayoutName, photos: ImageBitmap[]) {
  const { jpg } = outputSizes(layout);
  const canvas = new OffscreenCanvas(jpg.width, jpg.height);
  const ctx = context(canvas);
  ctx.imageSmoothingQuality = 'high';
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, jpg.width, jpg.height);
  const scale = STUDIO.sampleScale;
  LAYOUTS[layout].images.forEach((slot, index) => {
    const photo = photos[samplePhotoFor(index) % photos.length]!;
    const crop = coverCrop(photo, slot);
    ctx.drawImage(
      photo,
      crop.x,
      crop.y,
      crop.w,
      crop.h,
      slot.x * scale,
      slot.y * scale,
      slot.w * scale,
      slot.h * scale,
    );
  });
  ctx.drawImage(overlay, 0, 0, jpg.width, jpg.height);
  return canvas;
}

/** A quarter-size copy of the overlay, for the screen's preview. */
function drawPreview(overlay: OffscreenCanvas, layout: LayoutName): OffscreenCanvas {
  const { jpg } = outputSizes(layout);
  const canvas = new OffscreenCanvas(jpg.width, jpg.height);
  const ctx = context(canvas);
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(overlay, 0, 0, jpg.width, jpg.height);
  return canvas;
}

async function run(request: StudioRequest): Promise<StudioResponse> {
  const started = performance.now();
  const photos = samplePhotos(request.photoUrls);
  let design: ImageBitmap;
  try {
    design = await createImageBitmap(request.design);
  } catch {
    return { run: request.run, ok: false, message: STUDIO_MESSAGES.unreadable };
  }
  try {
    const sizeError = designSizeError(request.layout, design);
    if (sizeError) return { run: request.run, ok: false, message: sizeError };
    const overlay = drawOverlay(design, request.layout, request.qrText);
    const sample = drawSample(overlay, request.layout, await photos);
    const preview = drawPreview(overlay, request.layout);
    const [png, jpg, overlayPreview] = await Promise.all([
      overlay.convertToBlob({ type: 'image/png' }),
      sample.convertToBlob({ type: 'image/jpeg', quality: STUDIO.sampleQuality }),
      preview.convertToBlob({ type: 'image/png' }),
    ]);
    return {
      run: request.run,
      ok: true,
      png,
      jpg,
      overlayPreview,
      ms: performance.now() - started,
    };
  } finally {
    design.close();
  }
}

scope.onmessage = (event) => {
  run(event.data).then(scope.postMessage, (error: unknown) =>
    scope.postMessage({
      run: event.data.run,
      ok: false,
      message: error instanceof Error ? error.message : String(error),
    }),
  );
};
