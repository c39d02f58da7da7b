// The process `npm start` (and `npm run dev`) runs: node --import tsx apps/launcher/src/main.ts
import { launch } from './launch.js';

launch().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
