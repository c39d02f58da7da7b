import { describe, expect, it } from 'vitest';
import { Transfers, type TransferOptions } from './transfers.js';

interface Call {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: Uint8Array;
}

/** A fetch that answers from a script, one entry per request; an Error entry is a network failure. */
function scriptedFetch(script: (Response | Error)[]) {
  const calls: Call[] = [];
  const fetch = (async (input: Parameters<typeof globalThis.fetch>[0], init?: RequestInit) => {
    calls.push({
      url: String(input),
      method: init?.method ?? 'GET',
      headers: (init?.headers ?? {}) as Record<string, string>,
      ...(init?.body ? { body: init.body as Uint8Array } : {}),
    });
    const next = script.shift();
    if (!next) throw new Error('no more scripted answers');
    if (next instanceof Error) throw next;
    return next;
  }) as typeof globalThis.fetch;
  return { calls, fetch };
}

const status = (code: number, body = '') => new Response(body || null, { status: code });

function transfers(script: (Response | Error)[], options: Partial<TransferOptions> = {}) {
  const scripted = scriptedFetch(script);
  return {
    calls: scripted.calls,
    transfers: new Transfers({
      serverUrl: 'http://server.test:8080',
      thingName: 'fb-abc',
      secret: 's3cret',
      timers: { httpTimeoutMs: 1000, uploadRetryMs: 1, uploadAttempts: 3 },
      fetch: scripted.fetch,
      ...options,
    }),
  };
}

describe('Transfers', () => {
  it('resolves relative URLs against the server URL, and says which variable is missing', () => {
    const { transfers: withServer } = transfers([]);
    expect(withServer.resolveUrl('/api/storage/x?sig=1').href).toBe(
      'http://server.test:8080/api/storage/x?sig=1',
    );
    expect(withServer.resolveUrl('https://s3.test/b/k').href).toBe('https://s3.test/b/k');
    const { transfers: without } = transfers([], { serverUrl: undefined });
    expect(() => without.resolveUrl('/api/storage/x')).toThrow(/BOOTH_SERVER_URL/);
  });

  it('downloads the foreground once; a refusal names the status', async () => {
    const ok = transfers([new Response(Buffer.from('png bytes'))]);
    expect((await ok.transfers.download('/fg.png')).toString()).toBe('png bytes');
    const missing = transfers([status(404)]);
    await expect(missing.transfers.download('/fg.png')).rejects.toThrow('GET foreground: HTTP 404');
    expect(missing.calls).toHaveLength(1);
  });

  it('PUTs an upload with its content type, retrying network errors and 5xx', async () => {
    const { transfers: t, calls } = transfers([
      new TypeError('fetch failed'),
      status(503),
      status(200),
    ]);
    await t.upload('/upload/1?sig=x', 'image/jpeg', Buffer.from('jpeg'));
    expect(calls.map((c) => [c.method, c.url])).toEqual([
      ['PUT', 'http://server.test:8080/upload/1?sig=x'],
      ['PUT', 'http://server.test:8080/upload/1?sig=x'],
      ['PUT', 'http://server.test:8080/upload/1?sig=x'],
    ]);
    expect(calls[0]?.headers).toEqual({ 'content-type': 'image/jpeg' });
    expect(Buffer.from(calls[2]!.body!).toString()).toBe('jpeg');
  });

  it('gives an upload up after its attempts with the last answer', async () => {
    const { transfers: t, calls } = transfers([status(500), status(502), status(500, 'disk full')]);
    await expect(t.upload('/u', 'image/jpeg', Buffer.from('x'))).rejects.toThrow(
      'PUT upload: HTTP 500 disk full',
    );
    expect(calls).toHaveLength(3);
  });

  it('does not retry a refused upload link (4xx) but does retry 429', async () => {
    const refused = transfers([status(403, 'expired')]);
    await expect(refused.transfers.upload('/u', 'image/jpeg', Buffer.from('x'))).rejects.toThrow(
      'PUT upload: HTTP 403 expired',
    );
    expect(refused.calls).toHaveLength(1);
    const throttled = transfers([status(429), status(200)]);
    await throttled.transfers.upload('/u', 'image/jpeg', Buffer.from('x'));
    expect(throttled.calls).toHaveLength(2);
  });

  it('confirms an upload as this booth, retrying 409 (not visible yet) but not 404', async () => {
    const { transfers: t, calls } = transfers([status(409), status(200)]);
    await t.confirmUpload(42);
    expect(calls.map((c) => [c.method, c.url, c.headers.authorization])).toEqual([
      ['POST', 'http://server.test:8080/api/device/media/42/uploaded', 'Device fb-abc:s3cret'],
      ['POST', 'http://server.test:8080/api/device/media/42/uploaded', 'Device fb-abc:s3cret'],
    ]);
    const unknown = transfers([status(404, '{"message":"Media not found."}')]);
    await expect(unknown.transfers.confirmUpload(7)).rejects.toThrow(
      'Confirm upload: HTTP 404 {"message":"Media not found."}',
    );
    expect(unknown.calls).toHaveLength(1);
  });

  it('cannot confirm without a server URL', async () => {
    const { transfers: t, calls } = transfers([], { serverUrl: undefined });
    await expect(t.confirmUpload(1)).rejects.toThrow(/no server URL is configured/);
    expect(calls).toEqual([]);
  });
});
