/**
 * Software channels and releases: texts and limits without a schema library, so the web app can
 * use them at runtime (the zod schemas are in software.ts). Staff spec sections 2, 5, 8 and 9.
 */

export const SOFTWARE_PAGE_SIZE = 9;
/** The release picker (channel dialog) and the channel picker (device dialog) load this many. */
export const SOFTWARE_PICKER_LIMIT = 200;
/** The largest release file (the local object store's own ceiling). */
export const RELEASE_MAX_BYTES = 512 * 1024 * 1024;
/** The upload dialog's default when the browser knows no type for the file. */
export const RELEASE_DEFAULT_CONTENT_TYPE = 'application/octet-stream';
/**
 * Types a release file may be uploaded as: archives and raw binaries only. The type is signed
 * into the upload URL and served back on download, so nothing a browser would render is allowed.
 */
export const RELEASE_CONTENT_TYPES = [
  'application/octet-stream',
  'application/zip',
  'application/x-zip-compressed',
  'application/gzip',
  'application/x-gzip',
  'application/x-compressed-tar',
  'application/x-tar',
] as const;
export type ReleaseContentType = (typeof RELEASE_CONTENT_TYPES)[number];

export const SOFTWARE_NAME_MAX = 100;
export const SOFTWARE_DESCRIPTION_MAX = 2000;
export const RELEASE_VERSION_MAX = 100;
export const RELEASE_NOTES_MAX = 20_000;
/** A version becomes part of a booth's install paths: letters, digits and . _ + - only. */
export const RELEASE_VERSION_PATTERN = /^[0-9A-Za-z][0-9A-Za-z._+-]*$/;

export const SOFTWARE_MESSAGES = {
  unauthorized: 'You are not authorized to view this page.',
  onlyAdmins: 'Only super users and Flashbooth admins can manage software channels and releases.',
  channelNameRequired: 'Channel name is required.',
  channelNameTooLong: `Channel name must be at most ${SOFTWARE_NAME_MAX} characters.`,
  descriptionTooLong: `Description must be at most ${SOFTWARE_DESCRIPTION_MAX} characters.`,
  releaseIdInvalid: 'release_id must be a release id or null.',
  versionRequired: 'Version is required.',
  versionTooLong: `Version must be at most ${RELEASE_VERSION_MAX} characters.`,
  versionCharacters: 'Version may contain only letters, digits, dots, hyphens, underscores and +.',
  releaseNotesTooLong: `Release notes must be at most ${RELEASE_NOTES_MAX} characters.`,
  fileRequired: 'Please select a file to upload.',
  contentType:
    'A release file must be a binary or an archive (application/octet-stream, zip or gzip).',
  s3KeyRequired: 's3_key is required.',
  noChanges: 'No changes to save.',
  channelNotFound: 'Software channel not found.',
  releaseNotFound: 'Software release not found.',
  versionTaken: 'A release with this version already exists.',
  releaseLinked:
    'This release is linked to a software channel. Link another release to the channel (or unlink it) first.',
  uploadNotFound: 'The release file has not been uploaded yet.',
  uploadForeign: 'This upload does not belong to this release.',
  fileEmpty: 'The release file is empty.',
  fileTooLarge: `The release file must be at most ${RELEASE_MAX_BYTES / (1024 * 1024)} MB.`,
  noRelease:
    'This device has no software release to install. Link a release to its software channel first.',
  releaseNotUploaded:
    "The release linked to this device's software channel has no file yet. Upload it first.",
  updateRefused: 'The photobooth could not install the update',
  // The web app's texts (spec section 8).
  loadChannelsFailed: 'Failed to load software channels.',
  loadReleasesFailed: 'Failed to load software releases.',
  loadChannelFailed: 'Failed to load channel details.',
  loadReleaseFailed: 'Failed to load release details.',
  loadReleaseOptionsFailed: 'Could not load releases.',
  createChannelFailed: 'Failed to create channel.',
  updateChannelFailed: 'Failed to update channel.',
  linkReleaseFailed: 'Failed to update release link.',
  deleteChannelFailed: 'Failed to delete channel. It might be in use.',
  createReleaseFailed: 'Failed to create release record.',
  updateReleaseFailed: 'Failed to update release.',
  uploadFailed: 'File upload process failed.',
  deleteReleaseFailed: 'Failed to delete release. It might be linked to a channel.',
  sendUpdateFailed: 'Failed to send software update command.',
  channelCreated: 'Software channel created successfully!',
  channelUpdated: 'Channel details updated successfully!',
  channelLinked: 'Channel release link updated successfully!',
  channelDeleted: 'Channel deleted successfully.',
  releaseUpdated: 'Release details updated successfully!',
  fileUploaded: 'File uploaded and confirmed successfully!',
  releaseDeleted: 'Release deleted successfully.',
  noChannels: 'No software channels found.',
  noReleases: 'No software releases found.',
  updateConfirmation:
    'This will cause the machine to reboot if there is an update! Are you sure you want to proceed?',
} as const;

/** "Software release record '{version}' created! You can now upload the file." */
export const releaseCreatedMessage = (version: string) =>
  `Software release record '${version}' created! You can now upload the file.`;
