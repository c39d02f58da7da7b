import type { FastifyInstance } from 'fastify';
import { AppError } from '../../errors.js';
import type { FinishedRun } from '../../lib/job-runner.js';
import type { Services } from '../../services.js';
import type { DeviceLink } from '../mqtt/device-link.js';
import type { SmsSender } from '../sms/sms.sender.js';
import type { Metrics } from './metrics.js';

/**
 * The counters are fed from the outside of the domain code: the HTTP layer's hooks, wrappers
 * around the device link and the SMS sender, and taps on a few service methods, put in place
 * where the app is composed (app.ts). The services themselves know nothing of Prometheus.
 */

/** Replaces `target[name]` (an own instance method) with one that reports its result. */
function tap<T extends object, K extends keyof T>(
  target: T,
  name: K,
  report: {
    ok?: (
      result: Awaited<ReturnType<Extract<T[K], (...args: never[]) => unknown>>>,
      args: Parameters<Extract<T[K], (...args: never[]) => unknown>>,
    ) => void;
    failed?: (error: unknown) => void;
  },
): void {
  const original = target[name] as unknown as (...args: unknown[]) => Promise<unknown>;
  const wrapped = async function (this: unknown, ...args: unknown[]) {
    let result: unknown;
    try {
      result = await original.apply(this, args);
    } catch (error) {
      report.failed?.(error);
      throw error;
    }
    (report.ok as ((result: unknown, args: unknown[]) => void) | undefined)?.(result, args);
    return result;
  };
  // Calls from inside the object (`this.settle(...)`) find the instance's own property first.
  Object.defineProperty(target, name, { value: wrapped, configurable: true, writable: true });
}

/** Times every HTTP answer by its route pattern (unmatched URLs share one label). */
export function instrumentHttp(app: FastifyInstance, metrics: Metrics): void {
  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    metrics.httpRequest(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
  });
}

/** Counts the messages the device link sends and receives (a transparent wrapper). */
export function meteredDeviceLink(link: DeviceLink, metrics: Metrics): DeviceLink {
  return new Proxy(link, {
    get(target, property) {
      if (property === 'request') {
        const request: DeviceLink['request'] = async (thingName, command, payload, timeoutMs) => {
          metrics.mqttMessage('out', `command_${command}`);
          const reply = await target.request(thingName, command, payload, timeoutMs);
          metrics.mqttMessage('in', 'reply');
          return reply;
        };
        return request;
      }
      if (property === 'publishSettings') {
        const publish: DeviceLink['publishSettings'] = async (thingName, settings) => {
          await target.publishSettings(thingName, settings);
          metrics.mqttMessage('out', 'settings');
        };
        return publish;
      }
      if (property === 'onStatus') {
        const onStatus: DeviceLink['onStatus'] = (handler) =>
          target.onStatus((thing, status) => {
            metrics.mqttMessage('in', 'status');
            return handler(thing, status);
          });
        return onStatus;
      }
      if (property === 'onErrorReport') {
        const onErrorReport: DeviceLink['onErrorReport'] = (handler) =>
          target.onErrorReport((thing, report) => {
            metrics.mqttMessage('in', 'error_report');
            return handler(thing, report);
          });
        return onErrorReport;
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** Counts the SMS handed to the provider (a transparent wrapper). */
export function meteredSms(sender: SmsSender, metrics: Metrics): SmsSender {
  return new Proxy(sender, {
    get(target, property) {
      if (property === 'send') {
        const send: SmsSender['send'] = async (message) => {
          try {
            await target.send(message);
          } catch (error) {
            metrics.smsSent('failed');
            throw error;
          }
          metrics.smsSent('sent');
        };
        return send;
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** Capture, delivery and payment outcomes, read from what the services' methods return. */
export function instrumentServices(services: Services, metrics: Metrics): void {
  tap(services.captures, 'capture', {
    ok: () => metrics.captureStarted('accepted'),
    failed: (error) =>
      metrics.captureStarted(error instanceof AppError ? error.code : 'internal_error'),
  });
  tap(services.captures, 'releaseEntitlement', {
    ok: (outcome, [, reason]) => {
      if (outcome.outcome !== 'released') return;
      metrics.captureFailed(
        reason.startsWith('the booth reported') ? 'booth_reported' : 'not_started',
      );
    },
  });
  tap(services.captures, 'sweepUndelivered', {
    ok: (report) => {
      metrics.captureFailed('never_confirmed', report.givenBack);
      metrics.captureLate(report.deliveryFailures);
    },
  });
  tap(services.mediaRepository, 'markUploaded', {
    ok: (changed, [, at, capturedAt]) => {
      if (!changed) return;
      metrics.mediaDelivered(capturedAt ? (at.getTime() - capturedAt.getTime()) / 1000 : undefined);
    },
  });
  tap(services.payments, 'settle', {
    ok: (after, [before]) => {
      if (after.state !== before.state && after.state !== 'PENDING') {
        metrics.paymentOutcome(after.state);
      }
    },
  });
  tap(services.payments, 'reconcile', {
    ok: (report) => {
      metrics.paymentOutcome('expired', report.expired);
    },
  });
  metrics.watchWallCache(services.wallCache.counts);
}

/** The job runner's observer: each finished run's outcome and duration. */
export function jobRunObserver(metrics: Metrics): (run: FinishedRun) => void {
  return (run) =>
    metrics.jobRun(
      run.name,
      run.error === null,
      (run.finishedAt.getTime() - run.startedAt.getTime()) / 1000,
    );
}
