import { ROLLOUT_MESSAGES } from '@flashbooth/contracts';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../errors.js';
import { noAnswer } from '../mqtt/device-link.js';
import { outcomeOf } from './rollout-driver.js';
import { planWaves } from './rollouts.service.js';

describe('rollout waves', () => {
  it('puts one booth first, then a quarter of the rest, then the rest, in the given order', () => {
    expect(planWaves([])).toEqual([]);
    expect(planWaves([7])).toEqual([[7]]);
    expect(planWaves([7, 8])).toEqual([[7], [8]]);
    expect(planWaves([1, 2, 3, 4, 5, 6])).toEqual([[1], [2, 3], [4, 5, 6]]);
    const hundred = Array.from({ length: 100 }, (_, i) => i);
    expect(planWaves(hundred).map((wave) => wave.length)).toEqual([1, 25, 74]);
    expect(planWaves(hundred).flat()).toEqual(hundred);
  });
});

describe("a booth's answer to the update", () => {
  it('is updated on success, with the version the booth names', () => {
    expect(outcomeOf({ reply: { id: 'a', status: 'updated' } }, '2.0.0')).toEqual({
      kind: 'updated',
      version: '2.0.0',
    });
    expect(
      outcomeOf({ reply: { id: 'a', status: 'up_to_date', software_version: '2.0.1' } }, '2.0.0'),
    ).toEqual({ kind: 'updated', version: '2.0.1' });
  });

  it('is retried when the booth is busy or does not answer, and failed otherwise', () => {
    const busy = new AppError(
      'unprocessable',
      'The photobooth is busy (a capture session or another update). Send the update again once it is idle.',
    );
    expect(outcomeOf({ error: busy }, '2')).toEqual({ kind: 'retry', note: busy.message });
    expect(outcomeOf({ error: noAnswer() }, '2')).toEqual({
      kind: 'retry',
      note: ROLLOUT_MESSAGES.noAnswer,
    });
    const broken = new AppError('unprocessable', 'The software update to 2 failed: size mismatch');
    expect(outcomeOf({ error: broken }, '2')).toEqual({ kind: 'failed', note: broken.message });
  });
});
