import type { SoftwareChannel, SoftwareRelease } from '@flashbooth/contracts';
import { RELEASE_MAX_BYTES, SOFTWARE_MESSAGES as M } from '@flashbooth/contracts/rules';
import { describe, expect, it } from 'vitest';
import {
  channelDescription,
  channelForm,
  channelPatch,
  channelReleaseVersion,
  createChannelBody,
  createdByLabel,
  createReleaseBody,
  formatSizeMb,
  hideUrlQuery,
  linkedReleaseLabel,
  releaseContentType,
  releaseFileError,
  releaseForm,
  releaseIdValue,
  releaseNotesPreview,
  releasePatch,
  SOFTWARE_SCREEN_TEXT,
  truncate,
  uploadPhaseText,
} from './software-model';

const channel: SoftwareChannel = {
  id: 4,
  name: 'Stable',
  description: 'Venues in production',
  release_id: 9,
  release_version: '2.1.0',
  created_at: '2025-05-14T10:20:30',
  created_by: 1,
  created_by_name: 'Asha',
};

const release: SoftwareRelease = {
  id: 9,
  version: '2.1.0',
  release_notes: null,
  is_uploaded: false,
  s3_key: null,
  s3_url: null,
  s3_url_expiry: null,
  sha256: null,
  size_bytes: null,
  created_at: '2025-05-14T10:20:30',
  created_by: 1,
  created_by_name: 'Asha',
};

describe('card and detail texts', () => {
  it('shows a description or release notes cut on the card, or the spec placeholder', () => {
    expect(channelDescription(null)).toBe('(No description)');
    expect(channelDescription('   ')).toBe('(No description)');
    expect(channelDescription('Short')).toBe('Short');
    expect(releaseNotesPreview(null)).toBe('(No release notes)');
    const long = `${'word '.repeat(60)}end`;
    const cut = truncate(long, 40);
    expect(cut.endsWith('…')).toBe(true);
    expect(cut.length).toBeLessThanOrEqual(41);
    expect(long.startsWith(cut.slice(0, -1))).toBe(true);
    expect(truncate('one\n\ntwo   three')).toBe('one two three');
  });

  it('names the linked release by version, by id, or "(None)"', () => {
    expect(channelReleaseVersion(channel)).toBe('2.1.0');
    expect(channelReleaseVersion({ release_version: null })).toBe('(None)');
    expect(linkedReleaseLabel(channel)).toBe('2.1.0');
    expect(linkedReleaseLabel({ release_id: 12, release_version: null })).toBe('ID: 12');
    expect(linkedReleaseLabel({ release_id: null, release_version: null })).toBe('(None)');
  });

  it('shows Created By as name with ID, or the ID only', () => {
    expect(createdByLabel({ created_by: 3, created_by_name: 'Ravi' })).toBe('Ravi (ID: 3)');
    expect(createdByLabel({ created_by: 3, created_by_name: null })).toBe('ID: 3');
    expect(createdByLabel({ created_by: 3, created_by_name: ' ' })).toBe('ID: 3');
    expect(createdByLabel({ created_by: null, created_by_name: null })).toBe('(Unknown)');
  });

  it('formats a size in MB with two decimals', () => {
    expect(formatSizeMb(0)).toBe('0.00 MB');
    expect(formatSizeMb(1024 * 1024)).toBe('1.00 MB');
    expect(formatSizeMb(5_500_000)).toBe('5.25 MB');
    expect(formatSizeMb(RELEASE_MAX_BYTES)).toBe('512.00 MB');
  });

  it("hides a download URL's query and fragment, whatever the store", () => {
    expect(
      hideUrlQuery(
        '/api/storage/objects/software/releases/9/ab.bin?expires=1&sig=abc&name=flashbooth-2.1.0.bin',
      ),
    ).toBe('/api/storage/objects/software/releases/9/ab.bin');
    expect(
      hideUrlQuery('https://bucket.s3.ap-south-1.amazonaws.com/k.zip?X-Amz-Signature=1#frag'),
    ).toBe('https://bucket.s3.ap-south-1.amazonaws.com/k.zip');
    expect(hideUrlQuery('https://cdn.example/k.bin#x')).toBe('https://cdn.example/k.bin');
    expect(hideUrlQuery('https://cdn.example/k.bin')).toBe('https://cdn.example/k.bin');
  });

  it('notes when the download link expires, in UTC', () => {
    expect(SOFTWARE_SCREEN_TEXT.urlExpiry('2025-05-14T11:20:30')).toContain(
      'It expires at 14/05/2025 11:20 UTC',
    );
    expect(SOFTWARE_SCREEN_TEXT.urlExpiry(null)).toContain('hidden');
  });

  it('asks before deleting, in the spec words, and says the file goes too', () => {
    expect(SOFTWARE_SCREEN_TEXT.deleteChannel('Beta')).toBe(
      'Are you sure you want to delete channel "Beta"? This action cannot be undone.',
    );
    expect(SOFTWARE_SCREEN_TEXT.deleteRelease('2.1.0', false)).toBe(
      'Are you sure you want to delete release "2.1.0"? This action cannot be undone.',
    );
    expect(SOFTWARE_SCREEN_TEXT.deleteRelease('2.1.0', true)).toContain('removed from storage');
  });
});

describe('channel forms', () => {
  it('requires a name and sends the optional release link (none by default)', () => {
    expect(createChannelBody({ name: '  ', description: 'x', releaseId: '' })).toEqual({
      kind: 'invalid',
      message: 'Channel name is required.',
    });
    expect(createChannelBody({ name: 'x'.repeat(101), description: '', releaseId: '' })).toEqual({
      kind: 'invalid',
      message: M.channelNameTooLong,
    });
    expect(createChannelBody({ name: ' Beta ', description: '  ', releaseId: '' })).toEqual({
      kind: 'ok',
      body: { name: 'Beta', description: null, release_id: null },
    });
    expect(createChannelBody({ name: 'Beta', description: ' New ', releaseId: '9' })).toEqual({
      kind: 'ok',
      body: { name: 'Beta', description: 'New', release_id: 9 },
    });
  });

  it('reads a release select: "" and anything not an id are none', () => {
    expect(releaseIdValue('')).toBeNull();
    expect(releaseIdValue('0')).toBeNull();
    expect(releaseIdValue('abc')).toBeNull();
    expect(releaseIdValue(' 12 ')).toBe(12);
  });

  it('sends only what changed in Edit Channel, and says when nothing did', () => {
    const form = channelForm(channel);
    expect(form).toEqual({ name: 'Stable', description: 'Venues in production', releaseId: '9' });
    expect(channelPatch(channel, form)).toEqual({ kind: 'unchanged', message: M.noChanges });
    expect(channelPatch(channel, { ...form, name: ' Stable ' }).kind).toBe('unchanged');
    expect(channelPatch(channel, { ...form, description: '' })).toEqual({
      kind: 'ok',
      body: { description: '' },
    });
    expect(channelPatch(channel, { ...form, name: 'Beta' })).toEqual({
      kind: 'ok',
      body: { name: 'Beta' },
    });
    expect(channelPatch(channel, { ...form, name: ' ' })).toEqual({
      kind: 'invalid',
      message: 'Channel name is required.',
    });
  });
});

describe('release forms', () => {
  it('requires a version of letters, digits and . _ + -', () => {
    expect(createReleaseBody({ version: ' ', releaseNotes: 'x' })).toEqual({
      kind: 'invalid',
      message: 'Version is required.',
    });
    expect(createReleaseBody({ version: '1.0 beta', releaseNotes: '' })).toEqual({
      kind: 'invalid',
      message: M.versionCharacters,
    });
    expect(createReleaseBody({ version: ' 1.0.0-rc.1+b7 ', releaseNotes: '  ' })).toEqual({
      kind: 'ok',
      body: { version: '1.0.0-rc.1+b7', release_notes: null },
    });
  });

  it('sends only what changed in Edit Details, and says when nothing did', () => {
    const form = releaseForm(release);
    expect(releasePatch(release, form)).toEqual({ kind: 'unchanged', message: M.noChanges });
    expect(releasePatch(release, { ...form, releaseNotes: 'Faster prints' })).toEqual({
      kind: 'ok',
      body: { release_notes: 'Faster prints' },
    });
    expect(releasePatch(release, { ...form, version: '' })).toEqual({
      kind: 'invalid',
      message: 'Version is required.',
    });
  });
});

describe('release file', () => {
  it('requires a file, not empty, at most 512 MB', () => {
    expect(releaseFileError(null)).toBe('Please select a file to upload.');
    expect(releaseFileError({ size: 0 })).toBe(M.fileEmpty);
    expect(releaseFileError({ size: RELEASE_MAX_BYTES + 1 })).toBe(M.fileTooLarge);
    expect(releaseFileError({ size: RELEASE_MAX_BYTES })).toBeNull();
  });

  it("sends an archive's own type and anything else as application/octet-stream", () => {
    expect(releaseContentType({ type: 'application/zip' })).toBe('application/zip');
    expect(releaseContentType({ type: 'application/x-gzip' })).toBe('application/x-gzip');
    expect(releaseContentType({ type: '' })).toBe('application/octet-stream');
    expect(releaseContentType({ type: 'application/vnd.debian.binary-package' })).toBe(
      'application/octet-stream',
    );
    expect(releaseContentType({ type: 'text/html' })).toBe('application/octet-stream');
  });

  it('says where the upload is', () => {
    expect(uploadPhaseText('uploading', 42)).toBe('Uploading… 42%');
    expect(uploadPhaseText('idle', 0)).toBe('');
  });
});
