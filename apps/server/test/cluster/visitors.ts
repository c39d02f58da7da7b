/*
 * Visitors and staff as HTTP clients of a balanced installation: sign-in with the code from the
 * development SMS outbox, a sandbox payment, a capture, and the live device status stream. Calls
 * are retried the way a person (or the web app) would try again while an instance, the
 * database or the broker is restarting: on a lost connection, a 5xx, or a booth that is busy
 * or briefly unreachable.
 */
import { get as httpGet, type IncomingMessage } from 'node:http';
import { sleep } from './cluster.js';

export interface Answer {
  status: number;
  body: Record<string, unknown>;
  servedBy: string | undefined;
  ms: number;
}

/** Every request made, for the latency figures and the error count. */
export interface CallRecord {
  ms: number;
  status: number;
  at: number;
  /** The method and path asked for. */
  url: string;
}

export class ApiClient {
  readonly calls: CallRecord[] = [];

  constructor(readonly baseUrl: string) {}

  /** One request; a lost connection answers status 0. */
  async request(
    method: string,
    url: string,
    options: { token?: string; json?: unknown; form?: Record<string, string> } = {},
  ): Promise<Answer> {
    const headers: Record<string, string> = {};
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    let body: string | undefined;
    if (options.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(options.form).toString();
    }
    const started = performance.now();
    try {
      const response = await fetch(new URL(url, this.baseUrl), {
        method,
        headers,
        ...(body === undefined ? {} : { body }),
        redirect: 'manual',
        signal: AbortSignal.timeout(20_000),
      });
      const text = await response.text();
      const ms = performance.now() - started;
      this.calls.push({ ms, status: response.status, at: Date.now(), url: `${method} ${url}` });
      let parsed: Record<string, unknown> = {};
      try {
        parsed = text ? (JSON.parse(text) as Record<string, unknown>) : {};
      } catch {
        parsed = { text: text.slice(0, 200) };
      }
      return {
        status: response.status,
        body: parsed,
        servedBy: response.headers.get('x-served-by') ?? undefined,
        ms,
      };
    } catch (error) {
      const ms = performance.now() - started;
      this.calls.push({ ms, status: 0, at: Date.now(), url: `${method} ${url}` });
      return { status: 0, body: { error: (error as Error).message }, servedBy: undefined, ms };
    }
  }

  /**
   * Repeats the request while the answer is a lost connection, a 5xx, a 429 or what `again`
   * accepts, up to `ms`; returns the last answer.
   */
  async retried(
    method: string,
    url: string,
    options: { token?: string; json?: unknown; form?: Record<string, string> } = {},
    again: (answer: Answer) => boolean = () => false,
    ms = 45_000,
  ): Promise<Answer> {
    const deadline = Date.now() + ms;
    let pause = 150;
    for (;;) {
      const answer = await this.request(method, url, options);
      const transient = answer.status === 0 || answer.status >= 500 || answer.status === 429;
      if ((!transient && !again(answer)) || Date.now() > deadline) return answer;
      await sleep(pause);
      pause = Math.min(pause * 2, 1000);
    }
  }
}

const code = (answer: Answer) => (answer.body as { code?: string }).code;

function expectStatus(answer: Answer, status: number, what: string): void {
  if (answer.status !== status) {
    throw new Error(`${what}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`);
  }
}

export interface SignedIn {
  phone: string;
  token: string;
  userId: number;
}

/**
 * Signs up (or in) with `phone` in `pool` and enters the newest code from the outbox. The
 * whole round is repeated if a restart lost the code's request or its verification.
 */
export async function signIn(
  api: ApiClient,
  pool: 'regular' | 'enterprise',
  phone: string,
  name = 'Cluster Visitor',
): Promise<SignedIn> {
  for (let attempt = 1; ; attempt += 1) {
    let sent = await api.retried('POST', `/api/${pool}/auth/sign-up`, { json: { phone, name } });
    if (sent.status === 409) {
      sent = await api.retried('POST', `/api/${pool}/auth/sign-in`, { json: { phone } });
    }
    if (sent.status !== 200 && sent.status !== 201) {
      expectStatus(sent, 200, `sign-in code for ${phone}`);
    }
    const outbox = await api.retried('GET', `/api/dev/sms?phone=${encodeURIComponent(phone)}`);
    expectStatus(outbox, 200, 'the SMS outbox');
    const latest = (outbox.body.items as { code: string | null }[])[0]?.code;
    if (!latest) throw new Error(`no code in the outbox for ${phone}`);
    const verified = await api.retried('POST', `/api/${pool}/auth/verify`, {
      json: { phone, code: latest },
    });
    if (verified.status === 200) {
      const body = verified.body as { access_token: string; user: { id: number } };
      return { phone, token: body.access_token, userId: body.user.id };
    }
    // A verification whose answer was lost used the code up: ask for a new one.
    if (attempt >= 4) expectStatus(verified, 200, `verify ${phone}`);
  }
}

/**
 * A sandbox payment for a capture at `deviceId`: create, checkout, "Pay" on the sandbox page,
 * then the status until COMPLETED. Returns the transaction id.
 */
export async function pay(
  api: ApiClient,
  token: string,
  deviceId: number,
  templateId: number,
): Promise<number> {
  const busy = (answer: Answer) =>
    answer.status === 409 &&
    ['booth_busy', 'booth_offline', 'booth_updating'].includes(code(answer) ?? '');
  const created = await api.retried(
    'POST',
    '/api/regular/payments/create',
    { token, json: { device_id: deviceId, template_id: templateId } },
    busy,
  );
  expectStatus(created, 200, 'payments/create');
  const txnId = (created.body as { txn_id: number }).txn_id;
  // The booth is asked again at checkout: while the broker restarts it may be offline.
  const checkout = await api.retried(
    'POST',
    '/api/regular/payments/checkout',
    {
      token,
      json: {
        txn_id: txnId,
        redirect_url: `${api.baseUrl}/payment-status?deviceId=${deviceId}&template_id=${templateId}&txn_id=${txnId}`,
      },
    },
    busy,
  );
  expectStatus(checkout, 200, 'payments/checkout');
  const page = new URL((checkout.body as { payment_url: string }).payment_url, api.baseUrl);
  const paid = await api.retried('POST', page.pathname, { form: { action: 'pay' } });
  if (paid.status >= 400) expectStatus(paid, 200, 'the sandbox "Pay" button');
  const deadline = Date.now() + 45_000;
  for (;;) {
    const status = await api.retried('GET', `/api/regular/payments/${txnId}/status`, { token });
    const state = (status.body as { state?: string }).state;
    if (state === 'COMPLETED') return txnId;
    if (Date.now() > deadline || (state && state !== 'PENDING')) {
      throw new Error(`payment ${txnId} did not complete: ${JSON.stringify(status.body)}`);
    }
    await sleep(200);
  }
}

export type CaptureOutcome =
  | { kind: 'accepted'; mediaIds: number[] }
  /** The answer was lost (an instance died) and the entitlement is gone: the DB has the truth. */
  | { kind: 'unknown' };

/**
 * One capture with what the visitor has paid. A busy or unreachable booth is asked again; a
 * lost answer is not repeated once the entitlement is spent (payment_required) or the capture
 * runs (capture_in_progress).
 */
export async function capture(
  api: ApiClient,
  token: string,
  deviceId: number,
  templateId: number,
): Promise<CaptureOutcome> {
  const deadline = Date.now() + 60_000;
  let lost = false;
  let pause = 150;
  /** The answers before this one (status and code), for a failure's message. */
  const earlier: string[] = [];
  for (;;) {
    const answer = await api.request('POST', `/api/regular/devices/${deviceId}/capture`, {
      token,
      json: { template_id: templateId },
    });
    earlier.push(`${answer.status} ${code(answer) ?? ''}`.trim());
    if (answer.status === 200) {
      return { kind: 'accepted', mediaIds: (answer.body as { media_ids: number[] }).media_ids };
    }
    // The lost attempt spent the entitlement (payment_required) or started the capture, which
    // now runs (capture_in_progress: one capture at a time per visit).
    if (
      answer.status === 409 &&
      ['payment_required', 'capture_in_progress'].includes(code(answer) ?? '') &&
      lost
    ) {
      return { kind: 'unknown' };
    }
    // No answer, or a 5xx: the instance died with the request, or failed after spending the
    // entitlement (the database went away), so the capture may or may not have started.
    if (answer.status === 0 || answer.status >= 500) lost = true;
    const retry =
      answer.status === 0 ||
      answer.status >= 500 ||
      (answer.status === 409 &&
        ['booth_busy', 'booth_offline', 'booth_updating'].includes(code(answer) ?? ''));
    if (!retry || Date.now() > deadline) {
      throw new Error(
        `capture at booth ${deviceId}: ${answer.status} ${JSON.stringify(answer.body)} (answers: ${earlier.join(', ')})`,
      );
    }
    await sleep(pause);
    pause = Math.min(pause * 2, 800);
  }
}

/** One connection of the status stream: which instance served it and what it carried. */
export interface StreamConnection {
  servedBy: string | undefined;
  openedAt: number;
  closedAt: number | undefined;
  events: { at: number; id: number; status: string; printsLeft: number | null }[];
}

/**
 * The live device status stream as the web reads it: GET .../status-stream with the staff
 * token, reconnecting after a lost connection (the `retry:` the server sends is short).
 */
export class StatusStreamClient {
  readonly connections: StreamConnection[] = [];
  private stopped = false;
  private response: IncomingMessage | undefined;
  private loop: Promise<void> | undefined;

  constructor(
    private readonly baseUrl: string,
    private readonly token: () => string,
  ) {}

  start(): void {
    this.loop = this.run();
  }

  get current(): StreamConnection | undefined {
    return this.connections.at(-1);
  }

  events(): StreamConnection['events'] {
    return this.connections.flatMap((connection) => connection.events);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.response?.destroy();
    await this.loop;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      await this.once().catch(() => undefined);
      if (!this.stopped) await sleep(300);
    }
  }

  private async once(): Promise<void> {
    const response = await new Promise<IncomingMessage>((resolve, reject) => {
      const request = httpGet(
        `${this.baseUrl}/api/enterprise/devices/status-stream`,
        { agent: false, headers: { authorization: `Bearer ${this.token()}` } },
        resolve,
      );
      request.once('error', reject);
    });
    if (response.statusCode !== 200) {
      response.resume();
      return;
    }
    this.response = response;
    const connection: StreamConnection = {
      servedBy: response.headers['x-served-by'] as string | undefined,
      openedAt: Date.now(),
      closedAt: undefined,
      events: [],
    };
    this.connections.push(connection);
    response.setEncoding('utf8');
    let buffer = '';
    await new Promise<void>((resolve) => {
      response.on('data', (chunk: string) => {
        buffer += chunk;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          let name = 'message';
          const data: string[] = [];
          for (const line of block.split('\n')) {
            if (line.startsWith('event:')) name = line.slice(6).trim();
            else if (line.startsWith('data:')) data.push(line.slice(5).trim());
          }
          if (name === 'status' && data.length > 0) {
            const event = JSON.parse(data.join('\n')) as {
              id: number;
              status: string;
              prints_left: number | null;
            };
            connection.events.push({
              at: Date.now(),
              id: event.id,
              status: event.status,
              printsLeft: event.prints_left,
            });
          }
        }
      });
      response.once('close', resolve);
      response.once('error', () => resolve());
    });
    connection.closedAt = Date.now();
  }
}

/** The p-th percentile (0..100) of `values`, nearest rank. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[
    Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  ]!;
}
