import { BoothAgent } from './agent.js';
import type { BoothAgentOptions } from './agent-options.js';
import type { AgentEnv } from './env.js';
import type { AgentLog } from './log.js';
import type { InstalledRelease } from './updater.js';
import { BOOTH_AGENT_VERSION } from './version.js';

/** The booth agent its settings describe (main.ts runs one, fleet.ts many). */
export function agentFromEnv(
  env: AgentEnv,
  log: AgentLog,
  hooks: {
    onUpdated?: (release: InstalledRelease) => void;
    /** A load test's fleet: a print composed once (fleet-reuse.ts). */
    compose?: BoothAgentOptions['compose'];
  } = {},
): BoothAgent {
  return new BoothAgent({
    mqttUrl: env.mqttUrl,
    thingName: env.thingName,
    secret: env.secret,
    serverUrl: env.serverUrl,
    camera: env.camera,
    printer: env.printer,
    ...(hooks.compose ? { compose: hooks.compose } : {}),
    softwareVersion: BOOTH_AGENT_VERSION,
    stateFile: env.stateFile,
    releasesDir: env.releasesDir,
    // Photos and prints wait here until the server confirms them, across restarts.
    queueDir: env.queueDir,
    queueWarnItems: env.queueWarnItems,
    timers: env.timers,
    // This process keeps running the old code: a supervisor restarts it into the new release
    // (README, "Software updates"). It does not exit by itself, so a demo booth stays up.
    onUpdated:
      hooks.onUpdated ??
      ((release) =>
        log.warn(
          { version: release.version, file: release.file, releasesDir: env.releasesDir },
          'release installed: restart the booth agent to run it',
        )),
    log,
  });
}
