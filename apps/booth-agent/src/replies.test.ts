import { BOOTH_BUSY_REPLY } from '@flashbooth/contracts';
import { describe, expect, it } from 'vitest';
import { BOOTH_MESSAGES } from './replies.js';

describe('the booth refusals the server reads', () => {
  it('says busy in the words a staged rollout retries on', () => {
    expect(BOOTH_MESSAGES.updateBusy).toMatch(BOOTH_BUSY_REPLY);
    expect(BOOTH_MESSAGES.busy).toMatch(BOOTH_BUSY_REPLY);
    expect(BOOTH_MESSAGES.rollEmpty).not.toMatch(BOOTH_BUSY_REPLY);
    expect(BOOTH_MESSAGES.updatesDisabled).not.toMatch(BOOTH_BUSY_REPLY);
  });
});
