// A booth on its own: `node --import tsx apps/booth-agent/src/main.ts` (README, "Running a booth
// against any server").
import { agentFromEnv } from './agent-from-env.js';
import { AgentEnvError, loadAgentEnv } from './env.js';
import { exitOnSignals } from './exit-on-signals.js';
import { consoleLog } from './log.js';
import { BOOTH_AGENT_VERSION } from './version.js';

async function main(): Promise<void> {
  let env;
  try {
    env = loadAgentEnv();
  } catch (error) {
    if (error instanceof AgentEnvError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  const log = consoleLog(env.logLevel);
  const agent = agentFromEnv(env, log, {
    onUpdated: (release) => {
      if (!release.app) {
        log.warn(
          { version: release.version, file: release.file, releasesDir: env.releasesDir },
          'release installed: restart the booth agent to run it',
        );
        return;
      }
      // Installed by install.sh: the `current` link names the new release now. This process ends
      // (reporting offline) and systemd (Restart=always) starts the service from the link again.
      log.info({ version: release.version, app: release.app }, 'release installed: restarting');
      void agent.stop().finally(() => process.exit(0));
    },
  });

  exitOnSignals(log, () => agent.stop());

  log.info(
    {
      thingName: env.thingName,
      broker: env.mqttUrl,
      camera: env.cameraDescription,
      printer: env.printerDescription,
      stateFile: env.stateFile,
      releasesDir: env.releasesDir,
      queueDir: env.queueDir,
      version: BOOTH_AGENT_VERSION,
    },
    'booth agent starting',
  );
  await agent.start();
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
