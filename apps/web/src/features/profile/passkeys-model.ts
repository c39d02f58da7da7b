import { PASSKEY_MESSAGES, PASSKEY_NAME_MAX_LENGTH } from '@flashbooth/contracts/rules';
import { formatUtcTimestamp } from '@/lib/format-date';

export const PASSKEY_SCREEN_MESSAGES = {
  added: 'Passkey added.',
  removed: 'Passkey removed.',
  loadFailed: 'Failed to load your passkeys.',
  empty: 'No passkeys yet. Add one to sign in with your fingerprint, face or screen lock.',
  /** Where none can be added (the hint above says why): no invitation to add one. */
  emptyUnavailable: 'No passkeys yet.',
  removeConfirm: (name: string) =>
    `Remove the passkey "${name}"? You will no longer be able to sign in with it.`,
  unsupported: 'This browser cannot create passkeys.',
  /** Opened at an address the passkeys' relying party does not cover (e.g. 127.0.0.1). */
  otherAddress: (home: string) =>
    `Passkeys can be added only at ${home}. Open the site there to add one.`,
} as const;

const BROWSERS: [RegExp, string][] = [
  [/Edg\//, 'Edge'],
  [/SamsungBrowser\//, 'Samsung Internet'],
  [/OPR\//, 'Opera'],
  [/Firefox\//, 'Firefox'],
  [/Chrome\/|Chromium\/|CriOS\//, 'Chrome'],
  [/Safari\//, 'Safari'],
];
const SYSTEMS: [RegExp, string][] = [
  [/Android/, 'Android'],
  [/iPhone/, 'iPhone'],
  [/iPad/, 'iPad'],
  [/Mac OS X|Macintosh/, 'Mac'],
  [/Windows/, 'Windows'],
  [/CrOS/, 'ChromeOS'],
  [/Linux/, 'Linux'],
];

/** A name to start from, from the browser's user agent: "Chrome on Android"; "My passkey" if unknown. */
export function suggestPasskeyName(userAgent: string): string {
  const browser = BROWSERS.find(([pattern]) => pattern.test(userAgent))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(userAgent))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? 'My passkey';
}

/** The name as it will be saved (trimmed), or the message of what is wrong with it. */
export function checkPasskeyName(name: string): { name: string } | { error: string } {
  const trimmed = name.trim();
  if (!trimmed) return { error: PASSKEY_MESSAGES.nameRequired };
  if (trimmed.length > PASSKEY_NAME_MAX_LENGTH) return { error: PASSKEY_MESSAGES.nameTooLong };
  return { name: trimmed };
}

/** "Last used 14/05/2025 10:20" or "Never used". */
export function lastUsedText(lastUsedAt: string | null): string {
  return lastUsedAt ? `Last used ${formatUtcTimestamp(lastUsedAt)}` : 'Never used';
}

export function addedText(createdAt: string): string {
  return `Added ${formatUtcTimestamp(createdAt)}`;
}
