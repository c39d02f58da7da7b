import { describe, expect, it } from 'vitest';
import {
  howToSteps,
  motionMoment,
  motionSecondsLabel,
  motionStageText,
  successText,
} from './capture-kind-texts';

describe('capture texts by kind', () => {
  it('keeps the photo texts', () => {
    expect(howToSteps('photo')[2]).toBe(
      'Watch the countdown on the booth and strike a pose for each photo.',
    );
    expect(successText('photo')).toBe('All done! Your photos are ready.');
  });

  it('says what a motion kind makes', () => {
    expect(howToSteps('boomerang').at(-1)).toBe(
      'Your boomerang appears in My Media once it is uploaded.',
    );
    expect(successText('gif')).toBe('All done! Your GIF is ready.');
    expect(motionStageText('boomerang', 'countdown')).toBe('Get ready to move!');
    expect(motionStageText('video', 'recording')).toBe('Recording… keep moving!');
    expect(motionStageText('gif', 'recording')).toBe('Strike a pose for each frame!');
    expect(motionStageText('boomerang', 'making')).toBe(
      'Got it! The booth is making your boomerang…',
    );
    expect(motionSecondsLabel('countdown', 1)).toBe('second until recording');
    expect(motionSecondsLabel('recording', 2)).toBe('seconds of recording left');
  });

  it('follows the booth: one countdown, the recording, then making the clip', () => {
    const readyAt = 1_000_000;
    expect(motionMoment(readyAt, 10_000, 1.5, readyAt)).toEqual({
      stage: 'countdown',
      endsAt: readyAt + 10_000,
    });
    expect(motionMoment(readyAt, 10_000, 1.5, readyAt + 10_000)).toEqual({
      stage: 'recording',
      endsAt: readyAt + 11_500,
    });
    expect(motionMoment(readyAt, 10_000, 1.5, readyAt + 11_500).stage).toBe('making');
  });
});
