// The process `npm start` (and `npm run dev`) runs: node --import tsx apps/launcher/src/main.ts
import { ConfigError, StartupError } from '@flashbooth/server/config';
import { launch } from './launch.js';

launch().catch((error: unknown) => {
  // A setting to fix: its one line (the setting's name and what to do), no stack.
  if (error instanceof ConfigError || error instanceof StartupError) console.error(error.message);
  else console.error(error);
  process.exit(1);
});
