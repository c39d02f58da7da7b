import { statSync } from 'node:fs';
import path from 'node:path';
import type { Camera } from './camera/camera.js';
import { cameraFromEnv } from './camera/camera-from-env.js';
import { isLogLevel, type LogLevel } from './log.js';
import { CupsPrinter } from './printer/cups-printer.js';
import type { Printer } from './printer/printer.js';
import { SimulatedPrinter } from './printer/simulated-printer.js';
import { DEFAULT_SETTINGS_FILE, withSettingsFile } from './settings-file.js';

/** The server's rule for thing names (mqtt-access.ts). */
const THING_NAME = /^[a-z0-9][a-z0-9-]{0,63}$/;

export interface AgentEnv {
  mqttUrl: string;
  thingName: string;
  secret: string;
  serverUrl: string | undefined;
  camera: Camera;
  cameraDescription: string;
  printer: Printer;
  printerDescription: string;
  /** Absolute path of the booth's data folder (BOOTH_DATA_DIR or its default). */
  dataDir: string;
  /** Absolute path of the state file (prints left, settings revision, version, unsent reports). */
  stateFile: string;
  /** Absolute path of the folder the `update` command installs releases into. */
  releasesDir: string;
  /** Absolute path of the delivery queue's folder (docs/delivery-queue.md). */
  queueDir: string;
  /** Waiting items beyond which the status warns (BOOTH_QUEUE_WARN_ITEMS). */
  queueWarnItems: number;
  /** Timers given in the environment (tests shorten them); the rest keep their defaults. */
  timers: { countdownMs?: number; deliveryRetryMs?: number; deliveryRetryMaxMs?: number };
  logLevel: LogLevel;
}

export class AgentEnvError extends Error {}

/** The installed booth's data folder (install.sh: the service's StateDirectory and home). */
export const INSTALLED_DATA_DIR = '/var/lib/flashbooth-booth';

export interface AgentEnvOptions {
  /** Where a checkout's relative defaults resolve (default: the working directory). */
  cwd?: string;
  /** The installed booth's data folder (default INSTALLED_DATA_DIR; tests point elsewhere). */
  installedDataDir?: string;
}

/**
 * Where the booth's data (state, releases, queue) and the simulated printer's spool go when
 * BOOTH_DATA_DIR is not set. An installed booth (its settings came from the installed settings
 * file, or its data folder exists) uses the installed folder whatever the working directory, so
 * `sudo flashbooth-booth doctor` run from a home folder writes where the service does; a checkout
 * keeps ./booth-data and ./booth-spool under the working directory.
 */
export function defaultDataDirs(
  settingsFile: string | undefined,
  options: AgentEnvOptions = {},
): { dataDir: string; spoolDir: string; installed: boolean } {
  const installedDir = options.installedDataDir ?? INSTALLED_DATA_DIR;
  const installed =
    (settingsFile !== undefined && path.resolve(settingsFile) === DEFAULT_SETTINGS_FILE) ||
    isDirectory(installedDir);
  if (installed) {
    return { dataDir: installedDir, spoolDir: path.join(installedDir, 'booth-spool'), installed };
  }
  const cwd = options.cwd ?? process.cwd();
  return {
    dataDir: path.resolve(cwd, 'booth-data'),
    spoolDir: path.resolve(cwd, 'booth-spool'),
    installed,
  };
}

/**
 * Reads the booth's environment (README, "Running a booth against any server"); every bad or
 * missing variable is named in one error.
 */
export function loadAgentEnv(
  given: NodeJS.ProcessEnv = process.env,
  options: AgentEnvOptions = {},
): AgentEnv {
  const problems: string[] = [];
  // The settings file `flashbooth-booth enroll` writes (BOOTH_SETTINGS_FILE, else
  // /etc/flashbooth/booth.env when it exists); a variable set in the environment wins.
  const { env, file: settingsFile, problem } = withSettingsFile(given);
  if (problem) problems.push(`  BOOTH_SETTINGS_FILE: ${problem}`);
  const text = (name: string) => env[name]?.trim() || undefined;
  const required = (name: string, meaning: string) => {
    const value = text(name);
    if (value === undefined) problems.push(`  ${name}: required (${meaning})`);
    return value ?? '';
  };

  const mqttUrl = required('BOOTH_MQTT_URL', 'the broker, e.g. mqtt://localhost:1884');
  if (mqttUrl && !/^(mqtts?|wss?):\/\/[^/]/.test(mqttUrl)) {
    problems.push('  BOOTH_MQTT_URL: must be an mqtt://, mqtts://, ws:// or wss:// URL');
  }
  const thingName = required('BOOTH_THING_NAME', "the device's serial, e.g. fb-abcdefghij");
  if (thingName && !THING_NAME.test(thingName)) {
    problems.push(
      '  BOOTH_THING_NAME: must be lower-case letters, digits and dashes (the serial, e.g. fb-abcdefghij)',
    );
  }
  const secret = required('BOOTH_SECRET', 'the secret shown once when the device was registered');

  const serverUrl = text('BOOTH_SERVER_URL');
  if (serverUrl && !/^https?:\/\/[^/]/.test(serverUrl)) {
    problems.push('  BOOTH_SERVER_URL: must be an http:// or https:// URL');
  }

  const { camera, description: cameraDescription, problems: cameraProblems } = cameraFromEnv(env);
  problems.push(...cameraProblems);

  // BOOTH_DATA_DIR, else the installed booth's folder, else ./booth-data (defaultDataDirs); the
  // state file, the releases, the queue and the simulated printer's spool live in it.
  const defaults = defaultDataDirs(settingsFile, options);
  const givenDataDir = text('BOOTH_DATA_DIR');
  const cwd = options.cwd ?? process.cwd();
  const dataDir = givenDataDir ? path.resolve(cwd, givenDataDir) : defaults.dataDir;
  const spoolDir = givenDataDir ? path.join(dataDir, 'booth-spool') : defaults.spoolDir;

  let printer: Printer | undefined;
  const printerSpec = text('BOOTH_PRINTER') ?? `simulated:${spoolDir}`;
  if (printerSpec.startsWith('simulated:') && printerSpec.length > 'simulated:'.length) {
    printer = new SimulatedPrinter(path.resolve(cwd, printerSpec.slice('simulated:'.length)));
  } else if (printerSpec.startsWith('cups:') && printerSpec.length > 'cups:'.length) {
    try {
      printer = new CupsPrinter({ printerName: printerSpec.slice('cups:'.length) });
    } catch (error) {
      problems.push(`  BOOTH_PRINTER: ${(error as Error).message}`);
    }
  } else {
    problems.push('  BOOTH_PRINTER: must be "simulated:<spool directory>" or "cups:<queue name>"');
  }

  const stateFile = path.resolve(cwd, text('BOOTH_STATE_FILE') ?? path.join(dataDir, 'state.json'));
  if (isDirectory(stateFile)) {
    problems.push(`  BOOTH_STATE_FILE: ${stateFile} is a folder; name a file, e.g. state.json`);
  }
  const releasesDir = path.resolve(
    cwd,
    text('BOOTH_RELEASES_DIR') ?? path.join(dataDir, 'releases'),
  );
  if (exists(releasesDir) && !isDirectory(releasesDir)) {
    problems.push(`  BOOTH_RELEASES_DIR: ${releasesDir} is a file, not a folder`);
  }
  const queueDir = path.resolve(cwd, text('BOOTH_QUEUE_DIR') ?? path.join(dataDir, 'queue'));
  if (exists(queueDir) && !isDirectory(queueDir)) {
    problems.push(`  BOOTH_QUEUE_DIR: ${queueDir} is a file, not a folder`);
  }
  const count = (name: string, fallback: number | undefined, meaning: string) => {
    const value = text(name);
    if (value === undefined) return fallback;
    if (!/^\d+$/.test(value)) problems.push(`  ${name}: must be a whole number (${meaning})`);
    return Number(value);
  };
  const queueWarnItems =
    count('BOOTH_QUEUE_WARN_ITEMS', 200, 'waiting items before it warns') ?? 200;
  const timers = {
    countdownMs: count('BOOTH_COUNTDOWN_MS', undefined, 'milliseconds before each photo'),
    deliveryRetryMs: count('BOOTH_DELIVERY_RETRY_MS', undefined, 'first pause, milliseconds'),
    deliveryRetryMaxMs: count('BOOTH_DELIVERY_RETRY_MAX_MS', undefined, 'longest pause, ms'),
  };

  const level = text('BOOTH_LOG_LEVEL') ?? 'info';
  if (!isLogLevel(level)) {
    problems.push('  BOOTH_LOG_LEVEL: must be debug, info, warn, error or silent');
  }

  if (problems.length > 0 || !camera || !printer || !isLogLevel(level)) {
    throw new AgentEnvError(`Invalid booth configuration:\n${problems.join('\n')}`);
  }
  return {
    mqttUrl,
    thingName,
    secret,
    serverUrl,
    camera,
    cameraDescription,
    printer,
    printerDescription: printerSpec,
    dataDir,
    stateFile,
    releasesDir,
    queueDir,
    queueWarnItems,
    timers: Object.fromEntries(Object.entries(timers).filter(([, v]) => v !== undefined)),
    logLevel: level,
  };
}

function exists(file: string): boolean {
  try {
    statSync(file);
    return true;
  } catch {
    return false;
  }
}

function isDirectory(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}
