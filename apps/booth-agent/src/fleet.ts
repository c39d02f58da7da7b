// Many simulated booths in one process, for load tests (`npm run bench:cluster` runs 100 booths
// in a few of these): `BOOTH_FLEET_FILE=fleet.json node --import tsx apps/booth-agent/src/fleet.ts`.
// The file lists the booths, `[{ "thingName": …, "secret": …, "dataDir": … }, …]`; every other
// setting is the environment's (BOOTH_MQTT_URL, BOOTH_SERVER_URL, BOOTH_COUNTDOWN_MS, …) and the
// same for each booth. BOOTH_FLEET_STATUS_CHANGE_MS (load tests: `npm run bench:status`) makes
// each booth change status as a busy one does, on average once per that many milliseconds
// (idle ↔ processing, BoothAgent.simulateStatusChange), each change printed as a JSON line
// `{"fleet":"change",…}` with when it was sent, and every 5 s the status reports sent so far
// (`{"fleet":"reports","sent":…}`, health reports included). SIGUSR2 holds every booth's reports
// (no change, no health report leaves; those on their way are waited for) and prints
// `{"fleet":"held","sent":…}`: an exact count to compare with the server's writes; the next
// SIGUSR2 releases them (`{"fleet":"released"}`), each booth then sending its latest state if it
// had a report to make. Each booth is the agent main.ts runs, with its own broker connection,
// state file, delivery queue and spool (simulated printer in <dataDir>/spool); the camera is the
// simulated one unless BOOTH_CAMERA names another. Each log line names its booth.
// BOOTH_FLEET_REUSE_PRINT=true (`npm run bench:cluster`): the fleet's booths share one photo per
// shot number and one composed print per template, each made once (fleet-reuse.ts), so the
// fleet's CPU per capture is the messages, files and uploads, not drawing photos and composing
// full-size prints; the server gets a full-size print as before.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { composePrint } from '@flashbooth/print-composition';
import type { BoothAgent } from './agent.js';
import { agentFromEnv } from './agent-from-env.js';
import type { Camera } from './camera/camera.js';
import { reusedPhotoCamera, reusedPrint } from './fleet-reuse.js';
import { AgentEnvError, loadAgentEnv } from './env.js';
import { exitOnSignals } from './exit-on-signals.js';
import { type AgentLog, consoleLog, isLogLevel } from './log.js';

interface FleetBooth {
  thingName: string;
  secret: string;
  dataDir: string;
}

/** The fleet file's booths, or what is wrong with it. */
function readFleet(file: string): FleetBooth[] | string {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    return (error as Error).message;
  }
  if (!Array.isArray(value) || value.length === 0) return 'must be a non-empty JSON array';
  for (const [index, booth] of value.entries()) {
    for (const key of ['thingName', 'secret', 'dataDir']) {
      const field = (booth as Record<string, unknown> | null)?.[key];
      if (typeof field !== 'string' || field === '') return `[${index}].${key}: required text`;
    }
  }
  return value as FleetBooth[];
}

/** Booths connecting at once: the broker and the server see a ramp, not a stampede. */
const STARTING_TOGETHER = 10;

/** `log` with the booth's name on every line. */
function boothLog(log: AgentLog, thingName: string): AgentLog {
  return {
    debug: (details, message) => log.debug({ booth: thingName, ...details }, message),
    info: (details, message) => log.info({ booth: thingName, ...details }, message),
    warn: (details, message) => log.warn({ booth: thingName, ...details }, message),
    error: (details, message) => log.error({ booth: thingName, ...details }, message),
  };
}

async function main(): Promise<void> {
  const file = process.env.BOOTH_FLEET_FILE;
  if (!file) {
    console.error('BOOTH_FLEET_FILE: required (a JSON file listing the booths)');
    process.exit(1);
  }
  const booths = readFleet(file);
  if (typeof booths === 'string') {
    console.error(`BOOTH_FLEET_FILE: ${booths}`);
    process.exit(1);
  }
  const level = process.env.BOOTH_LOG_LEVEL ?? 'info';
  const log = consoleLog(isLogLevel(level) ? level : 'info');
  const agents: BoothAgent[] = [];
  const reuse = ['1', 'true'].includes(process.env.BOOTH_FLEET_REUSE_PRINT ?? '');
  const compose = reuse ? reusedPrint(composePrint) : undefined;
  let camera: Camera | undefined;
  for (const booth of booths) {
    const dataDir = path.resolve(booth.dataDir);
    try {
      const env = loadAgentEnv({
        BOOTH_CAMERA: 'simulated',
        ...process.env,
        BOOTH_THING_NAME: booth.thingName,
        BOOTH_SECRET: booth.secret,
        BOOTH_DATA_DIR: dataDir,
        BOOTH_PRINTER: `simulated:${path.join(dataDir, 'spool')}`,
      });
      if (reuse) camera ??= reusedPhotoCamera(env.camera);
      agents.push(
        agentFromEnv(camera ? { ...env, camera } : env, boothLog(log, booth.thingName), {
          ...(compose ? { compose } : {}),
        }),
      );
    } catch (error) {
      if (!(error instanceof AgentEnvError)) throw error;
      console.error(`${booth.thingName}: ${error.message}`);
      process.exit(1);
    }
  }

  exitOnSignals(log, () => Promise.all(agents.map((agent) => agent.stop())), {
    booths: agents.length,
  });

  log.info({ booths: agents.length, reusePrint: reuse }, 'booth fleet starting');
  for (let from = 0; from < agents.length; from += STARTING_TOGETHER) {
    await Promise.all(agents.slice(from, from + STARTING_TOGETHER).map((agent) => agent.start()));
  }
  log.info({ booths: agents.length }, 'booth fleet connected');
  const changeMs = Number(process.env.BOOTH_FLEET_STATUS_CHANGE_MS ?? 0);
  if (changeMs > 0) simulateBusyBooths(agents, booths, changeMs);
}

/** Each booth changes status at random times, `meanMs` apart on average (exponential). */
function simulateBusyBooths(agents: BoothAgent[], booths: FleetBooth[], meanMs: number): void {
  const print = (line: Record<string, unknown>) =>
    process.stdout.write(`${JSON.stringify(line)}\n`);
  const sent = () => agents.reduce((sum, agent) => sum + agent.statusReportsSent, 0);
  let held = false;
  let turning = Promise.resolve();
  process.on('SIGUSR2', () => {
    turning = turning.then(async () => {
      if (!held) {
        held = true;
        await Promise.all(agents.map((agent) => agent.holdReports()));
        print({ fleet: 'held', sent: sent(), at: Date.now() });
      } else {
        held = false;
        for (const agent of agents) agent.releaseReports();
        print({ fleet: 'released', at: Date.now() });
      }
    });
  });
  agents.forEach((agent, index) => {
    const next = () => {
      const timer = setTimeout(
        () => {
          // Held: this change is not made (the booth stays as it is until its next one).
          if (held) {
            next();
            return;
          }
          const at = Date.now();
          void agent.simulateStatusChange().then(
            (change) => {
              if (change) {
                print({ fleet: 'change', booth: booths[index]!.thingName, at, ...change });
              }
              next();
            },
            () => next(),
          );
        },
        -Math.log(1 - Math.random()) * meanMs,
      );
      timer.unref();
    };
    next();
  });
  setInterval(() => {
    print({ fleet: 'reports', sent: sent() });
  }, 5000).unref();
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
