import { readFileSync } from 'node:fs';

/** This agent's version (its package.json), reported in every status and ping reply. */
export const BOOTH_AGENT_VERSION: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
    version: string;
  }
).version;
