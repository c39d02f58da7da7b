import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  BoothEnvSchema,
  type BoothEnv,
  ENROLLMENT_MESSAGES,
  isEnrollmentCode,
  normalizeEnrollmentCode,
} from '@flashbooth/contracts';
import {
  DEFAULT_SETTINGS_FILE,
  formatSettings,
  parseSettings,
  writeSettingsFile,
} from './settings-file.js';

/** The systemd unit install/install.sh installs; restarted after enrolling when present. */
export const SERVICE_NAME = 'flashbooth-booth.service';
const SERVICE_UNIT = `/etc/systemd/system/${SERVICE_NAME}`;

export const ENROLL_USAGE = `Usage: flashbooth-booth enroll <server-url> <code> [--settings FILE] [--no-restart]

Trades a one-time enrollment code (console: Devices > the device > Enroll a booth computer, or
the Register Device dialog) for this booth's settings and writes them to the settings file
(default ${DEFAULT_SETTINGS_FILE}, mode 600). The device's earlier secret stops working.

  <server-url>      the Flashbooth server, e.g. https://booths.example.com
  <code>            the code shown in the console, e.g. ABCD-EFGH (valid once, for 30 minutes)
  --settings FILE   write the settings here instead
  --no-restart      do not restart the ${SERVICE_NAME} service afterwards
`;

export interface EnrollOptions {
  serverUrl: string;
  code: string;
  settingsFile: string;
  restart: boolean;
}

export class EnrollError extends Error {}

/** Reads `enroll`'s arguments; throws EnrollError with the usage when they are wrong. */
export function parseEnrollArgs(argv: string[]): EnrollOptions {
  const positional: string[] = [];
  let settingsFile = DEFAULT_SETTINGS_FILE;
  let restart = true;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (arg === '--settings') {
      const value = argv[(i += 1)];
      if (!value) throw new EnrollError(`--settings needs a file name\n\n${ENROLL_USAGE}`);
      settingsFile = value;
    } else if (arg.startsWith('--settings=')) {
      settingsFile = arg.slice('--settings='.length);
    } else if (arg === '--no-restart') {
      restart = false;
    } else if (arg.startsWith('-')) {
      throw new EnrollError(`Unknown option ${arg}\n\n${ENROLL_USAGE}`);
    } else {
      positional.push(arg);
    }
  }
  if (positional.length !== 2) throw new EnrollError(ENROLL_USAGE);
  const [server, code] = positional as [string, string];
  const serverUrl = server.includes('://') ? server : `https://${server}`;
  let parsed: URL;
  try {
    parsed = new URL(serverUrl);
  } catch {
    throw new EnrollError(`Not a server address: ${server} (e.g. https://booths.example.com)`);
  }
  if (!/^https?:$/.test(parsed.protocol)) {
    throw new EnrollError(`The server address must start with http:// or https://: ${server}`);
  }
  if (!isEnrollmentCode(code)) throw new EnrollError(ENROLLMENT_MESSAGES.invalidFormat);
  return {
    serverUrl: parsed.origin + parsed.pathname.replace(/\/+$/, ''),
    code: normalizeEnrollmentCode(code),
    settingsFile: path.resolve(settingsFile),
    restart,
  };
}

export interface EnrollDeps {
  fetch: typeof fetch;
  /** Restarts the service; answers what happened, in words. */
  restartService: () => Promise<string>;
  print: (line: string) => void;
  /** Whether the booth's service is installed here (install.sh). */
  serviceInstalled: () => boolean;
}

/**
 * POSTs the code to `<server>/api/device/enroll`, writes the answered settings (keeping any
 * other settings already in the file, such as BOOTH_CAMERA or BOOTH_PRINTER), restarts the
 * service when it is installed and the file is the one it reads, and says what it did.
 */
export async function enroll(options: EnrollOptions, deps: EnrollDeps): Promise<BoothEnv> {
  const url = `${options.serverUrl}/api/device/enroll`;
  let response: Response;
  try {
    response = await deps.fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ code: options.code }),
      signal: AbortSignal.timeout(30_000),
    });
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause?.message;
    throw new EnrollError(
      `Could not reach ${options.serverUrl}: ${cause ?? (error as Error).message}. Check the address and this computer's network.`,
    );
  }
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const message = (body as { message?: unknown } | undefined)?.message;
    throw new EnrollError(
      `The server refused the code (HTTP ${response.status}): ${typeof message === 'string' ? message : response.statusText}`,
    );
  }
  const settings = BoothEnvSchema.safeParse(body);
  if (!settings.success) {
    throw new EnrollError(`${url} did not answer a booth's settings: is this a Flashbooth server?`);
  }

  let kept: Record<string, string> = {};
  if (existsSync(options.settingsFile)) {
    try {
      kept = parseSettings(readFileSync(options.settingsFile, 'utf8'), options.settingsFile);
    } catch {
      // A file that cannot be read as settings is replaced, not merged.
      kept = {};
    }
  }
  writeSettingsFile(
    options.settingsFile,
    formatSettings({ ...kept, ...settings.data }, [
      `Written by flashbooth-booth enroll on ${new Date().toISOString()} (server ${options.serverUrl}).`,
      'Other BOOTH_* settings (BOOTH_CAMERA, BOOTH_PRINTER, ...) may be added below; see the README.',
    ]),
  );
  deps.print(`Enrolled as ${settings.data.BOOTH_THING_NAME} with ${options.serverUrl}.`);
  deps.print(`Settings written to ${options.settingsFile} (mode 600).`);

  if (
    options.restart &&
    options.settingsFile === DEFAULT_SETTINGS_FILE &&
    deps.serviceInstalled()
  ) {
    deps.print(await deps.restartService());
    deps.print('Next: check the booth with  sudo flashbooth-booth doctor');
    deps.print('      and follow its log with  journalctl -u flashbooth-booth -f');
  } else if (options.settingsFile === DEFAULT_SETTINGS_FILE) {
    deps.print(
      `Next: start the agent with  sudo systemctl restart ${SERVICE_NAME}  (install/install.sh installs it), or run  flashbooth-booth run`,
    );
  } else {
    deps.print(
      `Next: run the agent with  BOOTH_SETTINGS_FILE=${options.settingsFile} flashbooth-booth run`,
    );
  }
  return settings.data;
}

/** The real restart, through systemctl. */
export async function restartWithSystemctl(): Promise<string> {
  const { execFile } = await import('node:child_process');
  return new Promise((resolve) => {
    execFile('systemctl', ['restart', SERVICE_NAME], { timeout: 60_000 }, (error, _out, stderr) => {
      resolve(
        error
          ? `Could not restart ${SERVICE_NAME} (${stderr.trim() || error.message}); run  sudo systemctl restart ${SERVICE_NAME}`
          : `Restarted ${SERVICE_NAME}: the booth agent now runs with these settings.`,
      );
    });
  });
}

/** `flashbooth-booth enroll …`: the exit code. */
export async function enrollCommand(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(ENROLL_USAGE);
    return 0;
  }
  try {
    await enroll(parseEnrollArgs(argv), {
      fetch,
      restartService: restartWithSystemctl,
      print: (line) => console.log(line),
      serviceInstalled: () => existsSync(SERVICE_UNIT),
    });
    return 0;
  } catch (error) {
    if (error instanceof EnrollError) {
      console.error(error.message);
      return 1;
    }
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EACCES' || code === 'EPERM') {
      console.error(
        `Cannot write the settings file: ${(error as Error).message}. Run it as root (sudo flashbooth-booth enroll ...) or pass --settings FILE.`,
      );
      return 1;
    }
    throw error;
  }
}
