import { describe, expect, it } from 'vitest';
import {
  coverCrop,
  createFailureMessage,
  designSizeError,
  downloadOf,
  isAcceptedDesignFile,
  LAYOUT_NAMES,
  LAYOUTS,
  openings,
  outputSizes,
  qrAddress,
  qrModuleGrid,
  qrPlacements,
  samplePhotoFor,
  STUDIO_IDLE,
  STUDIO_MESSAGES,
  studioReducer,
  type Rect,
  type StudioResult,
} from './template-studio-model';

const overlaps = (a: Rect, b: Rect) =>
  a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

const result = (layout: 'landscape3' | 'portrait6' = 'landscape3'): StudioResult => ({
  layout,
  png: new Blob(['png']),
  jpg: new Blob(['jpg']),
  overlayPreview: new Blob(['preview']),
  ms: 10,
});

describe('design size check', () => {
  it('accepts exactly the canvas of the layout', () => {
    expect(designSizeError('landscape3', { width: 3600, height: 2400 })).toBeNull();
    expect(designSizeError('portrait6', { width: 2400, height: 3600 })).toBeNull();
  });

  it('names both sizes in the spec words otherwise', () => {
    expect(designSizeError('landscape1', { width: 1200, height: 800 })).toBe(
      'Image must be 3600×2400px. Yours is 1200×800px.',
    );
    expect(designSizeError('portrait6', { width: 3600, height: 2400 })).toBe(
      'Image must be 2400×3600px. Yours is 3600×2400px.',
    );
  });

  it('takes JPG and PNG files only', () => {
    expect(isAcceptedDesignFile({ type: 'image/png', name: 'a.png' })).toBe(true);
    expect(isAcceptedDesignFile({ type: 'image/jpeg', name: 'a.jpg' })).toBe(true);
    expect(isAcceptedDesignFile({ type: 'image/gif', name: 'a.gif' })).toBe(false);
    expect(isAcceptedDesignFile({ type: '', name: 'design.JPEG' })).toBe(true);
    expect(isAcceptedDesignFile({ type: '', name: 'design.webp' })).toBe(false);
  });
});

describe('geometry', () => {
  it('cuts one opening per slot with the corner radius of 50', () => {
    expect(openings('landscape3')).toEqual([
      { x: 120, y: 80, w: 1620, h: 1080, radius: 50 },
      { x: 1860, y: 80, w: 1620, h: 1080, radius: 50 },
      { x: 120, y: 1240, w: 1620, h: 1080, radius: 50 },
    ]);
    expect(openings('portrait6')).toHaveLength(6);
    expect(openings('landscape1')).toEqual([{ x: 360, y: 120, w: 2880, h: 1920, radius: 50 }]);
  });

  it('stamps one 230×230 QR code, two for portrait6 (one per strip)', () => {
    expect(qrPlacements('landscape3')).toEqual([{ x: 3250, y: 2090, w: 230, h: 230 }]);
    expect(qrPlacements('landscape1')).toEqual([{ x: 3010, y: 2105, w: 230, h: 230 }]);
    expect(qrPlacements('portrait6')).toEqual([
      { x: 911, y: 3208, w: 230, h: 230 },
      { x: 2111, y: 3208, w: 230, h: 230 },
    ]);
  });

  it.each(LAYOUT_NAMES)('%s: the QR codes stay on the canvas and off every photo', (layout) => {
    const { canvas } = LAYOUTS[layout];
    for (const qr of qrPlacements(layout)) {
      expect(qr.x).toBeGreaterThanOrEqual(0);
      expect(qr.y).toBeGreaterThanOrEqual(0);
      expect(qr.x + qr.w).toBeLessThanOrEqual(canvas.width);
      expect(qr.y + qr.h).toBeLessThanOrEqual(canvas.height);
      for (const opening of openings(layout)) expect(overlaps(qr, opening)).toBe(false);
    }
  });

  it('portrait6 puts one QR code inside each 1200 px strip', () => {
    const [left, right] = qrPlacements('portrait6');
    expect(left!.x + left!.w).toBeLessThanOrEqual(1200);
    expect(right!.x).toBeGreaterThanOrEqual(1200);
  });

  it('makes a canvas-size PNG and a quarter-size JPG', () => {
    expect(outputSizes('landscape3')).toEqual({
      png: { width: 3600, height: 2400 },
      jpg: { width: 900, height: 600 },
    });
    expect(outputSizes('portrait6').jpg).toEqual({ width: 600, height: 900 });
  });

  it('crops a photo to the slot ratio around its centre', () => {
    expect(coverCrop({ width: 1620, height: 1080 }, { x: 0, y: 0, w: 300, h: 200 })).toEqual({
      x: 0,
      y: 0,
      w: 1620,
      h: 1080,
    });
    expect(coverCrop({ width: 2000, height: 1000 }, { x: 0, y: 0, w: 150, h: 100 })).toEqual({
      x: 250,
      y: 0,
      w: 1500,
      h: 1000,
    });
    expect(coverCrop({ width: 1000, height: 1000 }, { x: 0, y: 0, w: 150, h: 100 })).toEqual({
      x: 0,
      y: (1000 - 1000 / 1.5) / 2,
      w: 1000,
      h: 1000 / 1.5,
    });
  });

  it('cycles through the five sample photos', () => {
    expect([0, 1, 4, 5, 6].map(samplePhotoFor)).toEqual([0, 1, 4, 0, 1]);
  });

  it('lays QR modules on whole pixels with a quiet zone, centred in 230 px', () => {
    const { cell, offset } = qrModuleGrid(25);
    expect(cell).toBe(7);
    expect(cell * (25 + 4)).toBeLessThanOrEqual(230);
    expect(offset).toBe(Math.floor((230 - 7 * 25) / 2));
  });
});

describe('QR address', () => {
  it('uses the field, else the public URL, else the page origin', () => {
    expect(qrAddress(' https://venue.example/x ', undefined, 'http://a')).toBe(
      'https://venue.example/x',
    );
    expect(qrAddress('', 'https://flashbooth.example/', 'http://a')).toBe(
      'https://flashbooth.example',
    );
    expect(qrAddress('  ', undefined, 'http://localhost:8080')).toBe('http://localhost:8080');
  });
});

describe('flow', () => {
  it('goes idle → processing → success, and a reset drops the result', () => {
    const processing = studioReducer(STUDIO_IDLE, { type: 'start', run: 1, fileName: 'a.png' });
    expect(processing.status).toBe('processing');
    const done = studioReducer(processing, { type: 'done', run: 1, result: result() });
    expect(done).toMatchObject({ status: 'success', fileName: 'a.png' });
    expect(studioReducer(done, { type: 'reset' })).toEqual(STUDIO_IDLE);
  });

  it('ignores the answer of a run that is no longer the current one', () => {
    const second = studioReducer(
      studioReducer(STUDIO_IDLE, { type: 'start', run: 1, fileName: 'a.png' }),
      { type: 'start', run: 2, fileName: 'b.png' },
    );
    expect(studioReducer(second, { type: 'done', run: 1, result: result() })).toBe(second);
    expect(studioReducer(STUDIO_IDLE, { type: 'failed', run: 2, message: 'x' })).toBe(STUDIO_IDLE);
    expect(studioReducer(second, { type: 'failed', run: 2, message: 'x' })).toEqual({
      status: 'error',
      message: 'x',
    });
  });

  it('drops an error when a newer message takes its place, and nothing else', () => {
    const failed = { status: 'error' as const, message: 'Image must be 3600×2400px.' };
    expect(studioReducer(failed, { type: 'dismiss' })).toEqual(STUDIO_IDLE);
    const success = { status: 'success' as const, result: result(), fileName: 'a' };
    expect(studioReducer(success, { type: 'dismiss' })).toBe(success);
  });

  it('downloads only with data, else the spec messages', () => {
    expect(downloadOf(STUDIO_IDLE, 'png')).toEqual({ message: STUDIO_MESSAGES.noPng });
    expect(downloadOf({ status: 'error', message: 'x' }, 'jpg')).toEqual({
      message: 'No JPG data to download. Please upload a file first.',
    });
    const success = { status: 'success' as const, result: result('portrait6'), fileName: 'a' };
    expect(downloadOf(success, 'png')).toMatchObject({ fileName: 'portrait6-overlay.png' });
    expect(downloadOf(success, 'jpg')).toMatchObject({ fileName: 'portrait6-sample.jpg' });
  });

  it('says which step of creating a template failed', () => {
    expect(createFailureMessage('foreground', 'Forbidden')).toBe(
      'The template was created, but uploading the PNG overlay as its foreground failed: Forbidden',
    );
    expect(createFailureMessage('template', 'x')).toMatch(/^Could not create the template/);
  });
});
