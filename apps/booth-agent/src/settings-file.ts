import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';

/**
 * The booth's settings file (`flashbooth-booth enroll` writes it; README "Set up a booth"):
 * KEY=VALUE lines, as systemd's EnvironmentFile= and a shell's `.` read them.
 */
export const DEFAULT_SETTINGS_FILE = '/etc/flashbooth/booth.env';

const KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Values written without quotes: what neither systemd nor a shell reads differently. */
const PLAIN = /^[A-Za-z0-9_.,:/@+=%-]*$/;

export class SettingsFileError extends Error {}

/**
 * KEY=VALUE lines; blank lines and `#` comments are skipped, an `export ` before the key is
 * allowed, and a value in single or double quotes is unquoted (in double quotes, `\"`, `\\` and
 * `\$` are unescaped). Throws naming the first line that is none of these.
 */
export function parseSettings(text: string, source = 'settings'): Record<string, string> {
  const values: Record<string, string> = {};
  text.split(/\r?\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const match = /^(?:export\s+)?([^=\s]+)\s*=\s*(.*)$/.exec(line);
    if (!match || !KEY.test(match[1]!)) {
      throw new SettingsFileError(`${source}, line ${index + 1}: expected KEY=VALUE`);
    }
    values[match[1]!] = unquote(match[2]!);
  });
  return values;
}

function unquote(value: string): string {
  if (value.length >= 2 && value.startsWith("'") && value.endsWith("'")) return value.slice(1, -1);
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) {
    return value.slice(1, -1).replace(/\\(["\\$`])/g, '$1');
  }
  return value;
}

/** The file's text: a comment line per entry of `comments`, then one KEY=VALUE line per value. */
export function formatSettings(values: Record<string, string>, comments: string[] = []): string {
  const lines = comments.map((comment) => `# ${comment}`);
  for (const [key, value] of Object.entries(values)) {
    if (!KEY.test(key)) throw new SettingsFileError(`not a setting name: ${key}`);
    if (/[\r\n\0]/.test(value)) throw new SettingsFileError(`${key}: a value must be one line`);
    lines.push(`${key}=${PLAIN.test(value) ? value : `"${value.replace(/(["\\$`])/g, '\\$1')}"`}`);
  }
  return `${lines.join('\n')}\n`;
}

/**
 * Writes the file so that a reader sees the old or the new one, never half of either: a
 * temporary file beside it (mode 600 from the start), synced, renamed over it, and the folder
 * synced. The folder is made (mode 700) when missing.
 */
export function writeSettingsFile(file: string, text: string): void {
  const dir = path.dirname(path.resolve(file));
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const temporary = path.join(dir, `.${path.basename(file)}.${process.pid}.tmp`);
  try {
    const fd = openSync(temporary, 'w', 0o600);
    try {
      writeSync(fd, text);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
  const dirFd = openSync(dir, 'r');
  try {
    fsyncSync(dirFd);
  } finally {
    closeSync(dirFd);
  }
}

/**
 * `env` with the settings file's values under it: a variable set in the environment wins over
 * the file. The file is BOOTH_SETTINGS_FILE, else DEFAULT_SETTINGS_FILE when it exists. A
 * problem is a file named but missing, unreadable or malformed; the default file unreadable
 * while the environment already has the booth's secret (systemd passed the file as
 * EnvironmentFile= to a service that may not read it) is no problem.
 */
export function withSettingsFile(env: NodeJS.ProcessEnv): {
  env: NodeJS.ProcessEnv;
  file?: string;
  problem?: string;
} {
  const named = env.BOOTH_SETTINGS_FILE?.trim();
  const file = path.resolve(named || DEFAULT_SETTINGS_FILE);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (!named && (code === 'ENOENT' || env.BOOTH_SECRET?.trim())) return { env };
    const why = code === 'ENOENT' ? 'does not exist' : `cannot be read (${code ?? 'error'})`;
    return { env, problem: `${file} ${why}` };
  }
  try {
    const values = parseSettings(text, file);
    const merged: NodeJS.ProcessEnv = { ...values };
    for (const [key, value] of Object.entries(env)) {
      if (value !== undefined && value.trim() !== '') merged[key] = value;
    }
    return { env: merged, file };
  } catch (error) {
    return { env, problem: (error as Error).message };
  }
}
