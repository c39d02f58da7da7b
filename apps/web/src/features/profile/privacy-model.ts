import type { DataExport } from '@flashbooth/contracts';
import {
  dataExportFileName,
  ERASURE_CODE_LENGTH,
  PRIVACY_MESSAGES as M,
} from '@flashbooth/contracts/rules';
import { formatUtcTimestamp } from '@/lib/format-date';

/** While an export is being built the profile asks again this often. */
export const EXPORT_POLL_MS = 3000;

/** "3.4 MB", "820 KB", "512 bytes". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  return `${(bytes / (1024 * 1024 * 1024)).toFixed(2)} GB`;
}

/** What the "Download my data" card shows for the latest export. */
export type ExportView =
  | { kind: 'none'; action: string }
  | { kind: 'pending'; message: string }
  | {
      kind: 'ready';
      message: string;
      downloadUrl: string;
      fileName: string;
      details: string;
      action: string;
    }
  | { kind: 'expired' | 'failed'; message: string; action: string };

export function exportView(current: DataExport | null): ExportView {
  if (!current) return { kind: 'none', action: M.exportRequest };
  switch (current.state) {
    case 'pending':
      return { kind: 'pending', message: M.exportPending };
    case 'ready':
      if (current.download_url && current.expires_at && current.ready_at) {
        const items = current.item_count ?? 0;
        const size = current.size_bytes === null ? '' : `, ${formatBytes(current.size_bytes)}`;
        return {
          kind: 'ready',
          message: M.exportReady(formatUtcTimestamp(current.expires_at)),
          downloadUrl: current.download_url,
          fileName: dataExportFileName(current.ready_at),
          details: `${items} ${items === 1 ? 'photo or video' : 'photos and videos'}${size}`,
          action: M.exportAgain,
        };
      }
      return { kind: 'expired', message: M.exportExpired, action: M.exportRequest };
    case 'expired':
      return { kind: 'expired', message: M.exportExpired, action: M.exportRequest };
    case 'failed':
      return { kind: 'failed', message: M.exportFailed, action: M.exportRequest };
  }
}

/** How often to ask about the export again: while it is being built, every few seconds. */
export function exportRefetchInterval(current: DataExport | null | undefined): number | false {
  return current?.state === 'pending' ? EXPORT_POLL_MS : false;
}

/** The confirmation code as typed, digits only, at most the code's length. */
export function cleanCodeInput(text: string): string {
  return text.replace(/\D/g, '').slice(0, ERASURE_CODE_LENGTH);
}

/** Null when the code can be sent; otherwise what to fix. */
export function codeError(code: string): string | null {
  return new RegExp(`^\\d{${ERASURE_CODE_LENGTH}}$`).test(code) ? null : M.deleteCodeInvalid;
}

/**
 * The "Delete my account" dialog, step by step: read what it does and ask for a code, enter the
 * code, and (once deleted) the end. `error` is the last failure, shown in the dialog.
 */
export type DeletionState =
  | { step: 'closed' }
  | { step: 'explain'; busy: boolean; error: string | null }
  | {
      step: 'code';
      sentTo: string;
      code: string;
      busy: boolean;
      resending: boolean;
      error: string | null;
    }
  | { step: 'deleted' };

export type DeletionEvent =
  | { type: 'open' }
  | { type: 'cancel' }
  | { type: 'sendCode' }
  | { type: 'codeSent'; sentTo: string }
  | { type: 'sendFailed'; message: string }
  | { type: 'typeCode'; text: string }
  | { type: 'submit' }
  | { type: 'submitFailed'; message: string; codeSpent: boolean }
  | { type: 'deleted' };

export const closedDeletion: DeletionState = { step: 'closed' };

export function deletionReducer(state: DeletionState, event: DeletionEvent): DeletionState {
  switch (event.type) {
    case 'open':
      return state.step === 'closed' ? { step: 'explain', busy: false, error: null } : state;
    case 'cancel':
      // Nothing can be cancelled while a call is out or once the account is gone.
      if (state.step === 'deleted') return state;
      if ((state.step === 'explain' || state.step === 'code') && state.busy) return state;
      return closedDeletion;
    case 'sendCode':
      if (state.step === 'explain') return { ...state, busy: true, error: null };
      if (state.step === 'code') return { ...state, resending: true, error: null };
      return state;
    case 'codeSent':
      if (state.step !== 'explain' && state.step !== 'code') return state;
      return {
        step: 'code',
        sentTo: event.sentTo,
        code: '',
        busy: false,
        resending: false,
        error: null,
      };
    case 'sendFailed':
      if (state.step === 'explain') return { ...state, busy: false, error: event.message };
      if (state.step === 'code') return { ...state, resending: false, error: event.message };
      return state;
    case 'typeCode':
      if (state.step !== 'code') return state;
      return { ...state, code: cleanCodeInput(event.text), error: null };
    case 'submit': {
      if (state.step !== 'code' || state.busy) return state;
      const problem = codeError(state.code);
      return problem ? { ...state, error: problem } : { ...state, busy: true, error: null };
    }
    case 'submitFailed':
      if (state.step !== 'code') return state;
      // A code that can no longer work is cleared: the person sends a new one.
      return {
        ...state,
        busy: false,
        error: event.message,
        code: event.codeSpent ? '' : state.code,
      };
    case 'deleted':
      return { step: 'deleted' };
  }
}
