// Development only: loaded by launch.ts when demo data is on, which it never is in production.
import {
  BOOTH_AGENT_VERSION,
  BoothAgent,
  type Camera,
  cameraFromEnv,
  SimulatedCamera,
  SimulatedPrinter,
} from '@flashbooth/booth-agent';
import {
  demoBrokerUrl,
  type RegisteredDemoBooth,
  registeredDemoBooths,
} from '@flashbooth/server/seed/demo-booth';
import type { RunningServer } from '@flashbooth/server/server';

type Log = RunningServer['app']['log'];

export interface DemoBoothOptions {
  /** The broker the app bound (`app.deviceBrokerUrl`); else MQTT_URL or MQTT_HOST:MQTT_PORT. */
  brokerUrl?: string;
  /** Where the server listens: the local object store hands out relative upload URLs. */
  serverUrl?: string;
  log: Log;
}

/**
 * The demo booth's camera: the simulated one, unless BOOTH_CAMERA names another, with its own
 * variables (apps/booth-agent/docs/cameras.md): `BOOTH_CAMERA=webcam npm start` runs the demo
 * on a real USB camera, and the browser tests run it on ffmpeg's test source.
 */
export function demoBoothCamera(env: NodeJS.ProcessEnv = process.env): Camera {
  if (!env.BOOTH_CAMERA?.trim()) return new SimulatedCamera();
  const { camera, problems } = cameraFromEnv(env);
  if (!camera) throw new Error(`Invalid demo booth camera:\n${problems.join('\n')}`);
  return camera;
}

/**
 * Runs a registered demo booth as a simulated booth (the simulated camera unless BOOTH_CAMERA
 * says otherwise, SimulatedPrinter spooling to its folder under DATA_DIR) connected to the
 * broker; resolves once it is online.
 */
export async function startDemoBooth(
  booth: RegisteredDemoBooth,
  options: DemoBoothOptions & { brokerUrl: string },
): Promise<BoothAgent> {
  const { brokerUrl, serverUrl, log } = options;
  const agent = new BoothAgent({
    mqttUrl: brokerUrl,
    thingName: booth.thingName,
    secret: booth.secret,
    camera: demoBoothCamera(),
    printer: new SimulatedPrinter(booth.spoolDir),
    softwareVersion: BOOTH_AGENT_VERSION,
    // Prints left, the applied restock and unsent error reports survive a restart; updates
    // install next to it (the in-process booth only reports the new version).
    stateFile: booth.stateFile,
    releasesDir: booth.releasesDir,
    // Photos and prints wait here until the server confirms them, across restarts.
    queueDir: booth.queueDir,
    ...(serverUrl ? { serverUrl } : {}),
    log: log.child({ booth: booth.thingName }),
  });
  await agent.start();
  const id = booth.deviceId;
  log.info(
    { thingName: booth.thingName, deviceId: id },
    `${booth.name} ${booth.thingName} is online (device id ${id}): open /b/${id}`,
  );
  return agent;
}

/**
 * Starts every demo booth the server's seed registered (none without demo data); one that
 * fails is logged and skipped.
 */
export async function startDemoBooths(
  server: Pick<RunningServer, 'app' | 'config' | 'url'>,
): Promise<BoothAgent[]> {
  const { app, config, url } = server;
  const log = app.log;
  const agents: BoothAgent[] = [];
  for (const booth of await registeredDemoBooths(config, log)) {
    try {
      const brokerUrl = app.deviceBrokerUrl ?? demoBrokerUrl(config);
      agents.push(await startDemoBooth(booth, { brokerUrl, serverUrl: url, log }));
    } catch (error) {
      log.error({ err: error, booth: booth.name }, 'a demo booth could not start');
    }
  }
  return agents;
}
