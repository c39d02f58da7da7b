import type { VisitorDevice, VisitorTemplatePage } from '@flashbooth/contracts';

/**
 * What the server puts in the booth page's HTML for the app (`#booth-data`, written by
 * apps/server/src/plugins/web-app.ts): the booth and the first page of its templates as the
 * visitor API answers them, and when they were read, so the app starts with no request for them
 * and asks again once they are stale.
 */
export interface InlinedBooth {
  device_id: number;
  rendered_at: number;
  device: VisitorDevice;
  templates: VisitorTemplatePage;
}

let read = false;
let inlined: InlinedBooth | null = null;

function parse(): InlinedBooth | null {
  if (typeof document === 'undefined') return null;
  const text = document.getElementById('booth-data')?.textContent;
  if (!text) return null;
  try {
    const value = JSON.parse(text) as InlinedBooth;
    return typeof value.device_id === 'number' && value.device && value.templates ? value : null;
  } catch {
    // A page that does not parse is only a missed head start: the app asks the API.
    return null;
  }
}

/** The booth the page was sent with, when it is this booth. */
export function inlinedBooth(deviceId: number): InlinedBooth | undefined {
  if (!read) {
    inlined = parse();
    read = true;
  }
  return inlined?.device_id === deviceId ? inlined : undefined;
}
