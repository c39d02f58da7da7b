import { BOOTH_AVAILABILITY_MESSAGES, boothAvailability } from '@flashbooth/contracts/rules';
import { AppError } from '../../errors.js';

const CODES = {
  offline: 'booth_offline',
  busy: 'booth_busy',
  updating: 'booth_updating',
} as const;

/**
 * Refuses a payment or a capture at a booth that cannot take a visitor now (its recorded status:
 * the booth's own reports, its last will when it drops, the server's failed pings), before any
 * money moves. The visitor's screen reads the code to offer the action that fits: wait, retry,
 * or go back.
 */
export function assertBoothAvailable(status: string | null | undefined): void {
  const availability = boothAvailability(status);
  if (availability === 'available') return;
  throw new AppError(CODES[availability], BOOTH_AVAILABILITY_MESSAGES[availability]);
}
