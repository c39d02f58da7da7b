/**
 * Runtime configuration the server injects into index.html (so one build serves every
 * installation): support address and the Book a Demo form address.
 */
export interface AppConfig {
  supportEmail: string;
  demoFormUrl: string;
  partnershipEmail: string;
  /** PUBLIC_URL when the installation sets it: the address printed on booth QR posters. */
  publicUrl?: string;
  /** Non-production only: capture timings may be scaled by `?timing_scale=` (tests). */
  allowTimingScale?: boolean;
  /**
   * The passkeys' relying party (its id and the origins the server accepts): passkeys are offered
   * only there. Absent (the Vite dev server): wherever the browser has WebAuthn.
   */
  passkeys?: PasskeyRelyingParty;
}

export interface PasskeyRelyingParty {
  rpId: string;
  origins: string[];
}

const DEFAULTS: AppConfig = {
  supportEmail: 'support@flashbooth.example',
  partnershipEmail: 'partners@flashbooth.example',
  demoFormUrl: '/book-a-demo.html',
};

function read(): AppConfig {
  if (typeof document === 'undefined') return DEFAULTS;
  const element = document.getElementById('app-config');
  if (!element?.textContent) return DEFAULTS;
  try {
    return { ...DEFAULTS, ...(JSON.parse(element.textContent) as Partial<AppConfig>) };
  } catch {
    return DEFAULTS;
  }
}

export const appConfig: AppConfig = read();
