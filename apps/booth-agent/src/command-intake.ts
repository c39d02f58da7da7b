import {
  type DeviceCommandMessage,
  DeviceCommandMessageSchema,
  type DeviceReplyMessage,
} from '@flashbooth/contracts';
import type { AgentLog } from './log.js';
import type { Reply } from './replies.js';

/** Remembered command ids: QoS 1 may deliver a command twice, the booth acts on it once. */
export const SEEN_IDS_KEPT = 200;

/**
 * The command's deadline in ms, or undefined when it has none or it cannot be read. The
 * contract's timestamps are UTC; one written without a zone suffix is read as UTC too, never as
 * the booth's local time.
 */
export function commandDeadline(expiresAt: string | undefined): number | undefined {
  if (!expiresAt) return undefined;
  const zoned = /(?:z|[+-]\d\d:?\d\d)$/i.test(expiresAt) ? expiresAt : `${expiresAt}Z`;
  const at = Date.parse(zoned);
  return Number.isFinite(at) ? at : undefined;
}

/** Past its `expires_at`: the server has given up on it (and undone what it started). */
export function isExpired(command: Pick<DeviceCommandMessage, 'expires_at'>, now: Date): boolean {
  const deadline = commandDeadline(command.expires_at);
  return deadline !== undefined && deadline < now.getTime();
}

/** Runs one command; `reply` answers on its `reply_to` topic with its id. */
export type CommandHandler = (command: DeviceCommandMessage, reply: Reply) => Promise<void>;

export interface CommandIntakeOptions {
  thingName: string;
  handlers: Record<DeviceCommandMessage['command'], CommandHandler>;
  now: () => Date;
  log: AgentLog;
}

/**
 * Where the server's commands come in: a message that is not a valid command is logged and
 * dropped, a command already received (QoS 1 redelivers) is dropped silently, one past its
 * `expires_at` is logged and dropped; the rest go to their handler.
 */
export class CommandIntake {
  /** Ids received lately, oldest first (a Set keeps insertion order). */
  private readonly seen = new Set<string>();

  constructor(private readonly options: CommandIntakeOptions) {}

  /** `publish` sends a reply (QoS 1) through the client that delivered the command. */
  async receive(
    payload: Buffer,
    channel: { publish(topic: string, body: string): Promise<void> },
  ): Promise<void> {
    const { thingName, log } = this.options;
    let json: unknown;
    try {
      json = JSON.parse(payload.toString('utf8'));
    } catch {
      log.warn({ thingName }, 'ignoring a command that is not JSON');
      return;
    }
    const parsed = DeviceCommandMessageSchema.safeParse(json);
    if (!parsed.success) {
      log.warn(
        { thingName, issues: parsed.error.issues.map((issue) => issue.message) },
        'ignoring a malformed command',
      );
      return;
    }
    const command = parsed.data;
    if (this.seen.has(command.id)) return;
    this.remember(command.id);

    if (isExpired(command, this.options.now())) {
      log.info(
        { id: command.id, command: command.command, expires_at: command.expires_at },
        'ignoring an expired command',
      );
      return;
    }
    const reply: Reply = async (body) => {
      const message: DeviceReplyMessage = { id: command.id, ...body };
      await channel.publish(command.reply_to, JSON.stringify(message));
    };
    await this.options.handlers[command.command](command, reply);
  }

  private remember(id: string): void {
    this.seen.add(id);
    if (this.seen.size > SEEN_IDS_KEPT) {
      const oldest = this.seen.values().next().value;
      if (oldest !== undefined) this.seen.delete(oldest);
    }
  }
}
