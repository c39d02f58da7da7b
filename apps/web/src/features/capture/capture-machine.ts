/**
 * The photobooth capture flow (spec: visitor.md section 4 "Capture flow", section 9 constants):
 * a pure reducer over the spec's ten states, and a small controller that runs the timers and
 * calls. The controller knows nothing about React, so vitest drives it with fake timers.
 */

import type {
  CaptureEntitlement,
  CaptureResult,
  DevicePingResult,
  MediaUploaded,
  VisitCapture,
} from '@flashbooth/contracts';
import {
  BOOTH_AVAILABILITY_MESSAGES,
  PAYMENT_MESSAGES,
  type CaptureKind,
} from '@flashbooth/contracts/rules';
import { ApiError } from '@/lib/api-client';
import { TimedController } from '@/lib/timed-controller';

/** Capture texts (spec: visitor.md sections 4 and 8). */
export const CAPTURE_MESSAGES = {
  connectFailed: "Sorry, we couldn't connect to the photobooth. Please try refreshing the page",
  busy: 'The photobooth is busy right now. Please wait a moment, then retry.',
  captureFailed:
    'Failed to start capture. The photobooth might be busy or had an issue. Please try refreshing the page.',
  readyTimeout:
    "The photobooth didn't get ready in time. If you were charged, please apply for a refund through Transactions.",
  readyPollFailed: 'Error confirming photobooth status. Please try capturing again.',
  lostConnection: 'Lost connection to photobooth. Please try again.',
  success: 'All done! Your photos are ready.',
  uploadTimeout: 'Something seems to have gone wrong.',
  repostFailed: 'Failed to update repost status. Please try again.',
  /** A capture followed from the visit (after a reload) that the booth could not finish. */
  resumedFailed:
    'The photobooth could not finish your photos. Nothing was charged for them: your payment or credit is kept for your next try.',
  paymentRequired: PAYMENT_MESSAGES.captureNotCovered,
  offline: BOOTH_AVAILABILITY_MESSAGES.offline,
} as const;

/** Spec section 9: the capture timings. Production always uses these values. */
export const CAPTURE_TIMINGS = {
  initialDelayMs: 500,
  pingRetryMs: 2500,
  readyPollMs: 3000,
  readyPollAttempts: 7,
  perCaptureWaitMs: 10_000,
  extraWaitMs: 10_000,
  processingPingMs: 2000,
  processingPingFailures: 3,
  uploadPollMs: 2000,
  uploadPollAttempts: 30,
  /** Ours, not the spec's: how often an offline booth is asked about again. */
  offlineRecheckMs: 5000,
  /**
   * Ours (issue 37): how often a capture resumed from the visit (after a reload, Back, an app
   * switch or on a second phone) is asked about, until it ends.
   */
  visitPollMs: 2000,
} as const;

export type CaptureTimings = { -readonly [K in keyof typeof CAPTURE_TIMINGS]: number };

/** Spec: wait total_captures × 10 s + 10 s after the booth is ready. */
export function processingWaitMs(totalCaptures: number, timings: CaptureTimings): number {
  return Math.max(0, totalCaptures) * timings.perCaptureWaitMs + timings.extraWaitMs;
}

const isStatus = (status: string, wanted: string) => status.trim().toLowerCase() === wanted;
export const isIdle = (status: string) => isStatus(status, 'idle');
export const isReady = (status: string) => isStatus(status, 'ready');
/**
 * Statuses our booth reports after `ready` within the visitor's own session (its countdowns and
 * photos are over: composing and printing, then uploading). Seen while polling for ready, they
 * mean the booth got ready between two polls, not that it never did.
 */
export const isPastReady = (status: string) =>
  isStatus(status, 'processing') || isStatus(status, 'uploading');

/** What the visitor can do about a permanent error: apply for a refund, try again, go back. */
export type ErrorAction = 'refund' | 'retry' | 'back';

export type CaptureState =
  | { kind: 'initial-ping' }
  | { kind: 'ping-retry-pending' }
  /** `message`: the server's words when it refused the capture (busy, updating). */
  | { kind: 'device-busy'; status: string; message?: string }
  /** The booth cannot be reached; the flow asks again every few seconds and goes on by itself. */
  | { kind: 'device-offline' }
  /** Nothing covers this booth for the visitor: pay first (price and credit when known). */
  | { kind: 'needs-payment'; priceRupees: number | null }
  /** `canCapture`: the last ping said idle. `error`: why the visitor is back here. */
  | { kind: 'show-capture-interface'; canCapture: boolean; error: string | null }
  | { kind: 'capture-command-sent' }
  | {
      kind: 'awaiting-device-ready';
      mediaIds: number[];
      totalCaptures: number;
      captureKind: CaptureKind;
      recordSeconds: number;
    }
  | {
      kind: 'device-processing-wait';
      mediaIds: number[];
      /** When the booth was seen ready (ms since the epoch): its countdown starts then. */
      readyAt: number;
      /** When the wait ends (ms since the epoch), for the countdown display. */
      endsAt: number;
      failures: number;
      /** What the booth captures; a motion kind records `recordSeconds` after its countdown. */
      captureKind: CaptureKind;
      recordSeconds: number;
    }
  | { kind: 'awaiting-media-upload'; mediaIds: number[]; captureKind?: CaptureKind }
  | { kind: 'capture-successful'; mediaIds: number[]; captureKind?: CaptureKind }
  | { kind: 'permanent-error'; message: string; action: ErrorAction };

/** Why a capture request failed, as far as the server said (nothing for a network failure). */
export interface CaptureFailure {
  code?: string;
  status?: number;
  message?: string;
}

export function failureOf(error: unknown): CaptureFailure {
  return error instanceof ApiError
    ? { code: error.code, status: error.status, message: error.message }
    : {};
}

export type CaptureEvent =
  | { type: 'RESTART' }
  | { type: 'PING_OK'; status: string }
  | { type: 'PING_FAILED' }
  | { type: 'OFFLINE' }
  | { type: 'NEEDS_PAYMENT'; priceRupees: number | null }
  | { type: 'CAPTURE_PRESSED' }
  | {
      type: 'CAPTURE_STARTED';
      mediaIds: number[];
      totalCaptures: number;
      captureKind: CaptureKind;
      recordSeconds: number;
    }
  | { type: 'CAPTURE_FAILED'; failure: CaptureFailure; priceRupees?: number | null }
  | { type: 'DEVICE_READY'; readyAt: number; endsAt: number }
  | { type: 'READY_TIMEOUT' }
  | { type: 'READY_POLL_FAILED' }
  | { type: 'PROCESSING_PING'; ok: boolean; allowedFailures: number }
  | { type: 'PROCESSING_DONE' }
  | { type: 'UPLOADED' }
  | { type: 'UPLOAD_TIMEOUT' }
  /**
   * The server's record of the visit's capture (issue 37): the screen is drawn from it, whatever
   * state it was in. `receivedAt`: when the answer arrived (ms since the epoch), so the booth's
   * countdown is placed by `since_accepted_ms`, not by the phone's clock against the server's.
   */
  | { type: 'RESUMED'; capture: VisitCapture; receivedAt: number; timings: CaptureTimings };

export const INITIAL_CAPTURE_STATE: CaptureState = { kind: 'initial-ping' };

/** The spec's transitions; an event that does not apply to the current state changes nothing. */
export function captureReducer(state: CaptureState, event: CaptureEvent): CaptureState {
  switch (event.type) {
    case 'RESTART':
      return INITIAL_CAPTURE_STATE;
    case 'PING_OK':
      if (state.kind !== 'initial-ping' && state.kind !== 'ping-retry-pending') return state;
      if (isStatus(event.status, 'offline')) return { kind: 'device-offline' };
      // Spec step 1: idle shows Capture; any status other than idle or ready is busy.
      if (isIdle(event.status)) {
        return { kind: 'show-capture-interface', canCapture: true, error: null };
      }
      if (isReady(event.status)) {
        return { kind: 'show-capture-interface', canCapture: false, error: null };
      }
      return { kind: 'device-busy', status: event.status };
    case 'PING_FAILED':
      // Spec step 2: one retry after 2.5 s, then a permanent error.
      if (state.kind === 'initial-ping') return { kind: 'ping-retry-pending' };
      if (state.kind === 'ping-retry-pending') {
        return {
          kind: 'permanent-error',
          message: CAPTURE_MESSAGES.connectFailed,
          action: 'retry',
        };
      }
      return state;
    case 'OFFLINE':
      return state.kind === 'initial-ping' || state.kind === 'ping-retry-pending'
        ? { kind: 'device-offline' }
        : state;
    case 'NEEDS_PAYMENT':
      return state.kind === 'initial-ping' || state.kind === 'ping-retry-pending'
        ? { kind: 'needs-payment', priceRupees: event.priceRupees }
        : state;
    case 'CAPTURE_PRESSED':
      return state.kind === 'show-capture-interface' && state.canCapture
        ? { kind: 'capture-command-sent' }
        : state;
    case 'CAPTURE_STARTED':
      return state.kind === 'capture-command-sent'
        ? {
            kind: 'awaiting-device-ready',
            mediaIds: event.mediaIds,
            totalCaptures: event.totalCaptures,
            captureKind: event.captureKind,
            recordSeconds: event.recordSeconds,
          }
        : state;
    case 'CAPTURE_FAILED':
      return state.kind === 'capture-command-sent'
        ? refusedState(event.failure, event.priceRupees ?? null)
        : state;
    case 'DEVICE_READY':
      return state.kind === 'awaiting-device-ready'
        ? {
            kind: 'device-processing-wait',
            mediaIds: state.mediaIds,
            readyAt: event.readyAt,
            endsAt: event.endsAt,
            failures: 0,
            captureKind: state.captureKind,
            recordSeconds: state.recordSeconds,
          }
        : state;
    case 'READY_TIMEOUT':
      return state.kind === 'awaiting-device-ready'
        ? { kind: 'permanent-error', message: CAPTURE_MESSAGES.readyTimeout, action: 'refund' }
        : state;
    case 'READY_POLL_FAILED':
      // Spec step 3: polling that keeps failing returns to the capture screen with an error.
      return state.kind === 'awaiting-device-ready'
        ? {
            kind: 'show-capture-interface',
            canCapture: true,
            error: CAPTURE_MESSAGES.readyPollFailed,
          }
        : state;
    case 'PROCESSING_PING': {
      if (state.kind !== 'device-processing-wait') return state;
      // Spec step 4: consecutive failures; a good ping starts the count again.
      const failures = event.ok ? 0 : state.failures + 1;
      if (failures >= event.allowedFailures) {
        return {
          kind: 'permanent-error',
          message: CAPTURE_MESSAGES.lostConnection,
          action: 'refund',
        };
      }
      return { ...state, failures };
    }
    case 'PROCESSING_DONE':
      return state.kind === 'device-processing-wait'
        ? {
            kind: 'awaiting-media-upload',
            mediaIds: state.mediaIds,
            captureKind: state.captureKind,
          }
        : state;
    case 'UPLOADED':
      return state.kind === 'awaiting-media-upload'
        ? { kind: 'capture-successful', mediaIds: state.mediaIds, captureKind: state.captureKind }
        : state;
    case 'RESUMED':
      return resumedState(state, event.capture, event.receivedAt, event.timings);
    case 'UPLOAD_TIMEOUT':
      return state.kind === 'awaiting-media-upload'
        ? { kind: 'permanent-error', message: CAPTURE_MESSAGES.uploadTimeout, action: 'refund' }
        : state;
  }
}

/**
 * The screen for a capture as the server's visit record has it (issue 37): requested waits for
 * the booth; counting down and taking photos show the countdown from when the booth accepted it
 * (the spec's processing wait, so the figure is the one the visitor saw before the reload); the
 * booth's processing shows the countdown to its end, then the upload; delivered is All done; a
 * capture the booth could not finish says so, with its entitlement kept (Try again).
 */
export function resumedState(
  state: CaptureState,
  capture: VisitCapture,
  receivedAt: number,
  timings: CaptureTimings,
): CaptureState {
  const mediaIds = capture.media_ids;
  const captureKind = capture.capture_kind;
  switch (capture.state) {
    case 'requested':
      return {
        kind: 'awaiting-device-ready',
        mediaIds,
        totalCaptures: capture.total_captures,
        captureKind,
        recordSeconds: capture.record_seconds,
      };
    case 'counting_down':
    case 'taking_photos':
    case 'processing': {
      const readyAt = receivedAt - (capture.since_accepted_ms ?? 0);
      const endsAt = readyAt + processingWaitMs(capture.total_captures, timings);
      if (capture.state === 'processing' && receivedAt >= endsAt) {
        return state.kind === 'awaiting-media-upload'
          ? state
          : {
              kind: 'awaiting-media-upload',
              mediaIds,
              captureKind,
            };
      }
      // The same wait as shown already (within a second): keep it, so the countdown runs on.
      if (state.kind === 'device-processing-wait' && Math.abs(state.readyAt - readyAt) < 1000) {
        return state;
      }
      return {
        kind: 'device-processing-wait',
        mediaIds,
        readyAt,
        endsAt,
        failures: 0,
        captureKind,
        recordSeconds: capture.record_seconds,
      };
    }
    case 'delivered':
      return state.kind === 'capture-successful'
        ? state
        : { kind: 'capture-successful', mediaIds, captureKind };
    case 'failed':
      return { kind: 'permanent-error', message: CAPTURE_MESSAGES.resumedFailed, action: 'retry' };
  }
}

/** Whether the capture screen takes up the visit's capture instead of offering a new one. */
export function resumes(capture: VisitCapture | null, templateId: number): boolean {
  if (!capture) return false;
  if (capture.state === 'failed') return false;
  // A finished capture is shown again only on its own template's screen.
  if (capture.state === 'delivered') return capture.template_id === templateId;
  return true;
}

/**
 * A refused capture, each refusal as its own state with the action that fits it (issue 20 item
 * 2): no entitlement is "pay"; a busy or updating booth is "wait and retry"; an offline booth
 * waits for it; a template the booth no longer offers is "go back". Only a capture the booth
 * did not take (the server gave the entitlement back) is the spec's "Failed to start capture",
 * with Try again: nothing was charged, so there is nothing to refund.
 */
function refusedState(failure: CaptureFailure, priceRupees: number | null): CaptureState {
  switch (failure.code) {
    case 'payment_required':
      return { kind: 'needs-payment', priceRupees };
    case 'booth_busy':
    case 'booth_updating':
      return {
        kind: 'device-busy',
        status: failure.code === 'booth_busy' ? 'busy' : 'updating',
        message: failure.message,
      };
    case 'booth_offline':
      return { kind: 'device-offline' };
  }
  if (failure.status === 400 || failure.status === 404) {
    return {
      kind: 'permanent-error',
      message: failure.message ?? CAPTURE_MESSAGES.captureFailed,
      action: 'back',
    };
  }
  return { kind: 'permanent-error', message: CAPTURE_MESSAGES.captureFailed, action: 'retry' };
}

/** Every requested id is reported and uploaded. */
export function allUploaded(mediaIds: number[], items: MediaUploaded['media_items']): boolean {
  const uploaded = new Set(items.filter((item) => item.is_uploaded).map((item) => item.id));
  return mediaIds.length > 0 && mediaIds.every((id) => uploaded.has(id));
}

/** The calls the flow makes, injected so tests need no network. */
export interface CaptureApi {
  /** What a capture would use now and whether the booth can take the visitor (no side effect). */
  entitlement(): Promise<CaptureEntitlement>;
  ping(): Promise<DevicePingResult>;
  capture(): Promise<CaptureResult>;
  uploaded(mediaIds: number[]): Promise<MediaUploaded>;
  /**
   * The capture of the visitor's visit at this booth (issue 37), or null: the screen starts from
   * it after a reload, and follows it until it ends. Without it the flow is the spec's alone.
   */
  visitCapture?(): Promise<VisitCapture | null>;
  /** The template of this screen (a finished capture of another template is not shown). */
  templateId?: number;
}

/** Refusals after which the visit may hold a capture of this visitor already running. */
const MAYBE_RUNNING = new Set(['capture_in_progress', 'booth_busy', 'payment_required']);

/**
 * Runs the flow: timers and calls, feeding the reducer. `start()` (re)starts it, `dispose()`
 * cancels whatever is under way (a later `start()` works again, as React's strict mode needs).
 */
export class CaptureController extends TimedController<CaptureState> {
  /** The booth's price as the last entitlement answer gave it, for the payment panel. */
  private priceRupees: number | null = null;

  constructor(
    private readonly api: CaptureApi,
    private readonly timings: CaptureTimings = CAPTURE_TIMINGS,
    private readonly now: () => number = () => Date.now(),
  ) {
    super(INITIAL_CAPTURE_STATE);
  }

  start(): void {
    const run = this.cancel();
    this.dispatch({ type: 'RESTART' });
    void this.connect(run, this.timings.initialDelayMs);
  }

  /** Busy panel: Retry Connection pings again straight away. */
  retry(): void {
    const run = this.cancel();
    this.dispatch({ type: 'RESTART' });
    void this.connect(run, 0);
  }

  capture(): void {
    if (this.state.kind !== 'show-capture-interface' || !this.state.canCapture) return;
    const run = this.cancel();
    this.dispatch({ type: 'CAPTURE_PRESSED' });
    void this.runCapture(run);
  }

  private dispatch(event: CaptureEvent): void {
    this.setState(captureReducer(this.state, event));
  }

  private async attempt<T>(
    call: () => Promise<T>,
  ): Promise<{ ok: true; value: T } | { ok: false }> {
    try {
      return { ok: true, value: await call() };
    } catch {
      return { ok: false };
    }
  }

  /**
   * Before the spec's ping: ask what a capture would use. An offline booth is waited for (asked
   * again every few seconds) instead of pinged into a connection error; a visitor nothing
   * covers is offered payment instead of a Capture button the server would refuse. When the
   * question itself fails the flow goes on as the spec says (the capture decides).
   */
  private async connect(run: number, delayMs: number): Promise<void> {
    await this.wait(delayMs);
    // The server's record first: a capture of this visit under way (or just delivered) is taken
    // up where it is, and nothing offers to pay for it again.
    if (await this.resumeFromVisit(run)) return;
    if (run !== this.run) return;
    let checked = await this.attempt(() => this.api.entitlement());
    if (run !== this.run) return;
    if (checked.ok && checked.value.availability === 'offline') {
      this.dispatch({ type: 'OFFLINE' });
      while (checked.ok && checked.value.availability === 'offline') {
        await this.wait(this.timings.offlineRecheckMs);
        if (run !== this.run) return;
        checked = await this.attempt(() => this.api.entitlement());
        if (run !== this.run) return;
      }
    }
    // Back (or never gone): connect as at the start.
    if (this.state.kind === 'device-offline') this.dispatch({ type: 'RESTART' });
    this.priceRupees = checked.ok ? checked.value.price_rupees : null;
    if (checked.ok && checked.value.entitlement === null) {
      this.dispatch({ type: 'NEEDS_PAYMENT', priceRupees: checked.value.price_rupees });
      return;
    }
    for (let tries = 0; tries < 2; tries += 1) {
      if (run !== this.run) return;
      if (tries > 0) await this.wait(this.timings.pingRetryMs);
      if (run !== this.run) return;
      const result = await this.attempt(() => this.api.ping());
      if (run !== this.run) return;
      if (result.ok) {
        this.dispatch({ type: 'PING_OK', status: result.value.status });
        return;
      }
      this.dispatch({ type: 'PING_FAILED' });
    }
  }

  /**
   * Takes up the visit's capture when there is one to show (`resumes`; `runningOnly`: only one
   * still under way), and follows it until it ends: delivered, or failed. True when it did.
   */
  private async resumeFromVisit(run: number, runningOnly = false): Promise<boolean> {
    const read = this.api.visitCapture;
    if (!read) return false;
    const found = await this.attempt(() => read());
    if (run !== this.run || !found.ok || !found.value) return false;
    const capture = found.value;
    const ongoing = capture.state !== 'delivered' && capture.state !== 'failed';
    if (runningOnly ? !ongoing : !resumes(capture, this.api.templateId ?? -1)) return false;
    void this.follow(run, capture);
    return true;
  }

  /**
   * Follows the visit's capture: the screen is drawn from each answer, asked every few seconds
   * while the capture runs and never after it ended. A failed question is asked again (the
   * server ends every capture: delivered, or failed and given back, by its deadline).
   */
  private async follow(run: number, first: VisitCapture): Promise<void> {
    const read = this.api.visitCapture!;
    let capture: VisitCapture | null = first;
    let receivedAt = this.now();
    for (;;) {
      if (!capture || capture.capture_id !== first.capture_id) {
        // The visit moved on (another tab picked again): start from the visit as it is.
        void this.connect(run, 0);
        return;
      }
      this.dispatch({ type: 'RESUMED', capture, receivedAt, timings: this.timings });
      if (capture.state === 'delivered' || capture.state === 'failed') return;
      await this.wait(this.timings.visitPollMs);
      if (run !== this.run) return;
      const next = await this.attempt(() => read());
      if (run !== this.run) return;
      if (next.ok) {
        capture = next.value;
        receivedAt = this.now();
      }
    }
  }

  private async runCapture(run: number): Promise<void> {
    let started: { ok: true; value: CaptureResult } | { ok: false; failure: CaptureFailure };
    try {
      started = { ok: true, value: await this.api.capture() };
    } catch (error) {
      started = { ok: false, failure: failureOf(error) };
    }
    if (run !== this.run) return;
    if (!started.ok && MAYBE_RUNNING.has(started.failure.code ?? '')) {
      // Another tab or phone of this visitor may have started the capture: follow it.
      if (await this.resumeFromVisit(run, true)) return;
      if (run !== this.run) return;
    }
    if (!started.ok) {
      this.dispatch({
        type: 'CAPTURE_FAILED',
        failure: started.failure,
        priceRupees: this.priceRupees,
      });
      if (started.failure.code === 'booth_offline') void this.connect(run, 0);
      return;
    }
    const { media_ids: mediaIds, total_captures: totalCaptures } = started.value;
    this.dispatch({
      type: 'CAPTURE_STARTED',
      mediaIds,
      totalCaptures,
      // A server from before motion sends neither: a photo.
      captureKind: started.value.capture_kind ?? 'photo',
      recordSeconds: started.value.record_seconds ?? 0,
    });

    // Step 3: poll every 3 s, up to 7 times, until the booth says ready. A booth already past
    // ready (processing, uploading) counts as ready; one back to idle may have finished the
    // whole session between two polls, so its items are checked before polling on.
    let ready = false;
    let delivered = false;
    let anyAnswer = false;
    for (let poll = 0; poll < this.timings.readyPollAttempts && !ready; poll += 1) {
      await this.wait(this.timings.readyPollMs);
      if (run !== this.run) return;
      const result = await this.attempt(() => this.api.ping());
      if (run !== this.run) return;
      if (!result.ok) continue;
      anyAnswer = true;
      const { status } = result.value;
      ready = isReady(status) || isPastReady(status);
      if (!ready && isIdle(status)) {
        const items = await this.attempt(() => this.api.uploaded(mediaIds));
        if (run !== this.run) return;
        delivered = items.ok && allUploaded(mediaIds, items.value.media_items);
        ready = delivered;
      }
    }
    if (!ready) {
      this.dispatch({ type: anyAnswer ? 'READY_TIMEOUT' : 'READY_POLL_FAILED' });
      return;
    }
    if (delivered) {
      // Everything arrived already: no processing wait, no upload polling.
      this.dispatch({ type: 'DEVICE_READY', readyAt: this.now(), endsAt: this.now() });
      this.dispatch({ type: 'PROCESSING_DONE' });
      this.dispatch({ type: 'UPLOADED' });
      return;
    }

    // Step 4: the photos take total_captures × 10 s + 10 s; ping every 2 s meanwhile.
    const waitMs = processingWaitMs(totalCaptures, this.timings);
    const readyAt = this.now();
    const endsAt = readyAt + waitMs;
    this.dispatch({ type: 'DEVICE_READY', readyAt, endsAt });
    const done = this.wait(waitMs).then(() => 'done' as const);
    while (this.state.kind === 'device-processing-wait') {
      const tick = this.wait(this.timings.processingPingMs).then(() => 'tick' as const);
      const which = await Promise.race([done, tick]);
      if (run !== this.run) return;
      if (which === 'done') {
        this.dispatch({ type: 'PROCESSING_DONE' });
        break;
      }
      const result = await this.attempt(() => this.api.ping());
      if (run !== this.run) return;
      this.dispatch({
        type: 'PROCESSING_PING',
        ok: result.ok,
        allowedFailures: this.timings.processingPingFailures,
      });
    }
    if (this.state.kind !== 'awaiting-media-upload') return;

    // Step 5: poll every 2 s, up to 30 times, until every item is uploaded.
    for (let poll = 0; poll < this.timings.uploadPollAttempts; poll += 1) {
      const result = await this.attempt(() => this.api.uploaded(mediaIds));
      if (run !== this.run) return;
      if (result.ok && allUploaded(mediaIds, result.value.media_items)) {
        this.dispatch({ type: 'UPLOADED' });
        return;
      }
      if (poll < this.timings.uploadPollAttempts - 1) await this.wait(this.timings.uploadPollMs);
      if (run !== this.run) return;
    }
    this.dispatch({ type: 'UPLOAD_TIMEOUT' });
  }
}
