import type { CaptureEntitlement, VisitCapture } from '@flashbooth/contracts';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '@/lib/api-client';
import { scaleDurations } from '@/lib/timing-scale';
import {
  CAPTURE_MESSAGES,
  CAPTURE_TIMINGS,
  CaptureController,
  captureReducer,
  processingWaitMs,
  resumedState,
  resumes,
  type CaptureApi,
} from './capture-machine';

const fail = () => Promise.reject(new Error('network'));

/** One item of GET media/uploaded. */
const item = (id: number, uploaded: boolean) => ({
  id,
  is_uploaded: uploaded,
  lowres_s3_url: null,
  orientation: 'landscape' as const,
});

const entitled = (overrides: Partial<CaptureEntitlement> = {}): CaptureEntitlement => ({
  entitlement: 'free',
  price_rupees: 0,
  credits_rupees: 0,
  availability: 'available',
  ...overrides,
});

function setup(api: Partial<CaptureApi>) {
  const full: CaptureApi = {
    entitlement: vi.fn(() => Promise.resolve(entitled())),
    ping: vi.fn(() => Promise.resolve({ status: 'idle' })),
    capture: vi.fn(() =>
      Promise.resolve({
        media_ids: [7],
        total_captures: 1,
        capture_kind: 'photo' as const,
        record_seconds: 0,
      }),
    ),
    uploaded: vi.fn(() => Promise.resolve({ media_items: [item(7, true)] })),
    ...api,
  };
  const controller = new CaptureController(full, CAPTURE_TIMINGS);
  controller.start();
  return { controller, api: full };
}

/** Pings answer from a script of statuses ('fail' rejects); the last entry repeats. */
function scriptedPing(script: string[]) {
  let index = 0;
  return vi.fn(() => {
    const next = script[Math.min(index, script.length - 1)]!;
    index += 1;
    return next === 'fail' ? fail() : Promise.resolve({ status: next });
  });
}

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('capture flow', () => {
  it('pings after 0.5 s and shows Capture when idle (any case)', async () => {
    const { controller, api } = setup({ ping: scriptedPing(['IDLE']) });
    await vi.advanceTimersByTimeAsync(499);
    expect(api.ping).not.toHaveBeenCalled();
    expect(controller.getState().kind).toBe('initial-ping');
    await vi.advanceTimersByTimeAsync(1);
    expect(controller.getState()).toEqual({
      kind: 'show-capture-interface',
      canCapture: true,
      error: null,
    });
  });

  it('shows busy for another status, and Retry Connection pings again', async () => {
    const { controller } = setup({ ping: scriptedPing(['processing', 'idle']) });
    await vi.advanceTimersByTimeAsync(500);
    expect(controller.getState()).toEqual({ kind: 'device-busy', status: 'processing' });
    controller.retry();
    await vi.advanceTimersByTimeAsync(0);
    expect(controller.getState().kind).toBe('show-capture-interface');
  });

  it('retries a failed ping once after 2.5 s, then gives a permanent error', async () => {
    const { controller, api } = setup({ ping: scriptedPing(['fail']) });
    await vi.advanceTimersByTimeAsync(500);
    expect(controller.getState().kind).toBe('ping-retry-pending');
    await vi.advanceTimersByTimeAsync(2499);
    expect(api.ping).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(api.ping).toHaveBeenCalledTimes(2);
    expect(controller.getState()).toEqual({
      kind: 'permanent-error',
      message: CAPTURE_MESSAGES.connectFailed,
      action: 'retry',
    });
  });

  it('says start failed, with Try again, when the booth did not take the capture', async () => {
    for (const error of [
      new Error('network'),
      new ApiError(CAPTURE_MESSAGES.captureFailed, 503, 'service_unavailable'),
    ]) {
      const { controller } = setup({ capture: () => Promise.reject(error) });
      await vi.advanceTimersByTimeAsync(500);
      controller.capture();
      await vi.advanceTimersByTimeAsync(0);
      expect(controller.getState()).toEqual({
        kind: 'permanent-error',
        message: CAPTURE_MESSAGES.captureFailed,
        action: 'retry',
      });
      controller.dispose();
    }
  });

  it('offers payment before Capture when nothing covers the booth, without pinging', async () => {
    const { controller, api } = setup({
      entitlement: () => Promise.resolve(entitled({ entitlement: null, price_rupees: 49.5 })),
    });
    await vi.advanceTimersByTimeAsync(500);
    expect(controller.getState()).toEqual({ kind: 'needs-payment', priceRupees: 49.5 });
    expect(api.ping).not.toHaveBeenCalled();
    expect(api.capture).not.toHaveBeenCalled();
  });

  it('goes on as the spec says when the entitlement question fails', async () => {
    const { controller } = setup({ entitlement: fail });
    await vi.advanceTimersByTimeAsync(500);
    expect(controller.getState()).toMatchObject({
      kind: 'show-capture-interface',
      canCapture: true,
    });
  });

  it('waits for an offline booth, asking every 5 s, and connects when it is back', async () => {
    let answers = 0;
    const { controller, api } = setup({
      entitlement: vi.fn(() => {
        answers += 1;
        return Promise.resolve(entitled({ availability: answers < 3 ? 'offline' : 'available' }));
      }),
    });
    await vi.advanceTimersByTimeAsync(500);
    expect(controller.getState()).toEqual({ kind: 'device-offline' });
    expect(api.ping).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(5000);
    expect(controller.getState()).toEqual({ kind: 'device-offline' });
    await vi.advanceTimersByTimeAsync(5000);
    expect(api.entitlement).toHaveBeenCalledTimes(3);
    expect(controller.getState()).toMatchObject({
      kind: 'show-capture-interface',
      canCapture: true,
    });
  });

  it("shows each refusal of the capture as its own state with the server's words", async () => {
    const refusals: [ApiError, unknown][] = [
      [
        new ApiError(CAPTURE_MESSAGES.paymentRequired, 409, 'payment_required'),
        { kind: 'needs-payment', priceRupees: 0 },
      ],
      [
        new ApiError('The photobooth is busy with another visitor.', 409, 'booth_busy'),
        {
          kind: 'device-busy',
          status: 'busy',
          message: 'The photobooth is busy with another visitor.',
        },
      ],
      [
        new ApiError('This template is not available at this photobooth.', 400, 'bad_request'),
        {
          kind: 'permanent-error',
          message: 'This template is not available at this photobooth.',
          action: 'back',
        },
      ],
    ];
    for (const [error, expected] of refusals) {
      const { controller } = setup({ capture: () => Promise.reject(error) });
      await vi.advanceTimersByTimeAsync(500);
      controller.capture();
      await vi.advanceTimersByTimeAsync(0);
      expect(controller.getState()).toEqual(expected);
      controller.dispose();
    }
  });

  it('waits for a booth that went offline just as Capture was pressed', async () => {
    let answers = 0;
    const { controller, api } = setup({
      entitlement: vi.fn(() => {
        answers += 1;
        return Promise.resolve(entitled({ availability: answers === 1 ? 'available' : 'offline' }));
      }),
      capture: () => Promise.reject(new ApiError(CAPTURE_MESSAGES.offline, 409, 'booth_offline')),
    });
    await vi.advanceTimersByTimeAsync(500);
    controller.capture();
    await vi.advanceTimersByTimeAsync(0);
    expect(controller.getState()).toEqual({ kind: 'device-offline' });
    await vi.advanceTimersByTimeAsync(5000);
    expect(api.entitlement).toHaveBeenCalledTimes(3);
    expect(controller.getState()).toEqual({ kind: 'device-offline' });
  });

  it('gives up after 7 ready polls 3 s apart with a refund-through-Transactions error', async () => {
    const { controller, api } = setup({
      ping: scriptedPing(['idle', 'idle']),
      uploaded: vi.fn(() => Promise.resolve({ media_items: [item(7, false)] })),
    });
    await vi.advanceTimersByTimeAsync(500);
    controller.capture();
    await vi.advanceTimersByTimeAsync(0);
    expect(controller.getState().kind).toBe('awaiting-device-ready');
    await vi.advanceTimersByTimeAsync(3000 * 7 - 1);
    expect(api.ping).toHaveBeenCalledTimes(1 + 6);
    expect(controller.getState().kind).toBe('awaiting-device-ready');
    await vi.advanceTimersByTimeAsync(1);
    const state = controller.getState();
    expect(state.kind).toBe('permanent-error');
    expect(state.kind === 'permanent-error' && state.message).toMatch(/refund.*Transactions/);
  });

  it('counts a booth already past ready (processing, uploading) as ready', async () => {
    for (const status of ['processing', 'Uploading']) {
      const { controller } = setup({ ping: scriptedPing(['idle', status]) });
      await vi.advanceTimersByTimeAsync(500);
      controller.capture();
      await vi.advanceTimersByTimeAsync(3000);
      expect(controller.getState().kind).toBe('device-processing-wait');
      controller.dispose();
    }
  });

  it('carries a motion kind and its recording into the booth’s session, from when it is ready', async () => {
    const { controller } = setup({
      ping: scriptedPing(['idle', 'ready']),
      capture: () =>
        Promise.resolve({
          media_ids: [9],
          total_captures: 1,
          capture_kind: 'boomerang',
          record_seconds: 1.5,
        }),
    });
    await vi.advanceTimersByTimeAsync(500);
    controller.capture();
    await vi.advanceTimersByTimeAsync(0);
    expect(controller.getState()).toMatchObject({
      kind: 'awaiting-device-ready',
      captureKind: 'boomerang',
      recordSeconds: 1.5,
    });
    await vi.advanceTimersByTimeAsync(3000);
    const state = controller.getState();
    expect(state).toMatchObject({
      kind: 'device-processing-wait',
      captureKind: 'boomerang',
      recordSeconds: 1.5,
    });
    // One countdown and the recording: the spec's wait for one capture.
    if (state.kind === 'device-processing-wait') {
      expect(state.endsAt - state.readyAt).toBe(processingWaitMs(1, CAPTURE_TIMINGS));
    }
    controller.dispose();
  });

  it('succeeds at once when the booth is idle again and every item has arrived', async () => {
    const uploaded = vi.fn(() => Promise.resolve({ media_items: [item(7, true)] }));
    const { controller } = setup({ ping: scriptedPing(['idle', 'offline', 'idle']), uploaded });
    await vi.advanceTimersByTimeAsync(500);
    controller.capture();
    await vi.advanceTimersByTimeAsync(3000);
    // Offline is neither ready nor finished: keep polling, items not asked for.
    expect(controller.getState().kind).toBe('awaiting-device-ready');
    expect(uploaded).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(3000);
    expect(uploaded).toHaveBeenCalledWith([7]);
    expect(controller.getState()).toMatchObject({ kind: 'capture-successful', mediaIds: [7] });
  });

  it('returns to the capture screen with an error when every ready poll fails', async () => {
    const { controller } = setup({ ping: scriptedPing(['idle', 'fail']) });
    await vi.advanceTimersByTimeAsync(500);
    controller.capture();
    await vi.advanceTimersByTimeAsync(3000 * 7);
    expect(controller.getState()).toEqual({
      kind: 'show-capture-interface',
      canCapture: true,
      error: CAPTURE_MESSAGES.readyPollFailed,
    });
  });

  it('loses the connection after 3 consecutive failed pings during processing', async () => {
    const { controller } = setup({ ping: scriptedPing(['idle', 'ready', 'fail']) });
    await vi.advanceTimersByTimeAsync(500);
    controller.capture();
    await vi.advanceTimersByTimeAsync(3000);
    expect(controller.getState().kind).toBe('device-processing-wait');
    await vi.advanceTimersByTimeAsync(2000 * 2);
    expect(controller.getState().kind).toBe('device-processing-wait');
    await vi.advanceTimersByTimeAsync(2000);
    expect(controller.getState()).toEqual({
      kind: 'permanent-error',
      message: CAPTURE_MESSAGES.lostConnection,
      action: 'refund',
    });
  });

  it('waits total_captures × 10 s + 10 s, then succeeds once every item is uploaded', async () => {
    let uploadedCalls = 0;
    const { controller } = setup({
      ping: scriptedPing(['idle', 'ready', 'processing']),
      capture: () =>
        Promise.resolve({
          media_ids: [7, 8],
          total_captures: 2,
          capture_kind: 'photo',
          record_seconds: 0,
        }),
      uploaded: () => {
        uploadedCalls += 1;
        return Promise.resolve({
          media_items: [item(7, true), item(8, uploadedCalls >= 3)],
        });
      },
    });
    await vi.advanceTimersByTimeAsync(500);
    controller.capture();
    await vi.advanceTimersByTimeAsync(3000);
    const waiting = controller.getState();
    expect(waiting.kind).toBe('device-processing-wait');
    await vi.advanceTimersByTimeAsync(30_000 - 1);
    expect(controller.getState().kind).toBe('device-processing-wait');
    await vi.advanceTimersByTimeAsync(1);
    expect(controller.getState().kind).toBe('awaiting-media-upload');
    await vi.advanceTimersByTimeAsync(2000 * 2);
    expect(controller.getState()).toMatchObject({ kind: 'capture-successful', mediaIds: [7, 8] });
    expect(CAPTURE_MESSAGES.success).toBe('All done! Your photos are ready.');
  });

  it('gives up after 30 upload polls 2 s apart', async () => {
    const uploaded = vi.fn(() => Promise.resolve({ media_items: [item(7, false)] }));
    const { controller } = setup({ ping: scriptedPing(['idle', 'ready']), uploaded });
    await vi.advanceTimersByTimeAsync(500);
    controller.capture();
    await vi.advanceTimersByTimeAsync(3000 + 20_000);
    expect(controller.getState().kind).toBe('awaiting-media-upload');
    await vi.advanceTimersByTimeAsync(2000 * 29);
    expect(uploaded).toHaveBeenCalledTimes(30);
    expect(controller.getState()).toEqual({
      kind: 'permanent-error',
      message: 'Something seems to have gone wrong.',
      action: 'refund',
    });
  });

  it('stops all work when disposed', async () => {
    const { controller, api } = setup({});
    controller.dispose();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(api.ping).not.toHaveBeenCalled();
  });
});

describe('helpers', () => {
  it('ignores events that do not apply', () => {
    const state = { kind: 'initial-ping' } as const;
    expect(captureReducer(state, { type: 'UPLOADED' })).toBe(state);
    expect(captureReducer(state, { type: 'CAPTURE_PRESSED' })).toBe(state);
  });

  it('treats ready on the first ping as not busy, but not capturable', () => {
    expect(captureReducer({ kind: 'initial-ping' }, { type: 'PING_OK', status: 'Ready' })).toEqual({
      kind: 'show-capture-interface',
      canCapture: false,
      error: null,
    });
  });

  it('scales the capture durations but not the attempt counts', () => {
    const scaled = scaleDurations(CAPTURE_TIMINGS, 0.1);
    expect(scaled.readyPollMs).toBe(300);
    expect(scaled.perCaptureWaitMs).toBe(1000);
    expect(scaled.readyPollAttempts).toBe(7);
    expect(scaled.processingPingFailures).toBe(3);
    expect(scaled.uploadPollAttempts).toBe(30);
    expect(processingWaitMs(3, CAPTURE_TIMINGS)).toBe(40_000);
  });
});

describe('a capture resumed from the visit (issue 37)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const visitCapture = (overrides: Partial<VisitCapture> = {}): VisitCapture => ({
    capture_id: 'c-1',
    state: 'counting_down',
    template_id: 5,
    capture_kind: 'photo',
    media_ids: [7],
    uploaded_count: 0,
    total_captures: 3,
    record_seconds: 0,
    requested_at: '2026-12-05T10:00:00',
    accepted_at: '2026-12-05T10:00:01',
    finished_at: null,
    since_accepted_ms: 4000,
    credit_used_rupees: 0,
    ...overrides,
  });

  /** The visit's capture answers from a script; the last entry repeats. */
  function scriptedVisit(script: (VisitCapture | null)[]) {
    let index = 0;
    return vi.fn(() => {
      const next = script[Math.min(index, script.length - 1)]!;
      index += 1;
      return Promise.resolve(next);
    });
  }

  it('takes up a paid capture mid-countdown instead of asking for a payment, and ends in All done', async () => {
    const visit = scriptedVisit([
      visitCapture(),
      visitCapture({ state: 'processing', since_accepted_ms: 34_000 }),
      visitCapture({ state: 'delivered', uploaded_count: 1 }),
    ]);
    const { controller, api } = setup({
      visitCapture: visit,
      templateId: 5,
      // Nothing covers a second capture: the spec's flow would ask to pay.
      entitlement: vi.fn(() =>
        Promise.resolve(entitled({ entitlement: null, price_rupees: 49.5 })),
      ),
    });
    await vi.advanceTimersByTimeAsync(500);
    const state = controller.getState();
    expect(state.kind).toBe('device-processing-wait');
    if (state.kind !== 'device-processing-wait') return;
    // The countdown the visitor saw before the reload: 3 × 10 s + 10 s from the booth's start.
    expect(state.endsAt - state.readyAt).toBe(40_000);
    expect(Date.now() - state.readyAt).toBe(4000);
    expect(api.entitlement).not.toHaveBeenCalled();
    expect(api.capture).not.toHaveBeenCalled();
    // Asked again every 2 s while it runs; processing keeps the countdown running.
    await vi.advanceTimersByTimeAsync(2000);
    expect(controller.getState().kind).toBe('device-processing-wait');
    await vi.advanceTimersByTimeAsync(2000);
    expect(controller.getState()).toEqual({
      kind: 'capture-successful',
      mediaIds: [7],
      captureKind: 'photo',
    });
    // And never after it ended.
    await vi.advanceTimersByTimeAsync(20_000);
    expect(visit).toHaveBeenCalledTimes(3);
  });

  it('keeps asking for a long motion capture until it is delivered, with the motion wording', async () => {
    const boomerang = { capture_kind: 'boomerang' as const, total_captures: 1, record_seconds: 3 };
    const running = Array.from({ length: 40 }, () =>
      visitCapture({ ...boomerang, state: 'processing', since_accepted_ms: 60_000 }),
    );
    const visit = scriptedVisit([
      visitCapture({ ...boomerang, state: 'taking_photos', since_accepted_ms: 11_000 }),
      ...running,
      visitCapture({ ...boomerang, state: 'delivered', uploaded_count: 1 }),
    ]);
    const { controller } = setup({ visitCapture: visit, templateId: 5 });
    await vi.advanceTimersByTimeAsync(500);
    expect(controller.getState()).toMatchObject({
      kind: 'device-processing-wait',
      captureKind: 'boomerang',
      recordSeconds: 3,
    });
    await vi.advanceTimersByTimeAsync(2000);
    expect(controller.getState()).toMatchObject({
      kind: 'awaiting-media-upload',
      captureKind: 'boomerang',
    });
    // 80 s later (well past the spec's 30 upload polls of a fresh capture) it still asks...
    await vi.advanceTimersByTimeAsync(78_000);
    expect(controller.getState().kind).toBe('awaiting-media-upload');
    await vi.advanceTimersByTimeAsync(4000);
    expect(controller.getState()).toMatchObject({
      kind: 'capture-successful',
      captureKind: 'boomerang',
    });
  });

  it('shows a finished capture only on its own template, and a failed one not at all', async () => {
    expect(resumes(visitCapture({ state: 'delivered' }), 5)).toBe(true);
    expect(resumes(visitCapture({ state: 'delivered' }), 6)).toBe(false);
    expect(resumes(visitCapture({ state: 'requested' }), 6)).toBe(true);
    expect(resumes(visitCapture({ state: 'failed' }), 5)).toBe(false);
    expect(resumes(null, 5)).toBe(false);

    const { controller } = setup({
      visitCapture: scriptedVisit([visitCapture({ state: 'delivered', template_id: 9 })]),
      templateId: 5,
    });
    await vi.advanceTimersByTimeAsync(500);
    expect(controller.getState()).toEqual({
      kind: 'show-capture-interface',
      canCapture: true,
      error: null,
    });
  });

  it('follows the capture another tab started when its own press is refused', async () => {
    const visit = scriptedVisit([null, visitCapture({ state: 'requested' })]);
    const refused = new ApiError('still in progress', 409, 'capture_in_progress');
    const { controller } = setup({
      visitCapture: visit,
      templateId: 5,
      capture: vi.fn(() => Promise.reject(refused)),
    });
    await vi.advanceTimersByTimeAsync(500);
    controller.capture();
    await vi.advanceTimersByTimeAsync(0);
    expect(controller.getState()).toMatchObject({
      kind: 'awaiting-device-ready',
      mediaIds: [7],
    });
  });

  it('says a capture the booth could not finish kept its entitlement, with Try again', () => {
    const state = resumedState(
      { kind: 'initial-ping' },
      visitCapture({ state: 'failed' }),
      Date.now(),
      CAPTURE_TIMINGS,
    );
    expect(state).toEqual({
      kind: 'permanent-error',
      message: CAPTURE_MESSAGES.resumedFailed,
      action: 'retry',
    });
  });
});
