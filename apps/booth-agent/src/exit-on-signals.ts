import type { AgentLog } from './log.js';

/**
 * SIGINT and SIGTERM run `stop` once and end the process: 0 when it stopped cleanly, 1 when it
 * failed (main.ts for one booth, fleet.ts for many).
 */
export function exitOnSignals(
  log: AgentLog,
  stop: () => Promise<unknown>,
  details: Record<string, unknown> = {},
): void {
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    log.info({ signal, ...details }, 'shutting down');
    stop().then(
      () => process.exit(0),
      (error: unknown) => {
        log.error({ err: error }, 'error during shutdown');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}
