import { readFileSync } from 'node:fs';

/** The `version` of a JSON file beside the agent's sources, if it has one. */
function versionIn(relative: string): string | undefined {
  try {
    const json = JSON.parse(readFileSync(new URL(relative, import.meta.url), 'utf8')) as {
      version?: unknown;
    };
    return typeof json.version === 'string' && json.version !== '' ? json.version : undefined;
  } catch {
    return undefined;
  }
}

/**
 * This agent's version, reported in every status and ping reply: the release's own
 * (`release.json`, written into every release file the server packs), else its package.json.
 */
export const BOOTH_AGENT_VERSION: string =
  versionIn('../release.json') ?? versionIn('../package.json') ?? '0.0.0';
