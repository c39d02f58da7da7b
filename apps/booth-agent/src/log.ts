/**
 * What the agent logs through: the shape of pino's methods (details first, then the message), so
 * a server running a booth in-process passes its own logger and a stand-alone booth uses
 * `consoleLog`.
 */
export interface AgentLog {
  debug(details: Record<string, unknown>, message: string): void;
  info(details: Record<string, unknown>, message: string): void;
  warn(details: Record<string, unknown>, message: string): void;
  error(details: Record<string, unknown>, message: string): void;
}

const LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
export type LogLevel = (typeof LEVELS)[number];

export function isLogLevel(value: string): value is LogLevel {
  return (LEVELS as readonly string[]).includes(value);
}

function describe(details: Record<string, unknown>): string {
  const entries = Object.entries(details).map(([key, value]) => {
    if (value instanceof Error) return [key, value.message] as const;
    return [key, value] as const;
  });
  return entries.length > 0 ? ` ${JSON.stringify(Object.fromEntries(entries))}` : '';
}

/** One line per entry on stderr: `2025-05-14T10:20:30.000Z info  message {"details":…}`. */
export function consoleLog(level: LogLevel = 'info'): AgentLog {
  const threshold = LEVELS.indexOf(level);
  const line =
    (name: Exclude<LogLevel, 'silent'>) => (details: Record<string, unknown>, message: string) => {
      if (LEVELS.indexOf(name) < threshold) return;
      console.error(`${new Date().toISOString()} ${name.padEnd(5)} ${message}${describe(details)}`);
    };
  return { debug: line('debug'), info: line('info'), warn: line('warn'), error: line('error') };
}

export const silentLog: AgentLog = consoleLog('silent');
