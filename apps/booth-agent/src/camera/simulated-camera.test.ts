import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { SimulatedCamera } from './simulated-camera.js';

describe('SimulatedCamera', () => {
  it('takes distinct 1620×1080 JPEG photos', async () => {
    const camera = new SimulatedCamera({ now: () => new Date('2026-01-02T03:04:05Z') });
    const [first, second] = await Promise.all([camera.capture(0), camera.capture(1)]);
    const meta = await sharp(first).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 1620, 1080]);
    expect(first.equals(second)).toBe(false);
    // Different shots have clearly different colours.
    const [a, b] = await Promise.all([first, second].map((p) => sharp(p).stats()));
    const meanDiff = a!.channels.reduce(
      (sum, c, i) => sum + Math.abs(c.mean - b!.channels[i]!.mean),
      0,
    );
    expect(meanDiff).toBeGreaterThan(20);
  });
});
