import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  BOOTH_AGENT_VERSION,
  BoothAgent,
  SimulatedCamera,
  SimulatedPrinter,
  type AgentLog,
} from '@flashbooth/booth-agent';
import type { RegisteredBooth } from './support';

/*
 * Real booths for the tests: a booth registered through the staff API, run in the test process
 * by the real booth agent (simulated camera and printer) against the embedded broker. The server
 * sends its capture command over MQTT; the agent composes, prints, uploads and confirms, as at a
 * venue.
 */

/** A registered booth with its running agent. */
export interface TestBooth extends RegisteredBooth {
  agent: BoothAgent;
  /** What the agent logged as errors; a capture checks it stayed empty. */
  errors: string[];
}

export interface StartBoothOptions {
  /**
   * The countdown before each photo; none by default, so a capture takes a second instead of
   * 10 s. A booth driven through the capture screen needs one (see payments.spec.ts).
   */
  countdownMs?: number;
  /** Where the agent installs software updates; without it the booth refuses them. */
  releasesDir?: string;
}

function errorsLog(errors: string[]): AgentLog {
  const ignore = () => undefined;
  return {
    debug: ignore,
    info: ignore,
    warn: ignore,
    error: (details, message) => {
      const err = details.err instanceof Error ? `: ${details.err.message}` : '';
      errors.push(`${message}${err}`);
    },
  };
}

/** Connects the booth's agent to the embedded broker; resolves once it is idle. */
export async function startBooth(
  registered: RegisteredBooth,
  serverUrl: string,
  options: StartBoothOptions = {},
): Promise<TestBooth> {
  const mqttUrl = process.env.E2E_MQTT_URL;
  if (!mqttUrl)
    throw new Error('E2E_MQTT_URL is not set: run the tests through playwright.config.ts');
  const errors: string[] = [];
  const agent = new BoothAgent({
    mqttUrl,
    thingName: registered.thingName,
    secret: registered.secret,
    camera: new SimulatedCamera(),
    printer: new SimulatedPrinter(mkdtempSync(path.join(os.tmpdir(), 'flashbooth-e2e-spool-'))),
    softwareVersion: BOOTH_AGENT_VERSION,
    serverUrl,
    log: errorsLog(errors),
    timers: { countdownMs: options.countdownMs ?? 0 },
    connectTimeoutMs: 5000,
    ...(options.releasesDir ? { releasesDir: options.releasesDir } : {}),
  });
  await agent.start();
  return { ...registered, agent, errors };
}
