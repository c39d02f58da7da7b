// `flashbooth-booth`, the booth computer's command (bin/flashbooth-booth runs it with tsx from any
// working directory): the agent itself, its self-test, and enrollment (README.md).
import { BOOTH_AGENT_VERSION } from './version.js';

export const USAGE = `Usage: flashbooth-booth [command] [options]

Commands:
  run                           run the booth agent (the default; what the service runs)
  enroll <server-url> <code>    fetch this booth's settings with a one-time enrollment code
                                from the console and write them to /etc/flashbooth/booth.env
  doctor [--print]              check the camera, the printer, the broker and the server
  help                          show this text (also --help; "<command> --help" for a command)
  version                       show the agent's version (also --version)

Settings: the environment (BOOTH_*), over the settings file BOOTH_SETTINGS_FILE
(default /etc/flashbooth/booth.env). The booth operator's guide: apps/booth-agent/README.md.
`;

/** A module the command loads only when it runs (doctor comes in its own file). */
type CommandModule = Record<string, unknown>;

async function load(specifier: string): Promise<CommandModule> {
  try {
    return (await import(specifier)) as CommandModule;
  } catch (error) {
    const missing = (error as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND';
    if (missing && String((error as Error).message).includes(specifier.slice(2))) return {};
    throw error;
  }
}

/** Runs one command; resolves to its exit code (`run` keeps the process alive itself). */
export async function runCli(argv: string[]): Promise<number | undefined> {
  const [command = 'run', ...rest] = argv;
  switch (command) {
    case 'run':
      // main.ts starts the agent when it is loaded, and exits on its own signals.
      await import('./main.js');
      return undefined;
    case 'enroll': {
      const { enrollCommand } = await import('./enroll.js');
      return enrollCommand(rest);
    }
    case 'doctor': {
      // Loaded by name, so this file compiles and runs whatever state doctor.ts is in.
      const doctor = await load('./doctor.js');
      if (typeof doctor.doctorCommand !== 'function') {
        console.error('This version of the booth agent has no doctor command.');
        return 1;
      }
      const outcome: unknown = await (doctor.doctorCommand as (argv: string[]) => unknown)(rest);
      return typeof outcome === 'number' ? outcome : undefined;
    }
    case 'help':
    case '--help':
    case '-h':
      console.log(USAGE);
      return 0;
    case 'version':
    case '--version':
    case '-v':
      console.log(BOOTH_AGENT_VERSION);
      return 0;
    default:
      console.error(`Unknown command: ${command}\n\n${USAGE}`);
      return 2;
  }
}

const code = await runCli(process.argv.slice(2));
if (code !== undefined) process.exitCode = code;
