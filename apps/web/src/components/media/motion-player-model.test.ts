import { describe, expect, it } from 'vitest';
import { motionPlan, motionSources } from './motion-player-model';

const base = {
  near: false,
  visible: false,
  reduced: false,
  choice: 'none' as const,
  loaded: false,
};
const onScreen = { near: true, visible: true };

describe('motion player', () => {
  it('loads nothing until the card is near the screen, then plays', () => {
    expect(motionPlan(base)).toEqual({ load: false, play: false });
    // Near: fetched ahead, so it plays as it scrolls in.
    expect(motionPlan({ ...base, near: true })).toEqual({ load: true, play: false });
    expect(motionPlan({ ...base, ...onScreen })).toEqual({ load: true, play: true });
  });

  it('pauses a loaded clip when it scrolls away, and keeps its source', () => {
    expect(motionPlan({ ...base, loaded: true })).toEqual({ load: true, play: false });
  });

  it('shows the still poster for reduced motion until Play is pressed', () => {
    const reduced = { ...base, ...onScreen, reduced: true };
    expect(motionPlan(reduced)).toEqual({ load: false, play: false });
    expect(motionPlan({ ...reduced, choice: 'play' })).toEqual({ load: true, play: true });
    // Scrolled away after Play: paused, not unloaded.
    expect(
      motionPlan({ ...reduced, choice: 'play', near: false, visible: false, loaded: true }),
    ).toEqual({
      load: true,
      play: false,
    });
  });

  it('holds a person’s Pause, near or not', () => {
    expect(motionPlan({ ...base, ...onScreen, loaded: true, choice: 'pause' })).toEqual({
      load: true,
      play: false,
    });
    // Paused before it ever loaded: it is not fetched either.
    expect(motionPlan({ ...base, ...onScreen, choice: 'pause' }).load).toBe(false);
  });

  it('plays the MP4 with the poster JPEG as its still', () => {
    expect(motionSources({ s3_url: '/v.mp4', lowres_s3_url: '/p.jpg', is_uploaded: true })).toEqual(
      { video: '/v.mp4', poster: '/p.jpg' },
    );
    expect(motionSources({ s3_url: '/v.mp4', lowres_s3_url: null, is_uploaded: true })).toEqual({
      video: '/v.mp4',
      poster: null,
    });
    expect(motionSources({ s3_url: null, lowres_s3_url: '/p.jpg', is_uploaded: true })).toBeNull();
    expect(
      motionSources({ s3_url: '/v.mp4', lowres_s3_url: '/p.jpg', is_uploaded: false }),
    ).toBeNull();
  });
});
