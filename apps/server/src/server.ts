import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { type Config, ConfigError, loadConfig } from './config.js';

export interface StartServerOptions {
  /** The configuration; read from the environment when absent (a bad one exits with status 1). */
  config?: Config;
  /** Shut down on SIGINT/SIGTERM and exit (default true; tests close the server themselves). */
  handleSignals?: boolean;
}

export interface RunningServer {
  app: FastifyInstance;
  config: Config;
  /** Where a client on this machine reaches the server (http://host:port), e.g. a demo booth. */
  url: string;
  /** Runs `task` when the server shuts down, before the app (database, broker) closes. */
  beforeClose(task: () => Promise<void>): void;
  /** The shutdown has begun. */
  readonly closing: boolean;
  /** Shuts down: the `beforeClose` tasks, then the app. Resolves once closed; safe to repeat. */
  close(): Promise<void>;
}

function configFromEnvironment(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

/**
 * Loads the configuration, builds the app, listens, and shuts down gracefully on SIGINT/SIGTERM
 * (stop accepting, finish requests in flight, close the database and broker; a 10 s guard).
 * The process entry is apps/launcher, which also starts the demo booths outside production.
 */
export async function startServer(options: StartServerOptions = {}): Promise<RunningServer> {
  const config = options.config ?? configFromEnvironment();
  // The embedded broker binds while the app is built (MQTT_PORT=0: any free port); whoever
  // connects in-process uses the port it actually bound (app.deviceBrokerUrl), so nothing else
  // can take that port in between.
  const app = await buildApp(config);
  const tasks: (() => Promise<void>)[] = [];
  let closed: Promise<void> | undefined;
  const close = () => {
    // The tasks (the demo booths saying goodbye) run while the broker is still up.
    closed ??= tasks
      .reduce(
        (previous, task) =>
          previous.then(task).catch((error: unknown) => {
            app.log.warn({ err: error }, 'a shutdown task failed; closing anyway');
          }),
        Promise.resolve(),
      )
      .then(() => app.close());
    return closed;
  };

  if (options.handleSignals ?? true) {
    const shutdown = (signal: string) => {
      if (closed) return;
      app.log.info({ signal }, 'shutting down');
      // Stop accepting, let requests in flight finish, then close the database and broker.
      const timer = setTimeout(() => {
        app.log.error('shutdown timed out; exiting');
        process.exit(1);
      }, 10_000);
      timer.unref();
      close().then(
        () => process.exit(0),
        (error: unknown) => {
          app.log.error({ err: error }, 'error during shutdown');
          process.exit(1);
        },
      );
    };
    process.on('SIGINT', () => shutdown('SIGINT'));
    process.on('SIGTERM', () => shutdown('SIGTERM'));
  }

  await app.listen({ port: config.port, host: config.host });
  // PORT=0 picks a free port: report the one bound.
  const { address, port } = app.server.address() as AddressInfo;
  app.log.info(`Flashbooth is running at http://localhost:${port}`);
  const host = address === '0.0.0.0' || address === '::' ? '127.0.0.1' : address;
  return {
    app,
    config,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    beforeClose: (task) => {
      tasks.push(task);
    },
    get closing() {
      return closed !== undefined;
    },
    close,
  };
}
