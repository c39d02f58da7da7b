import type { ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';

export interface EventStreamOptions {
  /** How long the browser's EventSource waits before reconnecting. */
  retryMs: number;
  /** A comment line this often keeps proxies from closing a quiet stream. */
  heartbeatMs: number;
  /** A client that does not read: dropped once this much is waiting for it. */
  maxBufferedBytes: number;
  /** Called once when the stream ends, with why (after its timers are stopped). */
  onClose?: (reason: string) => void;
}

export interface EventStream {
  /** Writes SSE text; nothing once closed. A client too slow to read is dropped. */
  write(text: string): void;
  /** Ends the stream (destroy: drop the connection without a clean end). */
  close(reason: string, destroy?: boolean): void;
  /** A timer of this stream, stopped when it closes. */
  every(ms: number, run: () => void): void;
  after(ms: number, run: () => void): void;
}

/**
 * Takes the response over as a server-sent event stream (the live device status, the kiosk
 * walls): the headers proxies need to pass each event on at once, the `retry` line, heartbeats,
 * and a drop of a client that does not read rather than a growing backlog.
 */
export function openEventStream(
  request: FastifyRequest,
  reply: FastifyReply,
  options: EventStreamOptions,
): EventStream {
  reply.hijack();
  const res: ServerResponse = reply.raw;
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-store, no-transform',
    // nginx and similar proxies: pass each event on at once.
    'x-accel-buffering': 'no',
    'x-content-type-options': 'nosniff',
    'x-request-id': request.id,
    // The socket ends with the stream (nothing reuses a stream's connection): a stream ended as
    // the server stops leaves no keep-alive connection behind for server.close() to wait on.
    connection: 'close',
  });
  res.socket?.setNoDelay(true);

  let closed = false;
  const timers: NodeJS.Timeout[] = [];
  const stream: EventStream = {
    write(text) {
      if (closed) return;
      if (res.writableLength > options.maxBufferedBytes) {
        request.log.warn({ buffered: res.writableLength }, 'event stream client too slow');
        stream.close('client too slow', true);
        return;
      }
      res.write(text);
    },
    close(reason, destroy = false) {
      if (closed) return;
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      options.onClose?.(reason);
      if (destroy) res.destroy();
      else if (!res.writableEnded) res.end();
    },
    every(ms, run) {
      const timer = setInterval(run, ms);
      timer.unref();
      timers.push(timer);
    },
    after(ms, run) {
      const timer = setTimeout(run, ms);
      timer.unref();
      timers.push(timer);
    },
  };
  res.on('close', () => stream.close('client disconnected', true));
  stream.write(`retry: ${options.retryMs}\n: connected\n\n`);
  stream.every(options.heartbeatMs, () => stream.write(': heartbeat\n\n'));
  return stream;
}
