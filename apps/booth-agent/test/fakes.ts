// Stand-ins for the unit tests (src/**/*.test.ts): no broker, no sockets.
import { randomUUID } from 'node:crypto';
import type {
  DeviceCommandMessage,
  DeviceErrorReport,
  DeviceStatusMessage,
} from '@flashbooth/contracts';
import type { BoothChannel } from '../src/connection.js';
import type { AgentLog } from '../src/log.js';
import type { BoothState } from '../src/state.js';

/** A log that keeps every entry, to look for one. */
export function recordingLog(): AgentLog & {
  entries: { level: string; message: string }[];
  messages(level?: string): string[];
} {
  const entries: { level: string; message: string }[] = [];
  const at = (level: string) => (_details: Record<string, unknown>, message: string) => {
    entries.push({ level, message });
  };
  return {
    entries,
    messages: (level) =>
      entries.filter((e) => level === undefined || e.level === level).map((e) => e.message),
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
  };
}

/** A channel that records what it publishes; `connected` and `failNext` steer it. */
export class FakeChannel implements BoothChannel {
  connected = true;
  statuses: DeviceStatusMessage[] = [];
  reports: DeviceErrorReport[] = [];
  published: { topic: string; body: string }[] = [];
  /** The next publish rejects with this error. */
  failNext: Error | undefined;
  /** Every publish waits for this (a slow broker). */
  gate: Promise<void> = Promise.resolve();
  /** Publishes begun, answered or not. */
  started = 0;

  private async accept(): Promise<void> {
    this.started += 1;
    await this.gate;
    const error = this.failNext;
    this.failNext = undefined;
    if (error) throw error;
  }

  async publishStatus(message: DeviceStatusMessage): Promise<void> {
    await this.accept();
    this.statuses.push(message);
  }

  async publishReport(report: DeviceErrorReport): Promise<void> {
    await this.accept();
    this.reports.push(report);
  }

  async publish(topic: string, body: string): Promise<void> {
    await this.accept();
    this.published.push({ topic, body });
  }
}

/** The `link` the status board and the outbox read the channel from. */
export function linkTo(channel: BoothChannel | undefined): { current(): BoothChannel | undefined } {
  return { current: () => channel };
}

/** The state in memory, counting saves. */
export function memoryStore(state: Partial<BoothState> = {}) {
  const store = {
    state: {
      prints_left: 700,
      settings_revision: 0,
      software_version: '1.0.0',
      pending_reports: [] as DeviceErrorReport[],
      ...state,
    },
    saves: 0,
    async persist() {
      store.saves += 1;
    },
  };
  return store;
}

/** A command as the server sends it, to `replies`, 30 s from now unless told otherwise. */
export function commandMessage(
  command: DeviceCommandMessage['command'],
  payload: Record<string, unknown> = {},
  overrides: Partial<DeviceCommandMessage> = {},
): DeviceCommandMessage {
  return {
    id: randomUUID(),
    command,
    payload,
    reply_to: 'flashbooth/server/test/replies',
    expires_at: new Date(Date.now() + 30_000).toISOString(),
    ...overrides,
  };
}

/** A reply function that keeps what it was given. */
export function recordingReply() {
  const bodies: Record<string, unknown>[] = [];
  const reply = async (body: Record<string, unknown>) => {
    bodies.push(body);
  };
  return { bodies, reply };
}

export const FIXED_NOW = new Date('2025-05-14T10:20:30.000Z');
