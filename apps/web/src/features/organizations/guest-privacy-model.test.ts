import { describe, expect, it } from 'vitest';
import type { DataExport } from '@flashbooth/contracts';
import { PRIVACY_MESSAGES } from '@flashbooth/contracts/rules';
import {
  erasedText,
  GUEST_PRIVACY_TEXT,
  personExportPollMs,
  personExportState,
} from './guest-privacy-model';

const pending: DataExport = {
  id: 1,
  state: 'pending',
  requested_at: '2025-05-14T10:00:00',
  requested_by_staff: true,
  ready_at: null,
  expires_at: null,
  size_bytes: null,
  item_count: null,
  download_url: null,
};

describe('guest privacy model', () => {
  it('says what an erasure removed, in counts', () => {
    expect(erasedText('Gita', { user_id: 4, counts: { media: 3, likes: 2 } })).toBe(
      "Gita's account was erased with 3 photos and videos.",
    );
    expect(erasedText('Gita', { user_id: 4, counts: { media: 1 } })).toBe(
      "Gita's account was erased with 1 photo or video.",
    );
    expect(erasedText('Gita', { user_id: 4, counts: {} })).toBe(
      "Gita's account was erased with 0 photos and videos.",
    );
  });

  it('warns that erasing cannot be undone and is logged', () => {
    expect(GUEST_PRIVACY_TEXT.eraseConfirm('Gita')).toMatch(/cannot be undone.*logged\.$/);
  });

  it('follows the person’s export until its link is there', () => {
    expect(personExportState(null)).toEqual({ text: null, url: null, busy: false });
    expect(personExportState(pending)).toEqual({
      text: PRIVACY_MESSAGES.exportPending,
      url: null,
      busy: true,
    });
    expect(personExportPollMs(pending)).toBe(3000);
    const ready: DataExport = {
      ...pending,
      state: 'ready',
      ready_at: '2025-05-14T10:01:00',
      expires_at: '2025-05-17T10:01:00',
      download_url: '/x.zip',
    };
    expect(personExportState(ready)).toEqual({
      text: 'The ZIP is ready. Its download link works until 17/05/2025 10:01.',
      url: '/x.zip',
      busy: false,
    });
    expect(personExportPollMs(ready)).toBe(false);
    expect(personExportState({ ...pending, state: 'expired' }).text).toBe(
      PRIVACY_MESSAGES.exportExpired,
    );
  });
});
