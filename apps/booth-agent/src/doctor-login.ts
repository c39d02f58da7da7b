// The doctor's credential check (issue 39): GET /api/device/whoami with the booth's own
// `Authorization: Device <thing>:<secret>`, over HTTP, so a running agent keeps its broker
// connection. The server's refusal says which half is wrong, and the line says what to do.
import { DeviceWhoAmISchema } from '@flashbooth/contracts';
import type { CheckResult } from './doctor.js';

export interface LoginCheckOptions {
  serverUrl: string | undefined;
  thingName: string;
  secret: string;
  timeoutMs: number;
  /** The broker check's result when it logged in as the booth (--broker-login). */
  brokerLogin?: CheckResult;
  fetch: typeof fetch;
}

const ENROLL_AGAIN =
  'enroll this booth again with a new code from the console (Devices > the device > Enroll a booth computer)';

/** The check's outcome; the caller times it. */
export async function loginCheck(
  options: LoginCheckOptions,
): Promise<Omit<CheckResult, 'name' | 'ms'>> {
  const { serverUrl, thingName, secret, timeoutMs, brokerLogin } = options;
  const brokerProved = brokerLogin?.status === 'pass';
  if (!serverUrl) {
    if (brokerProved) return { status: 'pass', detail: `${thingName}: the broker login proved it` };
    return {
      status: 'fail',
      detail: 'BOOTH_SERVER_URL is not set, so the credentials were not checked',
      fix: 'set BOOTH_SERVER_URL (flashbooth-booth enroll writes it), or stop the agent and run flashbooth-booth doctor --broker-login',
    };
  }
  const url = new URL(
    'api/device/whoami',
    serverUrl.endsWith('/') ? serverUrl : `${serverUrl}/`,
  ).toString();
  let response: Response;
  try {
    response = await options.fetch(url, {
      headers: { authorization: `Device ${thingName}:${secret}` },
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (error) {
    return {
      status: 'fail',
      detail: `the credentials were not checked: ${url}: ${whyFetchFailed(error, timeoutMs)}`,
      fix: "check BOOTH_SERVER_URL and the booth's internet connection",
    };
  }
  const body = (await response.json().catch(() => undefined)) as
    { reason?: unknown; message?: unknown } | undefined;
  if (response.ok) {
    const parsed = DeviceWhoAmISchema.safeParse(body);
    if (!parsed.success) {
      return {
        status: 'fail',
        detail: `${url}: an answer the booth cannot read`,
        fix: 'BOOTH_SERVER_URL does not point at a Flashbooth server',
      };
    }
    const { name, organization } = parsed.data;
    return {
      status: 'pass',
      detail: `the server knows ${thingName} as "${name}"${organization ? ` (${organization})` : ''}`,
    };
  }
  if (response.status === 401 && body?.reason === 'unknown_device') {
    return {
      status: 'fail',
      detail: `the server has no device named ${thingName} (BOOTH_THING_NAME)`,
      fix: `BOOTH_THING_NAME is wrong or the device was deleted: compare it with the console's device list, or ${ENROLL_AGAIN}`,
    };
  }
  if (response.status === 401 && body?.reason === 'wrong_secret') {
    return {
      status: 'fail',
      detail: `the server refused BOOTH_SECRET for ${thingName}`,
      fix: `the secret was replaced (a later enrollment, or a new registration): ${ENROLL_AGAIN}`,
    };
  }
  if (response.status === 404 && brokerProved) {
    return { status: 'pass', detail: `${thingName}: the broker login proved it` };
  }
  const said = typeof body?.message === 'string' ? ` (${body.message})` : '';
  return {
    status: 'fail',
    detail: `the credentials were not checked: ${url}: HTTP ${response.status}${said}`,
    fix:
      response.status === 404
        ? 'this server cannot check a booth over HTTP (update it), or stop the agent and run flashbooth-booth doctor --broker-login'
        : response.status === 401
          ? `check BOOTH_THING_NAME and BOOTH_SECRET, or ${ENROLL_AGAIN}`
          : 'the server is up but not ready: tell its operator',
  };
}

/** Why a fetch to the server failed, in words: its timeout, or the network error underneath. */
export function whyFetchFailed(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && error.name === 'TimeoutError')
    return `no answer within ${timeoutMs} ms`;
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  return cause instanceof Error ? cause.message : String(cause);
}
