import { type MediaUploadLink, MediaUploadLinkSchema } from '@flashbooth/contracts';

export interface TransferTimers {
  /** Fetching the template's foreground and each upload, confirmation or link request. */
  httpTimeoutMs: number;
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
 * A request that did not succeed: `status` is the HTTP answer's, undefined when none came (the
 * network, a timeout). The delivery worker decides from it whether to wait for the network,
 * retry the item later, fetch a fresh link or give the item up.
 */
export class TransferError extends Error {
  constructor(
    message: string,
    readonly status: number | undefined,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'TransferError';
  }
}

/**
 * The booth's HTTP traffic with the server and the object store: the template's foreground, and
 * for the delivery queue one attempt at a time of each upload, its confirmation and a fresh
 * upload link. Retrying is the delivery worker's job (delivery/delivery-worker.ts).
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

  /** One PUT of `body` to a presigned upload URL. */
  async uploadOnce(
    url: string,
    contentType: string,
    body: Buffer,
    signal?: AbortSignal,
  ): Promise<void> {
    const target = this.resolveUrl(url);
    const response = await this.request('PUT upload', signal, (combined) =>
      this.fetch(target, {
        method: 'PUT',
        headers: { 'content-type': contentType },
        body: new Uint8Array(body),
        signal: combined,
      }),
    );
    await drain(response);
  }

  /**
   * One POST /api/device/media/{id}/uploaded as this booth (`Authorization: Device thing:secret`),
   * with when the capture ended (`captured_at`, UTC ISO-8601) so the server measures delivery.
   * Confirming again is a no-op on the server.
   */
  async confirmOnce(
    mediaId: number,
    capturedAt: string | null,
    signal?: AbortSignal,
  ): Promise<void> {
    const target = this.deviceUrl(`/api/device/media/${mediaId}/uploaded`);
    const response = await this.request('Confirm upload', signal, (combined) =>
      this.fetch(target, {
        method: 'POST',
        headers: {
          authorization: this.authorization,
          ...(capturedAt ? { 'content-type': 'application/json' } : {}),
        },
        ...(capturedAt ? { body: JSON.stringify({ captured_at: capturedAt }) } : {}),
        signal: combined,
      }),
    );
    await drain(response);
  }

  /** POST /api/device/media/{id}/upload-url: a fresh presigned link for a waiting item. */
  async freshUploadLink(mediaId: number, signal?: AbortSignal): Promise<MediaUploadLink> {
    const target = this.deviceUrl(`/api/device/media/${mediaId}/upload-url`);
    const response = await this.request('Upload link', signal, (combined) =>
      this.fetch(target, {
        method: 'POST',
        headers: { authorization: this.authorization },
        signal: combined,
      }),
    );
    let json: unknown;
    try {
      json = await response.json();
    } catch (error) {
      throw new TransferError('Upload link: the answer is not JSON', undefined, { cause: error });
    }
    const parsed = MediaUploadLinkSchema.safeParse(json);
    if (!parsed.success) {
      throw new TransferError('Upload link: the answer is not an upload link', undefined);
    }
    return parsed.data;
  }

  private get authorization(): string {
    return `Device ${this.options.thingName}:${this.options.secret}`;
  }

  private deviceUrl(pathname: string): URL {
    const { serverUrl } = this.options;
    if (!serverUrl) {
      throw new TransferError(
        'Cannot deliver: no server URL is configured (BOOTH_SERVER_URL)',
        undefined,
      );
    }
    return new URL(pathname, serverUrl);
  }

  /** One request with the HTTP timeout (and `signal`); a non-2xx answer throws with its status. */
  private async request(
    label: string,
    signal: AbortSignal | undefined,
    send: (signal: AbortSignal) => Promise<Response>,
  ): Promise<Response> {
    const timeout = AbortSignal.timeout(this.options.timers.httpTimeoutMs);
    let response: Response;
    try {
      response = await send(signal ? AbortSignal.any([signal, timeout]) : timeout);
    } catch (error) {
      const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
      const why = cause instanceof Error ? cause.message : String(cause);
      throw new TransferError(`${label}: ${why}`, undefined, { cause: error });
    }
    if (response.ok) return response;
    const text = (await response.text().catch(() => '')).slice(0, 200);
    throw new TransferError(`${label}: HTTP ${response.status} ${text}`.trim(), response.status);
  }
}

/** Reads an answer's body to its end, so its connection goes back to the pool. */
async function drain(response: Response): Promise<void> {
  await response.arrayBuffer().catch(() => undefined);
}
