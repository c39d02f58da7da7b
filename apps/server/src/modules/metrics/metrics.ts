import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** What the app counts. Domain code sees only this; the no-op stands in when metrics are off. */
export interface Metrics {
  readonly enabled: boolean;
  /** One HTTP answer: the route's pattern (`/api/regular/media/:id`), never the raw URL. */
  httpRequest(method: string, route: string, statusCode: number, seconds: number): void;
  /** A capture request answered: `accepted`, or the error code it was refused with. */
  captureStarted(outcome: string): void;
  /** One media item uploaded and confirmed, `seconds` after its capture ended (when known). */
  mediaDelivered(seconds: number | undefined): void;
  /** A capture given back without a photo: `not_started`, `booth_reported`, `never_confirmed`. */
  captureFailed(reason: string, count?: number): void;
  /** Captures whose items were not all delivered by the delivery deadline (refunded). */
  captureLate(count?: number): void;
  /** An MQTT message the server sent (`out`) or received (`in`), by kind. */
  mqttMessage(direction: 'in' | 'out', kind: string): void;
  /** A payment reached a final state (COMPLETED, FAILED, REFUNDED) or expired. */
  paymentOutcome(outcome: string, count?: number): void;
  /** One SMS handed to the sender (`sent`) or refused by it (`failed`). */
  smsSent(outcome: 'sent' | 'failed'): void;
  /** One background job run that ended: ok or failed, and how long it took. */
  jobRun(job: string, ok: boolean, seconds: number): void;
  /** Where the wall cache's running counts of pages answered kept (hits) and read are. */
  watchWallCache(counts: { readonly hits: number; readonly misses: number }): void;
}

export const noMetrics: Metrics = {
  enabled: false,
  httpRequest() {},
  captureStarted() {},
  mediaDelivered() {},
  captureFailed() {},
  captureLate() {},
  mqttMessage() {},
  paymentOutcome() {},
  smsSent() {},
  jobRun() {},
  watchWallCache() {},
};

/** Read when Prometheus scrapes: figures the database knows (booths online, the pool). */
export interface ScrapeSources {
  /** Booths whose last status is not `offline`. */
  boothsOnline(): Promise<number>;
  /** PostgreSQL's connection pool; undefined for the embedded PGlite (one in-process session). */
  pool(): { total: number; idle: number; waiting: number } | undefined;
}

/** HTTP answers from 5 ms to 10 s; most API calls sit in the first buckets. */
const HTTP_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.2, 0.5, 1, 2.5, 5, 10];
/** Delivery (capture end → upload confirmed): seconds on a good line, minutes on a bad one. */
const DELIVERY_BUCKETS = [1, 2, 5, 10, 20, 30, 60, 120, 300, 900, 1800, 3600];
const JOB_BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300];

/**
 * The Prometheus registry of one app (its own, not prom-client's global one: tests build many
 * apps in one process). Process metrics (CPU, memory, event loop lag, GC) come from
 * prom-client's defaults.
 */
export class PrometheusMetrics implements Metrics {
  readonly enabled = true;
  readonly registry = new Registry();
  private readonly http: Histogram<'method' | 'route' | 'status_code'>;
  private readonly capturesStarted: Counter<'outcome'>;
  private readonly delivered: Counter;
  private readonly deliverySeconds: Histogram;
  private readonly capturesFailed: Counter<'reason'>;
  private readonly capturesLate: Counter;
  private readonly mqtt: Counter<'direction' | 'kind'>;
  private readonly payments: Counter<'outcome'>;
  private readonly sms: Counter<'outcome'>;
  private readonly jobs: Histogram<'job' | 'outcome'>;
  private wallCacheCounts: { readonly hits: number; readonly misses: number } | undefined;

  constructor(private readonly sources: ScrapeSources) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.http = new Histogram({
      name: 'flashbooth_http_request_duration_seconds',
      help: 'HTTP requests by method, route pattern and status code, and how long they took',
      labelNames: ['method', 'route', 'status_code'],
      buckets: HTTP_BUCKETS,
      registers,
    });
    this.capturesStarted = new Counter({
      name: 'flashbooth_captures_started_total',
      help: 'Capture requests answered: outcome="accepted" when the booth took it, else the error code',
      labelNames: ['outcome'],
      registers,
    });
    this.delivered = new Counter({
      name: 'flashbooth_media_delivered_total',
      help: 'Media items a booth uploaded and confirmed',
      registers,
    });
    this.deliverySeconds = new Histogram({
      name: 'flashbooth_delivery_seconds',
      help: "Seconds from a capture's end to its item's confirmed upload",
      buckets: DELIVERY_BUCKETS,
      registers,
    });
    this.capturesFailed = new Counter({
      name: 'flashbooth_captures_failed_total',
      help: 'Captures given back with nothing delivered, by reason (not_started, booth_reported, never_confirmed)',
      labelNames: ['reason'],
      registers,
    });
    this.capturesLate = new Counter({
      name: 'flashbooth_captures_late_total',
      help: 'Captures not fully delivered by the delivery deadline (a delivery failure: refunded)',
      registers,
    });
    this.mqtt = new Counter({
      name: 'flashbooth_mqtt_messages_total',
      help: 'MQTT messages between this server and the booths, by direction and kind',
      labelNames: ['direction', 'kind'],
      registers,
    });
    this.payments = new Counter({
      name: 'flashbooth_payment_outcomes_total',
      help: 'Payments settled by this instance, by outcome (COMPLETED, FAILED, REFUNDED, expired)',
      labelNames: ['outcome'],
      registers,
    });
    this.sms = new Counter({
      name: 'flashbooth_sms_total',
      help: 'Text messages handed to the SMS provider, by outcome (sent, failed)',
      labelNames: ['outcome'],
      registers,
    });
    this.jobs = new Histogram({
      name: 'flashbooth_job_run_duration_seconds',
      help: 'Background job runs on this instance, by job and outcome (ok, failed), and their durations',
      labelNames: ['job', 'outcome'],
      buckets: JOB_BUCKETS,
      registers,
    });
    const wall = () => this.wallCacheCounts;
    new Counter({
      name: 'flashbooth_wall_pages_total',
      help: "Wall pages answered from this instance's page cache (hit) or read from the database (miss)",
      labelNames: ['result'],
      registers,
      collect() {
        const counts = wall();
        if (!counts) return;
        this.reset();
        this.inc({ result: 'hit' }, counts.hits);
        this.inc({ result: 'miss' }, counts.misses);
      },
    });
    const { sources: scrape } = this;
    new Gauge({
      name: 'flashbooth_booths_online',
      help: 'Booths whose last status is not offline (the whole fleet, read from the database)',
      registers,
      async collect() {
        // A scrape while the database is away leaves the last value rather than failing.
        try {
          this.set(await scrape.boothsOnline());
        } catch {
          /* readiness reports the database */
        }
      },
    });
    new Gauge({
      name: 'flashbooth_db_pool_connections',
      help: 'PostgreSQL pool connections by state (total, idle, waiting clients); absent on PGlite',
      labelNames: ['state'],
      registers,
      collect() {
        const pool = scrape.pool();
        if (!pool) return;
        this.set({ state: 'total' }, pool.total);
        this.set({ state: 'idle' }, pool.idle);
        this.set({ state: 'waiting' }, pool.waiting);
      },
    });
  }

  httpRequest(method: string, route: string, statusCode: number, seconds: number): void {
    this.http.observe({ method, route, status_code: String(statusCode) }, seconds);
  }
  captureStarted(outcome: string): void {
    this.capturesStarted.inc({ outcome });
  }
  mediaDelivered(seconds: number | undefined): void {
    this.delivered.inc();
    if (seconds !== undefined && seconds >= 0) this.deliverySeconds.observe(seconds);
  }
  captureFailed(reason: string, count = 1): void {
    if (count > 0) this.capturesFailed.inc({ reason }, count);
  }
  captureLate(count = 1): void {
    if (count > 0) this.capturesLate.inc(count);
  }
  mqttMessage(direction: 'in' | 'out', kind: string): void {
    this.mqtt.inc({ direction, kind });
  }
  paymentOutcome(outcome: string, count = 1): void {
    if (count > 0) this.payments.inc({ outcome }, count);
  }
  smsSent(outcome: 'sent' | 'failed'): void {
    this.sms.inc({ outcome });
  }
  jobRun(job: string, ok: boolean, seconds: number): void {
    this.jobs.observe({ job, outcome: ok ? 'ok' : 'failed' }, seconds);
  }
  watchWallCache(counts: { readonly hits: number; readonly misses: number }): void {
    this.wallCacheCounts = counts;
  }

  /** The exposition text and its content type. */
  async exposition(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
