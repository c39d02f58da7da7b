/**
 * A person's data export and account erasure (visitor profile, staff console): states, limits
 * and texts without a schema library, so the web app can use them at runtime through
 * `@flashbooth/contracts/rules` (the zod schemas are in privacy.ts).
 */

/** An export is built in the background (pending), then offered until it expires. */
export const DATA_EXPORT_STATES = ['pending', 'ready', 'failed', 'expired'] as const;
export type DataExportState = (typeof DATA_EXPORT_STATES)[number];

/** The file name a downloaded export is saved as (the date it was made, yyyy-mm-dd). */
export function dataExportFileName(readyAt: string): string {
  return `flashbooth-data-${readyAt.slice(0, 10)}.zip`;
}

/** The erasure confirmation code: digits, as long as a sign-in code. */
export const ERASURE_CODE_LENGTH = 4;

export const PRIVACY_MESSAGES = {
  exportHeading: 'Download my data',
  exportIntro:
    'Get a copy of your profile, every photo and video in full quality, their captions, likes and comments, your transactions and your credit history, in one ZIP file.',
  exportRequest: 'Prepare my data',
  exportPending: 'Preparing your data. This can take a few minutes; you can leave this page.',
  exportAgain: 'Prepare a new copy',
  exportDownload: 'Download ZIP',
  /** `{when}`: the date and time the link stops working. */
  exportReady: (when: string) => `Your data is ready. The download link works until ${when}.`,
  exportExpired: 'Your last copy has expired and was deleted. Prepare a new one to download.',
  exportFailed:
    'We could not prepare your data. Please try again; if it fails again, contact support.',
  exportRequestFailed: 'Could not start preparing your data. Please try again.',
  exportLoadFailed: 'Could not load your data download. Please reload the page.',

  deleteHeading: 'Delete my account',
  deleteIntro:
    'Deleting your account removes your profile, every photo and video, your likes and comments, and any remaining credit, at once and for good. You are signed out everywhere.',
  deletePaymentsKept:
    'Records of your payments are kept without your name or phone number, as the law on accounts requires.',
  deleteStart: 'Delete my account',
  deleteDialogTitle: 'Delete your account?',
  /** `{phone}`: where the code went. */
  deleteCodeSent: (phone: string) => `We sent a 4-digit code to ${phone}. Enter it to confirm.`,
  deleteCodeLabel: 'Confirmation code',
  deleteConfirm: 'Delete my account for good',
  deleteConfirming: 'Deleting...',
  deleteSendCode: 'Send code',
  deleteSendingCode: 'Sending code...',
  deleteResendCode: 'Send a new code',
  deleteCancel: 'Cancel',
  deleteCodeInvalid: 'Enter the 4-digit code from the SMS.',
  deleteSendFailed: 'Could not send the code. Please try again.',
  deleteFailed: 'Could not delete your account. Please try again.',
  /** Shown on the sign-in screen after the account was deleted. */
  deleted: 'Your account and your data have been deleted, and you have been signed out everywhere.',

  // Server answers.
  codeWrong: 'That code is not right. Check the SMS and try again.',
  codeExpired: 'This code has expired or was already used. Send a new code.',
  codeTooManyAttempts: 'Too many wrong codes. Send a new code.',
  codeSendLimit: 'Too many codes were sent. Please try again in an hour.',
  exportNotFound: 'No data download was found.',
  personNotFound: 'Person not found.',
  staffOnlyVisitors: 'Only visitor accounts can be exported or erased from the console.',
} as const;

/** Codes sent per account per hour for erasure confirmations. */
export const ERASURE_CODE_SENDS_PER_HOUR = 3;
