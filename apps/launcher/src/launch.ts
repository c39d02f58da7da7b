import {
  type RunningServer,
  startServer,
  type StartServerOptions,
} from '@flashbooth/server/server';

export interface Launched {
  server: RunningServer;
  /** The simulated demo booths running in this process (none without demo data). */
  booths: { stop(): Promise<void> }[];
}

/**
 * What `npm start` runs: the server, and with demo data (the default outside production, never
 * in production) the simulated demo booths the seed registered, in this process. The booth
 * agent is imported only then, so a production start never loads it. On shutdown the booths say
 * goodbye (a retained `offline`) before the app closes its broker.
 */
export async function launch(options: StartServerOptions = {}): Promise<Launched> {
  const server = await startServer(options);
  const booths: Launched['booths'] = [];
  if (!server.config.demoData || server.closing) return { server, booths };
  server.beforeClose(async () => {
    await Promise.all(booths.map((booth) => booth.stop())).catch((error: unknown) =>
      server.app.log.warn({ err: error }, 'demo booth did not stop cleanly'),
    );
  });
  const { startDemoBooths } = await import('./demo-booths.js');
  booths.push(...(await startDemoBooths(server)));
  return { server, booths };
}
