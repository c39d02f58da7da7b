import { z } from 'zod';
import { TimestampSchema } from './common.js';
import { BoothEnvSchema } from './devices.js';

/*
 * One-time enrollment codes (issue 22, item 5): a booth computer is set up with
 * `flashbooth-booth enroll <server> <code>` instead of a pasted secret. A code is single use,
 * expires after ENROLLMENT_CODE_TTL_MINUTES and is stored only as a keyed hash.
 */

/** Letters and digits nobody confuses when reading them off a screen (no 0/O, 1/I/L, U/V). */
export const ENROLLMENT_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTWXYZ23456789';
/** Characters in a code (shown as two groups of four: ABCD-EFGH). */
export const ENROLLMENT_CODE_LENGTH = 8;
export const ENROLLMENT_CODE_TTL_MINUTES = 30;

export const ENROLLMENT_MESSAGES = {
  invalidFormat: 'Enter the 8-character enrollment code shown in the console, e.g. ABCD-EFGH.',
  unknown:
    'This enrollment code is not known. Check it, or make a new one in the console (device page, Enroll a booth computer).',
  expired:
    'This enrollment code has expired (codes last 30 minutes). Make a new one in the console (device page, Enroll a booth computer).',
  used: 'This enrollment code was already used. Make a new one in the console (device page, Enroll a booth computer).',
  tooManyTries:
    'Too many wrong enrollment codes from this address. Wait 15 minutes, then try again.',
  failed: 'Failed to make an enrollment code. Please try again.',
} as const;

/** Upper case, without spaces or dashes: what is hashed and compared. */
export function normalizeEnrollmentCode(input: string): string {
  return input.replace(/[\s-]+/g, '').toUpperCase();
}

/** `ABCDEFGH` → `ABCD-EFGH`, as the console shows it and a person types it. */
export function formatEnrollmentCode(code: string): string {
  const plain = normalizeEnrollmentCode(code);
  return `${plain.slice(0, 4)}-${plain.slice(4)}`;
}

export function isEnrollmentCode(input: string): boolean {
  const plain = normalizeEnrollmentCode(input);
  return (
    plain.length === ENROLLMENT_CODE_LENGTH &&
    [...plain].every((char) => ENROLLMENT_CODE_ALPHABET.includes(char))
  );
}

/** The command that enrolls a booth computer where the agent is installed already. */
export function enrollCommand(serverUrl: string, code: string): string {
  return `sudo flashbooth-booth enroll ${serverUrl} ${formatEnrollmentCode(code)}`;
}

/** Where the server hands out the booth computer's install script (no sign-in). */
export const BOOTH_INSTALL_PATH = '/booth/install.sh';

/**
 * The one command that sets up a booth computer (issue 39): the server's install script installs
 * what the booth needs and the agent, enrolls with the code, and starts the service
 * (apps/booth-agent/README.md).
 */
export function installCommand(serverUrl: string, code: string): string {
  const server = serverUrl.replace(/\/+$/, '');
  return `curl -fsSL ${server}${BOOTH_INSTALL_PATH} | sudo sh -s -- ${formatEnrollmentCode(code)}`;
}

/**
 * POST /api/enterprise/devices/{id}/enrollment-code: a new code for the device (any earlier one
 * of the device stops working), when it expires, and the exact command for the booth.
 */
export const EnrollmentCodeSchema = z.object({
  device_id: z.number().int(),
  /** Formatted, e.g. ABCD-EFGH (dashes and case do not matter when it is entered). */
  code: z.string(),
  expires_at: TimestampSchema,
  /** This server's address as booths reach it (PUBLIC_URL, else the request's origin). */
  server_url: z.string(),
  /**
   * The one line to paste into the booth computer's terminal:
   * `curl -fsSL <server_url>/booth/install.sh | sudo sh -s -- <code>` (installs, enrolls, starts).
   */
  command: z.string(),
  /** For a booth where the agent is installed already: `sudo flashbooth-booth enroll <server_url> <code>`. */
  enroll_command: z.string(),
});
export type EnrollmentCode = z.infer<typeof EnrollmentCodeSchema>;

/** POST /api/device/enroll: the code as typed (case, spaces and dashes do not matter). */
export const EnrollRequestSchema = z.object({
  code: z
    .string({ error: ENROLLMENT_MESSAGES.invalidFormat })
    .max(32, ENROLLMENT_MESSAGES.invalidFormat)
    .refine(isEnrollmentCode, ENROLLMENT_MESSAGES.invalidFormat)
    .transform(normalizeEnrollmentCode),
});
export type EnrollRequest = z.input<typeof EnrollRequestSchema>;

/**
 * POST /api/device/enroll answers the booth's settings: the env block of registration, with a
 * new secret (enrolling replaces the device's secret; the one shown before stops working).
 */
export const EnrollResponseSchema = BoothEnvSchema;
export type EnrollResponse = z.infer<typeof EnrollResponseSchema>;
