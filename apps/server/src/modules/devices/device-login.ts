import type { DeviceLoginRefusal } from '@flashbooth/contracts';
import { AppError } from '../../errors.js';

const MESSAGES: Record<DeviceLoginRefusal, (thingName: string) => string> = {
  unknown_device: (thingName) =>
    `No device is registered as ${thingName}: check BOOTH_THING_NAME against the console's device list, or enroll the booth again.`,
  wrong_secret: (thingName) =>
    `The secret is not ${thingName}'s (it was replaced by a later enrollment or registration): enroll the booth again with a new code from the console.`,
};

/** A 401 on the booth's credential check, with why (the answer's `reason`). */
export class DeviceLoginRefused extends AppError {
  constructor(
    readonly reason: DeviceLoginRefusal,
    thingName: string,
  ) {
    super('unauthorized', MESSAGES[reason](thingName));
  }
}
