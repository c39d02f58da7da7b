import { describe, expect, it } from 'vitest';
import { clipAspect, evenPicks, middleFrames, playOrder, timeline, videoSize } from './timeline.js';

describe('playOrder', () => {
  it('plays a boomerang forward then back without repeating its end frames', () => {
    expect(playOrder('boomerang', 5)).toEqual([0, 1, 2, 3, 4, 3, 2, 1]);
    expect(playOrder('video', 3)).toEqual([0, 1, 2]);
    expect(playOrder('gif', 4)).toEqual([0, 1, 2, 3]);
  });
});

describe('timeline', () => {
  it('makes a 1.5-s boomerang burst a 2.93-s loop played twice (at least 3 s)', () => {
    const plan = timeline('boomerang', 45, 30, 1);
    expect(plan.frames).toHaveLength(88);
    expect(plan.frames.slice(0, 3)).toEqual([0, 1, 2]);
    expect(plan.frames.slice(43, 47)).toEqual([43, 44, 43, 42]);
    expect(plan.frames.at(-1)).toBe(1);
    expect(plan.loops).toBe(2);
    expect(plan.loops * plan.loopSeconds).toBeGreaterThanOrEqual(3);
  });

  it('applies the speed: twice as fast skips every other frame, half as fast shows each twice', () => {
    expect(timeline('video', 90, 30, 2).frames).toEqual(
      Array.from({ length: 45 }, (_, i) => i * 2),
    );
    const slow = timeline('video', 90, 30, 0.5);
    expect(slow.frames).toHaveLength(180);
    expect(slow.frames.slice(0, 4)).toEqual([0, 0, 1, 1]);
    expect(slow.loops).toBe(1);
  });

  it('holds each still of a gif for its interval and loops a short one to 3 s', () => {
    const plan = timeline('gif', 2, 1000 / 750, 1);
    expect(plan.frames).toHaveLength(45);
    expect(plan.frames.filter((f) => f === 0)).toHaveLength(23);
    expect(plan.loops).toBe(2);
  });
});

describe('videoSize', () => {
  it("is the slot's shape at 1280 on the long side, even, unless the frames reach 1920", () => {
    const slot = { width: 2880, height: 1920 };
    expect(videoSize(slot, { width: 1620, height: 1080 })).toEqual({ width: 1280, height: 854 });
    expect(videoSize(slot, { width: 1920, height: 1280 })).toEqual({ width: 1920, height: 1280 });
    expect(videoSize(slot, { width: 6000, height: 4000 }, false)).toEqual({
      width: 1280,
      height: 854,
    });
    // A 16:9 slot and a portrait one.
    expect(videoSize({ width: 1920, height: 1080 }, { width: 1280, height: 720 })).toEqual({
      width: 1280,
      height: 720,
    });
    expect(videoSize({ width: 1080, height: 1620 }, { width: 1920, height: 1080 })).toEqual({
      width: 854,
      height: 1280,
    });
  });

  it("keeps the frames' own shape without a slot", () => {
    expect(videoSize(null, { width: 1620, height: 1080 })).toEqual({ width: 1280, height: 854 });
    expect(videoSize(null, { width: 640, height: 480 })).toEqual({ width: 1280, height: 960 });
    expect(videoSize(null, { width: 1080, height: 1920 })).toEqual({ width: 1080, height: 1920 });
  });
});

describe('clipAspect', () => {
  it("is the template's first slot, or null without one", () => {
    expect(
      clipAspect({
        images: [
          { w: 2880, h: 1920 },
          { w: 10, h: 90 },
        ],
      }),
    ).toEqual({
      width: 2880,
      height: 1920,
    });
    expect(clipAspect({ images: [] })).toBeNull();
    expect(clipAspect({})).toBeNull();
    expect(clipAspect({ images: [{ w: 0, h: 100 }] })).toBeNull();
  });
});

describe('picking frames', () => {
  it('takes the poster from the middle third and print stills evenly', () => {
    expect(middleFrames(45)).toEqual(Array.from({ length: 15 }, (_, i) => 15 + i));
    expect(middleFrames(2)).toEqual([0, 1]);
    expect(evenPicks(45, 3)).toEqual([7, 22, 37]);
    expect(evenPicks(4, 4)).toEqual([0, 1, 2, 3]);
  });
});
