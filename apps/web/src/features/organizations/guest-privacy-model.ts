import type { DataExport, ErasureResult } from '@flashbooth/contracts';
import { PRIVACY_MESSAGES } from '@flashbooth/contracts/rules';
import { formatUtcTimestamp } from '@/lib/format-date';

/** Texts of the guests' privacy actions (super users, on the person's request). */
export const GUEST_PRIVACY_TEXT = {
  exportButton: 'Export data',
  eraseButton: 'Erase account',
  exportTitle: (name: string) => `Data export: ${name}`,
  exportIntro:
    'Prepares a ZIP of this person’s profile, photos and videos, likes, comments, transactions and credit history, for you to hand over on their request. This is logged.',
  exportStart: 'Prepare export',
  exportLoadFailed: 'Failed to load the data export. Please try again.',
  exportFailed: 'Could not start the data export. Please try again.',
  close: 'Close',
  eraseTitle: 'Erase account',
  eraseConfirm: (name: string) =>
    `Erase ${name}'s account and all their data (photos, videos, likes, comments, credit) at once? This cannot be undone. Payment records are kept without name or phone. This is logged.`,
  eraseAction: 'Yes, Erase',
  eraseFailed: 'Could not erase the account. Please try again.',
} as const;

/** The toast after an erasure: what went, in counts. */
export function erasedText(name: string, result: ErasureResult): string {
  const media = result.counts.media ?? 0;
  return `${name}'s account was erased with ${media} ${media === 1 ? 'photo or video' : 'photos and videos'}.`;
}

/** While a person's export is being built the dialog asks again this often. */
export function personExportPollMs(current: DataExport | null | undefined): number | false {
  return current?.state === 'pending' ? 3000 : false;
}

/** What the export dialog says about the person's latest export, and its link when ready. */
export function personExportState(current: DataExport | null): {
  text: string | null;
  url: string | null;
  busy: boolean;
} {
  if (!current) return { text: null, url: null, busy: false };
  if (current.state === 'pending') {
    return { text: PRIVACY_MESSAGES.exportPending, url: null, busy: true };
  }
  if (current.state === 'ready' && current.download_url && current.expires_at) {
    return {
      text: `The ZIP is ready. Its download link works until ${formatUtcTimestamp(current.expires_at)}.`,
      url: current.download_url,
      busy: false,
    };
  }
  if (current.state === 'failed')
    return { text: PRIVACY_MESSAGES.exportFailed, url: null, busy: false };
  return { text: PRIVACY_MESSAGES.exportExpired, url: null, busy: false };
}
