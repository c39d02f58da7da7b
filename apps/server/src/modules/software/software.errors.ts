import { SOFTWARE_MESSAGES } from '@flashbooth/contracts';
import { AppError } from '../../errors.js';

/** The constraints of migration 0006 that a request can run into. */
export const SOFTWARE_CONSTRAINTS = {
  /** software_channels.release_id → software_releases (ON DELETE RESTRICT). */
  channelRelease: 'software_channels_release_id_fkey',
  /** unique (lower(version)). */
  releaseVersion: 'software_releases_version_key',
} as const;

export const versionTaken = () => new AppError('conflict', SOFTWARE_MESSAGES.versionTaken);
