import { sleep } from './time.js';

export interface TransferTimers {
  /** Fetching the template's foreground and each upload or confirmation request. */
  httpTimeoutMs: number;
  /** Wait before retrying a failed upload or confirmation (doubled each time). */
  uploadRetryMs: number;
  /** Attempts per upload and per confirmation. */
  uploadAttempts: number;
}

export interface TransferOptions {
  /**
   * The server's base URL (http://host:port), against which relative upload, foreground and
   * release URLs are resolved (the local object store hands out relative ones unless PUBLIC_URL
   * is set), and where uploads are confirmed.
   */
  serverUrl?: string;
  /** The booth's login, sent with each confirmation (`Authorization: Device thing:secret`). */
  thingName: string;
  secret: string;
  timers: TransferTimers;
  /** The HTTP client (tests pass a scripted one). */
  fetch?: typeof fetch;
}

/**
 * The booth's HTTP traffic with the server and the object store: the template's foreground, the
 * print's uploads and their confirmations. A venue network drops now and then, so uploads and
 * confirmations are retried while their answer says a retry can help.
 */
export class Transfers {
  private readonly fetch: typeof fetch;

  constructor(private readonly options: TransferOptions) {
    this.fetch = options.fetch ?? ((input, init) => fetch(input, init));
  }

  /** `url` as an absolute URL: a relative one is resolved against the server URL. */
  resolveUrl(url: string): URL {
    try {
      return new URL(url, this.options.serverUrl);
    } catch (error) {
      throw new Error(
        this.options.serverUrl
          ? `Invalid URL "${url}"`
          : `The server sent the relative URL "${url}" but no server URL is configured (BOOTH_SERVER_URL)`,
        { cause: error },
      );
    }
  }

  /** GETs the template's foreground (once: a capture that cannot get it is refused). */
  async download(url: string): Promise<Buffer> {
    const response = await this.fetch(this.resolveUrl(url), {
      signal: AbortSignal.timeout(this.options.timers.httpTimeoutMs),
    });
    if (!response.ok) throw new Error(`GET foreground: HTTP ${response.status}`);
    return Buffer.from(await response.arrayBuffer());
  }

  /** PUTs the print to a presigned upload URL; the link stays valid while retrying. */
  async upload(url: string, contentType: string, body: Buffer): Promise<void> {
    const target = this.resolveUrl(url);
    await this.withRetries(
      'PUT upload',
      (signal) =>
        this.fetch(target, {
          method: 'PUT',
          headers: { 'content-type': contentType },
          body: new Uint8Array(body),
          signal,
        }),
      // A refused link (expired, wrong type, too large) will not start working.
      (status) => status === 429,
    );
  }

  /** POST /api/device/media/{id}/uploaded as this booth (`Authorization: Device thing:secret`). */
  async confirmUpload(mediaId: number): Promise<void> {
    const { serverUrl, thingName, secret } = this.options;
    if (!serverUrl) {
      throw new Error('Cannot confirm uploads: no server URL is configured (BOOTH_SERVER_URL)');
    }
    const target = new URL(`/api/device/media/${mediaId}/uploaded`, serverUrl);
    await this.withRetries(
      'Confirm upload',
      (signal) =>
        this.fetch(target, {
          method: 'POST',
          headers: { authorization: `Device ${thingName}:${secret}` },
          signal,
        }),
      // 409: the object is not visible yet (eventual consistency): worth another try.
      (status) => status === 409,
    );
  }

  /**
   * Up to `uploadAttempts` requests, waiting `uploadRetryMs` doubled after each failure. Network
   * errors and 5xx are retried, 4xx only when `retry4xx` says so; the last error is thrown.
   */
  private async withRetries(
    label: string,
    request: (signal: AbortSignal) => Promise<Response>,
    retry4xx: (status: number) => boolean,
  ): Promise<void> {
    const { uploadAttempts, uploadRetryMs, httpTimeoutMs } = this.options.timers;
    let lastError: unknown;
    for (let attempt = 1; attempt <= uploadAttempts; attempt += 1) {
      try {
        const response = await request(AbortSignal.timeout(httpTimeoutMs));
        if (response.ok) return;
        const text = (await response.text().catch(() => '')).slice(0, 200);
        lastError = new Error(`${label}: HTTP ${response.status} ${text}`.trim());
        if (response.status >= 400 && response.status < 500 && !retry4xx(response.status)) break;
      } catch (error) {
        lastError = error;
      }
      if (attempt < uploadAttempts) await sleep(uploadRetryMs * 2 ** (attempt - 1));
    }
    throw lastError instanceof Error ? lastError : new Error(String(lastError));
  }
}
