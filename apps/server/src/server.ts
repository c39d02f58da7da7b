import type { AddressInfo } from 'node:net';
import type { BoothAgent } from '@flashbooth/booth-agent';
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { startDemoBooths } from './seed/demo-booth.js';

async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  // The embedded broker binds while the app is built (MQTT_PORT=0: any free port); the demo
  // booth then connects to the port it actually bound (app.deviceBrokerUrl), so nothing else can
  // take that port in between.
  const app = await buildApp(config);
  let demoBooths: BoothAgent[] = [];

  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // Stop accepting, let requests in flight finish, then close the database and broker.
    const timer = setTimeout(() => {
      app.log.error('shutdown timed out; exiting');
      process.exit(1);
    }, 10_000);
    timer.unref();
    // The demo booths say goodbye (retained offline) while the broker is still up.
    Promise.all(demoBooths.map((booth) => booth.stop()))
      .catch((error: unknown) => app.log.warn({ err: error }, 'demo booth did not stop cleanly'))
      .then(() => app.close())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          app.log.error({ err: error }, 'error during shutdown');
          process.exit(1);
        },
      );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  // PORT=0 picks a free port: report the one bound.
  const { address, port } = app.server.address() as AddressInfo;
  app.log.info(`Flashbooth is running at http://localhost:${port}`);
  if (config.demoData && !closing) {
    const host = address === '0.0.0.0' || address === '::' ? '127.0.0.1' : address;
    demoBooths = await startDemoBooths({
      config,
      ...(app.deviceBrokerUrl ? { brokerUrl: app.deviceBrokerUrl } : {}),
      serverUrl: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
      log: app.log,
    });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
