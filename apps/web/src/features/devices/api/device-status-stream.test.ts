import { describe, expect, it } from 'vitest';
import {
  BACKOFF_MAX_MS,
  backoffDelay,
  createEventParser,
  parseStatusEvent,
  type ServerSentEvent,
} from './device-status-stream';

const parse = (...chunks: string[]) => {
  const events: ServerSentEvent[] = [];
  const parser = createEventParser((event) => events.push(event));
  for (const chunk of chunks) parser.feed(chunk);
  return events;
};

const STATUS = {
  id: 7,
  status: 'busy',
  prints_left: 640,
  software_version: '1.4.2',
  pinged_at: null,
  updated_at: '2026-01-02T03:04:05',
};

describe('the server-sent events parser', () => {
  it('reads events split anywhere across chunks, and skips comments and retry', () => {
    const text = `retry: 2000\n: connected\n\nevent: status\ndata: ${JSON.stringify(STATUS)}\n\n: heartbeat\n\n`;
    const whole = parse(text);
    expect(whole).toEqual([{ event: 'status', data: JSON.stringify(STATUS) }]);
    for (let cut = 1; cut < text.length; cut += 7) {
      expect(parse(text.slice(0, cut), text.slice(cut))).toEqual(whole);
    }
  });

  it('joins data lines, takes CRLF and CR line ends, and names unnamed events "message"', () => {
    expect(parse('data: a\r\ndata:b\r', '\n\r\nid: 4\revent: x\rdata\r\r\n')).toEqual([
      { event: 'message', data: 'a\nb' },
      { event: 'x', data: '', id: '4' },
    ]);
  });

  it('does not dispatch an event until its blank line arrives', () => {
    expect(parse('event: status\ndata: {}\n')).toEqual([]);
  });
});

describe('status events', () => {
  it('are checked against the contract', () => {
    expect(parseStatusEvent({ event: 'status', data: JSON.stringify(STATUS) })).toEqual(STATUS);
    expect(parseStatusEvent({ event: 'status', data: '{"id":"7"}' })).toBeUndefined();
    expect(parseStatusEvent({ event: 'status', data: 'not json' })).toBeUndefined();
    expect(
      parseStatusEvent({ event: 'status', data: JSON.stringify({ ...STATUS, updated_at: 'x' }) }),
    ).toBeUndefined();
    expect(
      parseStatusEvent({ event: 'status', data: JSON.stringify({ ...STATUS, prints_left: 1.5 }) }),
    ).toBeUndefined();
    expect(
      parseStatusEvent({ event: 'status', data: JSON.stringify({ ...STATUS, prints_left: null }) }),
    ).toEqual({ ...STATUS, prints_left: null });
    expect(parseStatusEvent({ event: 'other', data: JSON.stringify(STATUS) })).toBeUndefined();
  });
});

describe('reconnect backoff', () => {
  it('doubles from one second up to thirty, between half and all of each step', () => {
    const low = () => 0;
    const high = () => 1;
    expect([0, 1, 2, 3, 4, 5, 6, 10].map((attempt) => backoffDelay(attempt, high))).toEqual([
      1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000,
    ]);
    expect(backoffDelay(0, low)).toBe(500);
    expect(backoffDelay(20, low)).toBe(BACKOFF_MAX_MS / 2);
  });
});
