import type { SoftwareChannel, SoftwareRelease } from '@flashbooth/contracts';
import {
  RELEASE_CONTENT_TYPES,
  RELEASE_DEFAULT_CONTENT_TYPE,
  RELEASE_MAX_BYTES,
  RELEASE_VERSION_MAX,
  RELEASE_VERSION_PATTERN,
  SOFTWARE_MESSAGES,
  SOFTWARE_NAME_MAX,
} from '@flashbooth/contracts/rules';
import { changedFields, isEmptyChange } from '@/components/console/changed-fields';
import type { FormOutcome } from '@/components/console/use-form-submit';
import { formatUtcTimestamp } from '@/lib/format-date';

const M = SOFTWARE_MESSAGES;

/** Spec section 9: messages hide after 5 s (the return after a delete: the console kit's). */
export const SOFTWARE_STATUS_MS = 5000;
/** Longer descriptions and notes are cut on the list's cards (the detail shows them whole). */
export const CARD_TEXT_MAX = 140;

/** The screens' texts beyond section 8's (placeholders, confirmations, notes). */
export const SOFTWARE_SCREEN_TEXT = {
  noDescription: '(No description)',
  noReleaseNotes: '(No release notes)',
  none: '(None)',
  unlink: '(None - Unlink)',
  unknownCreator: '(Unknown)',
  versionPlaceholder: '1.0.0',
  fileNextStep: 'The release file is uploaded in the next step, from the release’s page.',
  noChannelSearchMatch: (search: string) => `No software channels match “${search}”.`,
  noReleaseSearchMatch: (search: string) => `No software releases match “${search}”.`,
  deleteChannel: (name: string) =>
    `Are you sure you want to delete channel "${name}"? This action cannot be undone.`,
  deleteRelease: (version: string, uploaded: boolean) =>
    `Are you sure you want to delete release "${version}"? This action cannot be undone.` +
    (uploaded ? ' Its uploaded file will be removed from storage too.' : ''),
  urlExpiry: (expiry: string | null) =>
    expiry
      ? `Signed link: its query part (the signature) is hidden here. It expires at ${formatUtcTimestamp(expiry)} UTC; reload the page for a new one.`
      : 'Signed link: its query part (the signature) is hidden here. It expires after a while; reload the page for a new one.',
} as const;

/** Cuts text for a card at a word near `max`, with an ellipsis; short text is left as it is. */
export function truncate(text: string, max = CARD_TEXT_MAX): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat.length <= max) return flat;
  const cut = flat.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** A card's description, cut, or "(No description)". */
export function channelDescription(description: string | null): string {
  return description?.trim() ? truncate(description) : SOFTWARE_SCREEN_TEXT.noDescription;
}

/** A card's release notes, cut, or "(No release notes)". */
export function releaseNotesPreview(notes: string | null): string {
  return notes?.trim() ? truncate(notes) : SOFTWARE_SCREEN_TEXT.noReleaseNotes;
}

/** The channel card's Release: its version, or "(None)". */
export function channelReleaseVersion(channel: Pick<SoftwareChannel, 'release_version'>): string {
  return channel.release_version ?? SOFTWARE_SCREEN_TEXT.none;
}

/** The detail's Linked Release: the version, or "ID: n" when only the id is known, or "(None)". */
export function linkedReleaseLabel(
  channel: Pick<SoftwareChannel, 'release_id' | 'release_version'>,
): string {
  if (channel.release_version) return channel.release_version;
  if (channel.release_id !== null) return `ID: ${channel.release_id}`;
  return SOFTWARE_SCREEN_TEXT.none;
}

/** Created By: "name (ID: n)", or "ID: n" when the account has no name. */
export function createdByLabel(record: {
  created_by: number | null;
  created_by_name: string | null;
}): string {
  const name = record.created_by_name?.trim();
  if (record.created_by === null) return name || SOFTWARE_SCREEN_TEXT.unknownCreator;
  return name ? `${name} (ID: ${record.created_by})` : `ID: ${record.created_by}`;
}

/** File Uploaded: "Yes" or "No". */
export function yesNo(value: boolean): 'Yes' | 'No' {
  return value ? 'Yes' : 'No';
}

/** A file's size in MB (1 MB = 1024 × 1024 bytes), two decimals: "12.35 MB". */
export function formatSizeMb(bytes: number): string {
  const megabytes = Math.max(0, bytes) / (1024 * 1024);
  return `${megabytes.toFixed(2)} MB`;
}

/**
 * A download URL with its query (the signature and expiry) and fragment left out, so the screen
 * never shows a working credential: "https://bucket…/key.bin?X-Amz-…" → "https://bucket…/key.bin".
 */
export function hideUrlQuery(url: string): string {
  const end = url.search(/[?#]/);
  return end === -1 ? url : url.slice(0, end);
}

// ---- channel forms ----

export interface ChannelFormValues {
  name: string;
  description: string;
  /** The release select's value: '' for none, else the release id. */
  releaseId: string;
}
export const EMPTY_CHANNEL_FORM: ChannelFormValues = { name: '', description: '', releaseId: '' };

export function channelForm(channel: SoftwareChannel): ChannelFormValues {
  return {
    name: channel.name,
    description: channel.description ?? '',
    releaseId: channel.release_id === null ? '' : String(channel.release_id),
  };
}

/** A release select's value as the API's release_id: null for none. */
export function releaseIdValue(value: string): number | null {
  const trimmed = value.trim();
  return /^\d+$/.test(trimmed) && Number(trimmed) > 0 ? Number(trimmed) : null;
}

function channelNameError(name: string): string | null {
  if (!name) return M.channelNameRequired;
  if (name.length > SOFTWARE_NAME_MAX) return M.channelNameTooLong;
  return null;
}

/** POST software/channels as the create dialog sends it. */
export interface ChannelCreateBody {
  name: string;
  description: string | null;
  release_id: number | null;
}

/** Create Channel: the name is required; description and the release link are optional. */
export function createChannelBody(form: ChannelFormValues): FormOutcome<ChannelCreateBody> {
  const name = form.name.trim();
  const error = channelNameError(name);
  if (error) return { kind: 'invalid', message: error };
  return {
    kind: 'ok',
    body: {
      name,
      description: form.description.trim() || null,
      release_id: releaseIdValue(form.releaseId),
    },
  };
}

const CHANNEL_EDIT_FIELDS = ['name', 'description'] as const;

/** Edit Channel: only the changed name and description are sent; none changed says so. */
export function channelPatch(
  channel: SoftwareChannel,
  form: Pick<ChannelFormValues, 'name' | 'description'>,
): FormOutcome<{ name?: string; description?: string }> {
  const changes = changedFields(channel, form, CHANNEL_EDIT_FIELDS);
  if (isEmptyChange(changes)) return { kind: 'unchanged', message: M.noChanges };
  if (changes.name !== undefined) {
    const error = channelNameError(changes.name);
    if (error) return { kind: 'invalid', message: error };
  }
  return { kind: 'ok', body: changes };
}

// ---- release forms ----

export interface ReleaseFormValues {
  version: string;
  releaseNotes: string;
}
export const EMPTY_RELEASE_FORM: ReleaseFormValues = { version: '', releaseNotes: '' };

export function releaseForm(release: SoftwareRelease): ReleaseFormValues {
  return { version: release.version, releaseNotes: release.release_notes ?? '' };
}

function versionError(version: string): string | null {
  if (!version) return M.versionRequired;
  if (version.length > RELEASE_VERSION_MAX) return M.versionTooLong;
  if (!RELEASE_VERSION_PATTERN.test(version)) return M.versionCharacters;
  return null;
}

/** Create Release: the version is required (letters, digits, . _ + -); notes are optional. */
export function createReleaseBody(
  form: ReleaseFormValues,
): FormOutcome<{ version: string; release_notes: string | null }> {
  const version = form.version.trim();
  const error = versionError(version);
  if (error) return { kind: 'invalid', message: error };
  return { kind: 'ok', body: { version, release_notes: form.releaseNotes.trim() || null } };
}

/** Edit Details: only a changed version and release notes are sent; none changed says so. */
export function releasePatch(
  release: SoftwareRelease,
  form: ReleaseFormValues,
): FormOutcome<{ version?: string; release_notes?: string }> {
  const changes = changedFields(
    { version: release.version, release_notes: release.release_notes },
    { version: form.version, release_notes: form.releaseNotes },
    ['version', 'release_notes'] as const,
  );
  if (isEmptyChange(changes)) return { kind: 'unchanged', message: M.noChanges };
  if (changes.version !== undefined) {
    const error = versionError(changes.version);
    if (error) return { kind: 'invalid', message: error };
  }
  return { kind: 'ok', body: changes };
}

// ---- release file ----

/**
 * The type the file is presigned and PUT with (spec: default application/octet-stream): the
 * browser's own type when the server takes it as a release (zip, gzip, tar), else a raw binary.
 */
export function releaseContentType(file: Pick<File, 'type'>): string {
  const type = file.type.trim().toLowerCase();
  return (RELEASE_CONTENT_TYPES as readonly string[]).includes(type)
    ? type
    : RELEASE_DEFAULT_CONTENT_TYPE;
}

/** Why the chosen file cannot be uploaded, before anything is sent; null when it can. */
export function releaseFileError(file: Pick<File, 'size'> | null): string | null {
  if (!file) return M.fileRequired;
  if (file.size === 0) return M.fileEmpty;
  if (file.size > RELEASE_MAX_BYTES) return M.fileTooLarge;
  return null;
}

/** The upload's steps, for the dialog's status line. */
export type UploadPhase = 'idle' | 'preparing' | 'uploading' | 'confirming' | 'done' | 'failed';

export function uploadPhaseText(phase: UploadPhase, percent: number): string {
  switch (phase) {
    case 'preparing':
      return 'Preparing the upload…';
    case 'uploading':
      return `Uploading… ${percent}%`;
    case 'confirming':
      return 'Checking the file…';
    case 'done':
      return 'Upload complete.';
    default:
      return '';
  }
}
