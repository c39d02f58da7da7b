import type { Template } from '@flashbooth/print-composition';
import { describe, expect, it, vi } from 'vitest';
import type { Camera } from './camera/camera.js';
import { reusedPhotoCamera, reusedPrint } from './fleet-reuse.js';

const template = (overrides: Partial<Template> = {}): Template => ({
  id: 7,
  name: 'Strips',
  orientation: 'portrait',
  is_cut: true,
  is_duplicated: false,
  images: [{ x: 61, y: 555, w: 1080, h: 720, filter: 'bw' }],
  foreground: null,
  ...overrides,
});

describe('reusedPrint', () => {
  it('composes once per template and number of photos, and hands the same print out again', async () => {
    let made = 0;
    const compose = vi.fn(async () => Buffer.from(`print ${++made}`));
    const reused = reusedPrint(compose);
    const photo = Buffer.from('photo');
    const first = await reused(template(), [photo]);
    const again = await Promise.all([reused(template(), [photo]), reused(template(), [photo])]);
    expect(again).toEqual([first, first]);
    expect(compose).toHaveBeenCalledTimes(1);
    // Another layout, another foreground or another number of photos is another print.
    const other = await reused(template({ images: [] }), [photo]);
    const framed = await reused(template({ foreground: Buffer.from('art a') }), [photo]);
    const reframed = await reused(template({ foreground: Buffer.from('art b') }), [photo]);
    const two = await reused(template(), [photo, photo]);
    expect(new Set([first, other, framed, reframed, two].map(String)).size).toBe(5);
    expect(compose).toHaveBeenCalledTimes(5);
  });

  it('does not keep a failed composition', async () => {
    const compose = vi
      .fn<(t: Template, p: readonly Buffer[]) => Promise<Buffer>>()
      .mockRejectedValueOnce(new Error('no memory'))
      .mockResolvedValue(Buffer.from('print'));
    const reused = reusedPrint(compose);
    await expect(reused(template(), [])).rejects.toThrow('no memory');
    await expect(reused(template(), [])).resolves.toEqual(Buffer.from('print'));
    expect(compose).toHaveBeenCalledTimes(2);
  });
});

describe('reusedPhotoCamera', () => {
  it('takes each shot number once and keeps the driver name and the recording', async () => {
    const capture = vi.fn(async (index: number) => Buffer.from(`shot ${index} ${Math.random()}`));
    const record = vi.fn(async () => ({ frames: ['a.jpg'], fps: 30 }));
    const camera: Camera = { driver: 'simulated', capture, record };
    const reused = reusedPhotoCamera(camera);
    const first = [await reused.capture(0), await reused.capture(1)];
    expect([await reused.capture(0), await reused.capture(1)]).toEqual(first);
    expect(first[0]).not.toEqual(first[1]);
    expect(capture).toHaveBeenCalledTimes(2);
    expect(reused.driver).toBe('simulated');
    const request = {
      mode: 'clip' as const,
      count: 1,
      intervalMs: 0,
      seconds: 1,
      fps: 30,
      size: { width: 3, height: 2 },
      dir: '/tmp',
    };
    await expect(reused.record!(request)).resolves.toEqual({ frames: ['a.jpg'], fps: 30 });
    expect(record).toHaveBeenCalledWith(request);
  });

  it('asks the camera again after a failed shot', async () => {
    const capture = vi
      .fn<(index: number) => Promise<Buffer>>()
      .mockRejectedValueOnce(new Error('busy'))
      .mockResolvedValue(Buffer.from('shot'));
    const reused = reusedPhotoCamera({ capture });
    await expect(reused.capture(0)).rejects.toThrow('busy');
    await expect(reused.capture(0)).resolves.toEqual(Buffer.from('shot'));
    expect(capture).toHaveBeenCalledTimes(2);
  });
});
