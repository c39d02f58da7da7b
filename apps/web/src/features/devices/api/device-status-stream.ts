import type { DeviceStatusEvent } from '@flashbooth/contracts';
import { ApiError, authorizedFetch, parseError } from '@/lib/api-client';

/**
 * The staff console's one connection to GET /api/enterprise/devices/status-stream (server-sent
 * events), shared by every component that listens. Read with fetch rather than EventSource,
 * because EventSource cannot send the bearer token: the access token stays in memory and is
 * renewed by the API client as for every other call.
 */

/** One server-sent event. */
export interface ServerSentEvent {
  event: string;
  data: string;
  id?: string;
}

/**
 * An incremental server-sent events parser (the HTML standard's rules): feed it text as it
 * arrives; it calls `onEvent` for every complete event. Comment lines (`:`) and `retry:` are
 * skipped; an event without data is not dispatched.
 */
export function createEventParser(onEvent: (event: ServerSentEvent) => void) {
  let buffer = '';
  let eventName = '';
  let data: string[] = [];
  let id: string | undefined;
  let first = true;

  const line = (text: string) => {
    if (text === '') {
      if (data.length > 0) {
        onEvent({ event: eventName || 'message', data: data.join('\n'), ...(id ? { id } : {}) });
      }
      eventName = '';
      data = [];
      return;
    }
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon < 0 ? text : text.slice(0, colon);
    let value = colon < 0 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') eventName = value;
    else if (field === 'data') data.push(value);
    else if (field === 'id' && !value.includes('\0')) id = value;
  };

  return {
    feed(chunk: string) {
      buffer += chunk;
      if (first && buffer.length > 0) {
        if (buffer.charCodeAt(0) === 0xfeff) buffer = buffer.slice(1);
        first = false;
      }
      // A lone \r at the end may be half of \r\n: wait for the next chunk.
      let start = 0;
      for (let i = 0; i < buffer.length; i += 1) {
        const char = buffer[i];
        if (char !== '\n' && char !== '\r') continue;
        if (char === '\r' && i === buffer.length - 1) break;
        line(buffer.slice(start, i));
        if (char === '\r' && buffer[i + 1] === '\n') i += 1;
        start = i + 1;
      }
      buffer = buffer.slice(start);
    },
  };
}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;
const isInt = (value: unknown) => typeof value === 'number' && Number.isInteger(value);
const isStringOrNull = (value: unknown) => value === null || typeof value === 'string';

/**
 * A status event's data, checked field by field against the contract's DeviceStatusEventSchema
 * (the web app keeps zod out of its bundles: the lint rule allows only types from contracts);
 * undefined when it does not fit.
 */
export function parseStatusEvent(event: ServerSentEvent): DeviceStatusEvent | undefined {
  if (event.event !== 'status') return undefined;
  let data: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(event.data);
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    data = parsed as Record<string, unknown>;
  } catch {
    return undefined;
  }
  const { id, status, prints_left, software_version, pinged_at, updated_at } = data;
  if (!isInt(id) || typeof status !== 'string') return undefined;
  if (prints_left !== null && !isInt(prints_left)) return undefined;
  if (!isStringOrNull(software_version)) return undefined;
  if (!(pinged_at === null || (typeof pinged_at === 'string' && TIMESTAMP.test(pinged_at)))) {
    return undefined;
  }
  if (typeof updated_at !== 'string' || !TIMESTAMP.test(updated_at)) return undefined;
  return {
    id: id as number,
    status,
    prints_left: prints_left as number | null,
    software_version: software_version as string | null,
    pinged_at: pinged_at as string | null,
    updated_at,
  };
}

export const BACKOFF_BASE_MS = 1000;
export const BACKOFF_MAX_MS = 30_000;

/**
 * How long to wait before reconnect number `attempt` (0 = the first after a loss): doubling from
 * 1 s up to 30 s, each between half and all of that ("equal jitter"), so consoles that lost the
 * server together do not come back in one wave.
 */
export function backoffDelay(attempt: number, random: () => number = Math.random): number {
  const ceiling = Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempt));
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** The server comments every 15 s: this long without a byte means the connection is lost. */
export const SILENCE_LIMIT_MS = 45_000;

type EventListener = (event: DeviceStatusEvent) => void;
type ConnectedListener = (connected: boolean) => void;

const eventListeners = new Set<EventListener>();
const connectedListeners = new Set<ConnectedListener>();
let connected = false;
let running: AbortController | null = null;

function setConnected(value: boolean) {
  if (connected === value) return;
  connected = value;
  for (const listener of connectedListeners) listener(value);
}

function wait(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}

/** Reads one connection until it ends, is aborted, or stays silent too long. */
async function readOnce(signal: AbortSignal, onOpen: () => void): Promise<void> {
  const connection = new AbortController();
  const stop = () => connection.abort();
  signal.addEventListener('abort', stop, { once: true });
  let watchdog: ReturnType<typeof setTimeout> | undefined;
  const quiet = () => {
    clearTimeout(watchdog);
    watchdog = setTimeout(stop, SILENCE_LIMIT_MS);
  };
  try {
    const response = await authorizedFetch(
      'enterprise',
      'devices/status-stream',
      { signal: connection.signal },
      'text/event-stream',
    );
    if (!response.ok || !response.body) {
      throw await parseError(response, 'Live status is not available.');
    }
    onOpen();
    setConnected(true);
    const parser = createEventParser((event) => {
      const status = parseStatusEvent(event);
      if (!status) return;
      for (const listener of eventListeners) listener(status);
    });
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    quiet();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      quiet();
      parser.feed(value);
    }
  } finally {
    clearTimeout(watchdog);
    signal.removeEventListener('abort', stop);
    setConnected(false);
  }
}

/** Connects, and reconnects with backoff (a fresh token each time) until aborted. */
async function run(signal: AbortSignal): Promise<void> {
  let attempt = 0;
  while (!signal.aborted) {
    let reached = false;
    try {
      await readOnce(signal, () => {
        reached = true;
      });
    } catch (error) {
      // The session is over (the refresh cookie was refused): the route guard takes over.
      if (error instanceof ApiError && error.status === 401) break;
    }
    if (signal.aborted) break;
    // A stream that was open (ended by the server when its token lapsed, or lost) comes back
    // after about a second; one that could not be opened waits longer each time.
    attempt = reached ? 0 : attempt + 1;
    await wait(backoffDelay(attempt), signal);
  }
  setConnected(false);
}

/**
 * Listens to the shared stream: the first listener opens it, the last one to leave closes it.
 * Returns the call that stops listening.
 */
export function listenToDeviceStatus(
  onEvent: EventListener,
  onConnected: ConnectedListener,
): () => void {
  eventListeners.add(onEvent);
  connectedListeners.add(onConnected);
  onConnected(connected);
  if (!running) {
    const controller = new AbortController();
    running = controller;
    void run(controller.signal).finally(() => {
      if (running === controller) running = null;
    });
  }
  return () => {
    eventListeners.delete(onEvent);
    connectedListeners.delete(onConnected);
    if (eventListeners.size === 0 && running) {
      running.abort();
      running = null;
      setConnected(false);
    }
  };
}
