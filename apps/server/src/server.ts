import { type AddressInfo, createServer } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { type Config, ConfigError, loadConfig, StartupError } from './config.js';

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

/** PORT taken or not allowed: the line that says so; any other error as it is. */
function listenStartupError(config: Config, error: unknown): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  const where = `${config.host}:${config.port}`;
  if (code === 'EADDRINUSE') {
    return new StartupError(
      'PORT',
      `PORT: ${where} is already in use (another Flashbooth, or another program); stop that program, or set PORT to a free port.`,
      { cause: error },
    );
  }
  if (code === 'EACCES') {
    return new StartupError(
      'PORT',
      `PORT: this user may not listen on ${where} (ports below 1024 need privileges); set PORT to 1024 or above and put a proxy in front.`,
      { cause: error },
    );
  }
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') {
    return new StartupError(
      'HOST',
      `HOST: ${config.host} is not an address of this machine; set HOST to one of its addresses, or 0.0.0.0 for all.`,
      { cause: error },
    );
  }
  return error;
}

/** Binds PORT for a moment (a fixed one only); a StartupError when it cannot be had. */
async function assertPortFree(config: Config): Promise<void> {
  if (config.port === 0) return;
  const probe = createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      probe.once('error', reject);
      probe.listen(config.port, config.host, () => resolve());
    });
  } catch (error) {
    throw listenStartupError(config, error);
  }
  await new Promise<void>((resolve) => probe.close(() => resolve()));
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
  // A taken PORT is told now, not after the migrations and the seed.
  await assertPortFree(config);
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

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    await close();
    throw listenStartupError(config, error);
  }
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
