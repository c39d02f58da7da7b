import { describe, expect, it } from 'vitest';
import { isCaptureKind, isMotionKind, MOTION_RULES, recordSeconds } from './rules.js';
import { TemplatePatchSchema } from './templates.js';

describe('recordSeconds', () => {
  it('is what the booth records after the one countdown, per kind', () => {
    expect(recordSeconds('photo', 4, 5)).toBe(0);
    expect(recordSeconds('gif', 4, 5)).toBe(4 * MOTION_RULES.gifIntervalSeconds);
    expect(recordSeconds('gif', 6, 5)).toBe(4.5);
    expect(recordSeconds('boomerang', 6, 10)).toBe(MOTION_RULES.boomerangBurstSeconds);
    expect(recordSeconds('video', 4, 7.5)).toBe(7.5);
  });

  it('tells the kinds apart', () => {
    expect(isCaptureKind('boomerang')).toBe(true);
    expect(isCaptureKind('slowmo')).toBe(false);
    expect(isMotionKind('photo')).toBe(false);
    expect(isMotionKind('video')).toBe(true);
  });
});

describe('TemplatePatchSchema motion fields', () => {
  it.each([
    [{ capture_kind: 'gif', motion_frames: 2 }],
    [{ motion_frames: 6 }],
    [{ motion_seconds: 3 }],
    [{ motion_seconds: 10 }],
    [{ motion_speed: 0.5 }],
    [{ motion_speed: 2 }],
    [{ motion_prints: false }],
  ])('accepts %j', (body) => {
    expect(TemplatePatchSchema.safeParse(body).success).toBe(true);
  });

  it.each([
    [{ capture_kind: 'burst' }, 'Capture kind must be photo, gif, boomerang or video.'],
    [{ motion_frames: 1 }, 'Frames must be a whole number from 2 to 6.'],
    [{ motion_frames: 3.5 }, 'Frames must be a whole number from 2 to 6.'],
    [{ motion_seconds: 10.5 }, 'Seconds must be from 3 to 10.'],
    [{ motion_speed: 0.4 }, 'Speed must be from 0.5× to 2×.'],
    [{ motion_prints: 1 }, 'motion_prints must be true or false.'],
  ])('refuses %j with its message', (body, message) => {
    const result = TemplatePatchSchema.safeParse(body);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(message);
  });
});
