import { removeSessionValue, sessionValue, setSessionValue } from '../../lib/storage';

/**
 * "Yes, I'm Here" answered at this booth, remembered in the tab for the page's first paint only.
 * The visit on the server is what decides whether the Confirm Your Location dialog is asked
 * (issue 37); but the booth page is painted from HTML made for every visitor, dialog open, and a
 * visitor back from the payment app in a reloaded tab would see the dialog until the app had
 * started and read the visit. With this hint the app's loader (apps/web/scripts/prerender.ts)
 * hides the HTML's dialog and starts the app at once, and the app waits for the visit before
 * showing it; the visit still decides (no hint on a second phone: the dialog shows until the
 * visit says otherwise, as before).
 */
export const HERE_HINT_KEY = 'boothHere';

export function rememberHere(deviceId: number): void {
  // Refused storage: the dialog shows from the HTML until the visit is read.
  setSessionValue(HERE_HINT_KEY, String(deviceId));
}

export function forgetHere(): void {
  removeSessionValue(HERE_HINT_KEY);
}

/** Whether this tab answered the dialog at this booth lately (a hint, not the answer). */
export function hintedHere(deviceId: number): boolean {
  return sessionValue(HERE_HINT_KEY) === String(deviceId);
}
