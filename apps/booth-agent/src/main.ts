// A booth on its own: `node --import tsx apps/booth-agent/src/main.ts` (README, "Running a booth
// against any server").
import { BoothAgent } from './agent.js';
import { AgentEnvError, loadAgentEnv } from './env.js';
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
  const agent = new BoothAgent({
    mqttUrl: env.mqttUrl,
    thingName: env.thingName,
    secret: env.secret,
    serverUrl: env.serverUrl,
    camera: env.camera,
    printer: env.printer,
    softwareVersion: BOOTH_AGENT_VERSION,
    stateFile: env.stateFile,
    releasesDir: env.releasesDir,
    // Photos and prints wait here until the server confirms them, across restarts.
    queueDir: env.queueDir,
    queueWarnItems: env.queueWarnItems,
    timers: env.timers,
    // This process keeps running the old code: a supervisor restarts it into the new release
    // (README, "Software updates"). It does not exit by itself, so a demo booth stays up.
    onUpdated: (release) =>
      log.warn(
        { version: release.version, file: release.file, releasesDir: env.releasesDir },
        'release installed: restart the booth agent to run it',
      ),
    log,
  });

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal }, 'shutting down');
    agent.stop().then(
      () => process.exit(0),
      (error: unknown) => {
        log.error({ err: error }, 'error during shutdown');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));

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
