import { DeviceSettingsMessageSchema } from '@flashbooth/contracts';
import type { AgentLog } from './log.js';
import type { BoothState } from './state.js';

/**
 * Applies a settings message (retained, so one arrives on every connection) to `state`: only a
 * revision newer than the one applied counts, since the retained message repeats an applied
 * restock on every reconnect and the prints printed since must not be undone. Anything else is
 * logged and ignored. True when `state` changed: the caller saves it and reports the status.
 */
export function applySettings(
  state: BoothState,
  payload: Buffer,
  context: { thingName: string; log: AgentLog },
): boolean {
  const { thingName, log } = context;
  // An empty retained message clears the topic; there is nothing to apply.
  if (payload.length === 0) return false;
  let json: unknown;
  try {
    json = JSON.parse(payload.toString('utf8'));
  } catch {
    log.warn({ thingName }, 'ignoring settings that are not JSON');
    return false;
  }
  const parsed = DeviceSettingsMessageSchema.safeParse(json);
  if (!parsed.success) {
    log.warn(
      { thingName, issues: parsed.error.issues.map((issue) => issue.message) },
      'ignoring malformed settings',
    );
    return false;
  }
  const { revision, prints_left: printsLeft } = parsed.data;
  if (revision <= state.settings_revision) {
    log.debug({ revision, applied: state.settings_revision }, 'settings already applied');
    return false;
  }
  state.settings_revision = revision;
  state.prints_left = printsLeft;
  log.info({ revision, printsLeft }, 'applied new settings (restock)');
  return true;
}
