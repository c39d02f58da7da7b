import type { DataExport } from '@flashbooth/contracts';
import { PRIVACY_MESSAGES as M } from '@flashbooth/contracts/rules';
import { describe, expect, it } from 'vitest';
import {
  cleanCodeInput,
  closedDeletion,
  codeError,
  type DeletionState,
  deletionReducer,
  EXPORT_POLL_MS,
  exportRefetchInterval,
  exportView,
  formatBytes,
} from './privacy-model';

const base: DataExport = {
  id: 7,
  state: 'pending',
  requested_at: '2025-05-14T10:00:00',
  requested_by_staff: false,
  ready_at: null,
  expires_at: null,
  size_bytes: null,
  item_count: null,
  download_url: null,
};
const ready: DataExport = {
  ...base,
  state: 'ready',
  ready_at: '2025-05-14T10:02:00',
  expires_at: '2025-05-17T10:02:00',
  size_bytes: 3_565_158,
  item_count: 12,
  download_url: '/api/storage/objects/exports/a.zip?sig=x',
};

describe('data export view', () => {
  it('offers to prepare a copy when there is none, and polls only while one is being built', () => {
    expect(exportView(null)).toEqual({ kind: 'none', action: M.exportRequest });
    expect(exportView(base)).toEqual({ kind: 'pending', message: M.exportPending });
    expect(exportRefetchInterval(base)).toBe(EXPORT_POLL_MS);
    expect(exportRefetchInterval(ready)).toBe(false);
    expect(exportRefetchInterval(null)).toBe(false);
    expect(exportRefetchInterval(undefined)).toBe(false);
  });

  it('offers a ready copy with its link, its contents and when the link stops working', () => {
    expect(exportView(ready)).toEqual({
      kind: 'ready',
      message: 'Your data is ready. The download link works until 17/05/2025 10:02.',
      downloadUrl: ready.download_url,
      fileName: 'flashbooth-data-2025-05-14.zip',
      details: '12 photos and videos, 3.4 MB',
      action: M.exportAgain,
    });
    expect(exportView({ ...ready, item_count: 1 })).toMatchObject({
      details: expect.stringMatching(/^1 photo or video,/),
    });
  });

  it('says an expired or failed copy is gone and offers a new one', () => {
    expect(exportView({ ...ready, state: 'expired', download_url: null })).toEqual({
      kind: 'expired',
      message: M.exportExpired,
      action: M.exportRequest,
    });
    // A ready copy without a link (expired between two reads) reads as expired too.
    expect(exportView({ ...ready, download_url: null })).toMatchObject({ kind: 'expired' });
    expect(exportView({ ...base, state: 'failed' })).toEqual({
      kind: 'failed',
      message: M.exportFailed,
      action: M.exportRequest,
    });
  });

  it('writes sizes people read', () => {
    expect(formatBytes(512)).toBe('512 bytes');
    expect(formatBytes(840_000)).toBe('820 KB');
    expect(formatBytes(3_565_158)).toBe('3.4 MB');
    expect(formatBytes(2.5 * 1024 ** 3)).toBe('2.50 GB');
  });
});

describe('account deletion dialog', () => {
  const run = (state: DeletionState, ...events: Parameters<typeof deletionReducer>[1][]) =>
    events.reduce(deletionReducer, state);

  it('explains, sends a code, takes the code and ends deleted', () => {
    let state = run(closedDeletion, { type: 'open' });
    expect(state).toEqual({ step: 'explain', busy: false, error: null });
    state = run(state, { type: 'sendCode' });
    expect(state).toMatchObject({ step: 'explain', busy: true });
    state = run(state, { type: 'codeSent', sentTo: '+919876543210' });
    expect(state).toEqual({
      step: 'code',
      sentTo: '+919876543210',
      code: '',
      busy: false,
      resending: false,
      error: null,
    });
    state = run(state, { type: 'typeCode', text: '12a-3 4 5' });
    expect(state).toMatchObject({ code: '1234' });
    state = run(state, { type: 'submit' });
    expect(state).toMatchObject({ step: 'code', busy: true, error: null });
    // Nothing closes the dialog while the deletion is under way.
    expect(run(state, { type: 'cancel' })).toBe(state);
    state = run(state, { type: 'deleted' });
    expect(state).toEqual({ step: 'deleted' });
    expect(run(state, { type: 'cancel' })).toEqual({ step: 'deleted' });
  });

  it('checks the code before sending and keeps or clears it after a refusal', () => {
    const code = run(
      closedDeletion,
      { type: 'open' },
      { type: 'codeSent', sentTo: '+919876543210' },
      { type: 'typeCode', text: '12' },
    );
    expect(run(code, { type: 'submit' })).toMatchObject({
      busy: false,
      error: M.deleteCodeInvalid,
    });
    const typed = run(code, { type: 'typeCode', text: '1234' }, { type: 'submit' });
    expect(
      run(typed, { type: 'submitFailed', message: M.codeWrong, codeSpent: false }),
    ).toMatchObject({ busy: false, error: M.codeWrong, code: '1234' });
    expect(
      run(typed, { type: 'submitFailed', message: M.codeTooManyAttempts, codeSpent: true }),
    ).toMatchObject({ busy: false, error: M.codeTooManyAttempts, code: '' });
  });

  it('reports a code that could not be sent, and sends a new one on request', () => {
    const failed = run(
      closedDeletion,
      { type: 'open' },
      { type: 'sendCode' },
      { type: 'sendFailed', message: M.deleteSendFailed },
    );
    expect(failed).toEqual({ step: 'explain', busy: false, error: M.deleteSendFailed });
    expect(run(failed, { type: 'cancel' })).toEqual(closedDeletion);

    const code = run(failed, { type: 'codeSent', sentTo: '+91' }, { type: 'typeCode', text: '99' });
    const resending = run(code, { type: 'sendCode' });
    expect(resending).toMatchObject({ step: 'code', resending: true });
    expect(run(resending, { type: 'codeSent', sentTo: '+91' })).toMatchObject({
      code: '',
      resending: false,
    });
  });

  it('keeps the code field to digits', () => {
    expect(cleanCodeInput(' 4 5-6 7 8')).toBe('4567');
    expect(codeError('4567')).toBeNull();
    expect(codeError('45')).toBe(M.deleteCodeInvalid);
  });
});
