import { describe, expect, it } from 'vitest';
import { TransferError, Transfers, type TransferOptions } from './transfers.js';

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
      timers: { httpTimeoutMs: 1000 },
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

  it('PUTs an upload once with its content type', async () => {
    const { transfers: t, calls } = transfers([status(200)]);
    await t.uploadOnce('/upload/1?sig=x', 'image/jpeg', Buffer.from('jpeg'));
    expect(calls.map((c) => [c.method, c.url])).toEqual([
      ['PUT', 'http://server.test:8080/upload/1?sig=x'],
    ]);
    expect(calls[0]?.headers).toEqual({ 'content-type': 'image/jpeg' });
    expect(Buffer.from(calls[0]!.body!).toString()).toBe('jpeg');
  });

  it('says the HTTP status of a refused request, and none for a network failure', async () => {
    const refused = transfers([status(403, 'expired')]);
    const error = await refused.transfers
      .uploadOnce('/u', 'image/jpeg', Buffer.from('x'))
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TransferError);
    expect(error).toMatchObject({ status: 403, message: 'PUT upload: HTTP 403 expired' });
    const down = transfers([new TypeError('fetch failed', { cause: new Error('ECONNREFUSED') })]);
    const network = await down.transfers
      .uploadOnce('/u', 'image/jpeg', Buffer.from('x'))
      .catch((e: unknown) => e);
    expect(network).toMatchObject({ status: undefined, message: 'PUT upload: ECONNREFUSED' });
  });

  it('confirms an upload as this booth with when the capture ended', async () => {
    const { transfers: t, calls } = transfers([status(200), status(200)]);
    await t.confirmOnce(42, '2026-11-27T10:00:00.000Z');
    await t.confirmOnce(43, null);
    expect(calls.map((c) => [c.method, c.url, c.headers.authorization])).toEqual([
      ['POST', 'http://server.test:8080/api/device/media/42/uploaded', 'Device fb-abc:s3cret'],
      ['POST', 'http://server.test:8080/api/device/media/43/uploaded', 'Device fb-abc:s3cret'],
    ]);
    expect(calls[0]?.headers['content-type']).toBe('application/json');
    expect(String(calls[0]?.body)).toBe('{"captured_at":"2026-11-27T10:00:00.000Z"}');
    expect(calls[1]?.body).toBeUndefined();
  });

  it('asks for a fresh upload link as this booth', async () => {
    const link = {
      media_id: 42,
      upload_url: '/api/storage/k?sig=2',
      content_type: 'image/jpeg',
      expires_at: '2026-11-28T10:00:00',
    };
    const { transfers: t, calls } = transfers([
      new Response(JSON.stringify(link), { status: 200 }),
      new Response('{"nope":1}', { status: 200 }),
    ]);
    expect(await t.freshUploadLink(42)).toEqual(link);
    expect(calls[0]).toMatchObject({
      method: 'POST',
      url: 'http://server.test:8080/api/device/media/42/upload-url',
      headers: { authorization: 'Device fb-abc:s3cret' },
    });
    await expect(t.freshUploadLink(42)).rejects.toThrow(/not an upload link/);
  });

  it('cannot confirm without a server URL', async () => {
    const { transfers: t, calls } = transfers([], { serverUrl: undefined });
    await expect(t.confirmOnce(1, null)).rejects.toThrow(/no server URL is configured/);
    expect(calls).toEqual([]);
  });
});
