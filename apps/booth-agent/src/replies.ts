import type { DeviceReplyMessage } from '@flashbooth/contracts';

/** Answers the command being handled on its `reply_to` topic, with its id. */
export type Reply = (body: Omit<DeviceReplyMessage, 'id'>) => Promise<void>;

/** The booth's refusals, as the server passes them on. */
export const BOOTH_MESSAGES = {
  busy: 'This photobooth is busy with another session. Please try again in a moment.',
  rollEmpty: 'The photobooth is out of paper. Please ask the staff to refill the printer.',
  foreground: 'The photobooth could not load the template artwork.',
  updateBusy:
    'The photobooth is busy (a capture session or another update). Send the update again once it is idle.',
  updatesDisabled:
    'This photobooth cannot install updates: no releases folder is configured (BOOTH_RELEASES_DIR).',
} as const;
