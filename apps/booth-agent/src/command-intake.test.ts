import type { DeviceCommandMessage } from '@flashbooth/contracts';
import { describe, expect, it } from 'vitest';
import { commandMessage, FakeChannel, FIXED_NOW, recordingLog } from '../test/fakes.js';
import {
  CommandIntake,
  type CommandHandler,
  commandDeadline,
  isExpired,
  SEEN_IDS_KEPT,
} from './command-intake.js';

/** An intake whose handlers record the commands they ran (ping also replies). */
function intakeAt(now = FIXED_NOW) {
  const ran: DeviceCommandMessage[] = [];
  const handler: CommandHandler = async (command, reply) => {
    ran.push(command);
    await reply({ status: 'idle' });
  };
  const log = recordingLog();
  const intake = new CommandIntake({
    thingName: 'fb-test',
    handlers: { ping: handler, capture: handler, update: handler },
    now: () => now,
    log,
  });
  const channel = new FakeChannel();
  const receive = (message: unknown) =>
    intake.receive(
      Buffer.from(typeof message === 'string' ? message : JSON.stringify(message)),
      channel,
    );
  return { ran, log, channel, receive };
}

const inSeconds = (seconds: number) => new Date(FIXED_NOW.getTime() + seconds * 1000).toISOString();

describe('CommandIntake', () => {
  it('runs a command delivered twice once (QoS 1 redelivers)', async () => {
    const { ran, channel, receive } = intakeAt();
    const capture = commandMessage('capture', { capture_id: 'c1' }, { expires_at: inSeconds(30) });
    await receive(capture);
    await receive(capture);
    expect(ran.map((command) => command.id)).toEqual([capture.id]);
    expect(channel.published).toHaveLength(1);
    // Another command is not mistaken for it.
    const other = commandMessage('capture', { capture_id: 'c1' }, { expires_at: inSeconds(30) });
    await receive(other);
    expect(ran.map((command) => command.id)).toEqual([capture.id, other.id]);
  });

  it('runs a duplicate that arrives while the first is still being handled only once', async () => {
    const { ran, receive } = intakeAt();
    const ping = commandMessage('ping', {}, { expires_at: inSeconds(30) });
    await Promise.all([receive(ping), receive(ping), receive(ping)]);
    expect(ran).toHaveLength(1);
  });

  it(`forgets ids beyond the last ${SEEN_IDS_KEPT}, oldest first`, async () => {
    const { ran, receive } = intakeAt();
    const first = commandMessage('ping', {}, { expires_at: inSeconds(30) });
    await receive(first);
    for (let n = 0; n < SEEN_IDS_KEPT - 1; n += 1) {
      await receive(commandMessage('ping', {}, { expires_at: inSeconds(30) }));
    }
    await receive(first);
    expect(ran).toHaveLength(SEEN_IDS_KEPT);
    await receive(commandMessage('ping', {}, { expires_at: inSeconds(30) }));
    await receive(first);
    expect(ran).toHaveLength(SEEN_IDS_KEPT + 2);
  });

  it('ignores a command past its expires_at (with or without a zone suffix) and logs it', async () => {
    const { ran, log, channel, receive } = intakeAt();
    const past = inSeconds(-1);
    await receive(commandMessage('capture', {}, { expires_at: past }));
    await receive(commandMessage('ping', {}, { expires_at: past.slice(0, 19) }));
    expect(ran).toEqual([]);
    expect(channel.published).toEqual([]);
    expect(log.messages('info')).toEqual([
      'ignoring an expired command',
      'ignoring an expired command',
    ]);
  });

  it('runs a command due later, or one without expires_at', async () => {
    const { ran, receive } = intakeAt();
    const later = commandMessage('ping', {}, { expires_at: inSeconds(1) });
    const open = commandMessage('ping', {}, { expires_at: undefined });
    await receive(later);
    await receive(open);
    expect(ran.map((command) => command.id)).toEqual([later.id, open.id]);
  });

  it('answers on reply_to with the command id', async () => {
    const { channel, receive } = intakeAt();
    const ping = commandMessage('ping', {}, { expires_at: inSeconds(30), reply_to: 'r/1' });
    await receive(ping);
    expect(channel.published).toEqual([
      { topic: 'r/1', body: JSON.stringify({ id: ping.id, status: 'idle' }) },
    ]);
  });

  it('drops what is not JSON or not a command, with a warning', async () => {
    const { ran, log, receive } = intakeAt();
    await receive('not json');
    await receive({ id: 'x', command: 'reboot', reply_to: 'r' });
    await receive({ command: 'ping' });
    expect(ran).toEqual([]);
    expect(log.messages('warn')).toEqual([
      'ignoring a command that is not JSON',
      'ignoring a malformed command',
      'ignoring a malformed command',
    ]);
  });
});

describe('command expiry', () => {
  it('reads expiry times as UTC', () => {
    expect(commandDeadline('2025-05-14T10:20:30')).toBe(Date.UTC(2025, 4, 14, 10, 20, 30));
    expect(commandDeadline('2025-05-14T10:20:30Z')).toBe(Date.UTC(2025, 4, 14, 10, 20, 30));
    expect(commandDeadline(undefined)).toBeUndefined();
    expect(commandDeadline('soon')).toBeUndefined();
  });

  it('is expired only strictly after the deadline; an unreadable one never expires', () => {
    expect(isExpired({ expires_at: '2025-05-14T10:20:30' }, FIXED_NOW)).toBe(false);
    expect(isExpired({ expires_at: '2025-05-14T10:20:29' }, FIXED_NOW)).toBe(true);
    expect(isExpired({ expires_at: '2025-05-14T12:20:29+02:00' }, FIXED_NOW)).toBe(true);
    expect(isExpired({ expires_at: 'soon' }, FIXED_NOW)).toBe(false);
    expect(isExpired({}, FIXED_NOW)).toBe(false);
  });
});
