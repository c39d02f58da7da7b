import { afterEach, describe, expect, it } from 'vitest';
import { databaseTargets } from '../databases.js';
import { startApp, type TestApp } from '../harness.js';
import {
  capture,
  createBooth,
  createOrganization,
  createTemplate,
  makeJpeg,
  ScriptedLink,
} from '../media-fixtures.js';
import { signedIn, signedInSuperUser } from '../harness.js';
import { JOB_DESCRIPTIONS } from '../../src/jobs.js';

const TOKEN = 'metrics-test-token-0123456789';

/** A scripted booth line whose broker connection the test can cut. */
class CuttableLink extends ScriptedLink {
  connected = true;
  override async ping() {
    if (!this.connected) throw new Error('MQTT broker mqtt://test is not connected');
  }
}

/** The value of one sample in an exposition text (`name{labels} value`), 0 when absent. */
function sample(text: string, series: string): number {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

describe.each(databaseTargets)('metrics and probes on $name', ({ name, open }) => {
  const opened: TestApp[] = [];
  afterEach(async () => {
    for (const testApp of opened.splice(0)) {
      await testApp.app.close();
      await testApp.database.close().catch(() => undefined);
    }
  });
  const start = async (env: Record<string, string> = {}, link = new CuttableLink()) => {
    const testApp = await startApp(await open(), env, { deviceLink: link });
    opened.push(testApp);
    return { ...testApp, link };
  };

  it('are off by default: no /metrics route and no metrics port', async () => {
    const { app } = await start();
    // Unknown paths fall to the web app (its page, or 404 without a built web app): no metrics.
    const response = await app.inject({ method: 'GET', url: '/metrics' });
    expect(response.headers['content-type']).not.toContain('version=0.0.4');
    expect(response.body).not.toContain('# TYPE');
    expect(app.metricsPort).toBeUndefined();
  });

  it('ask for the token, then count requests by route pattern and the capture counters', async () => {
    const { app, database, link } = await start({ METRICS_TOKEN: TOKEN });
    const scrape = async () => {
      const response = await app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toContain('text/plain');
      return response.body;
    };

    const anonymous = await app.inject({ method: 'GET', url: '/metrics' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ code: 'unauthorized' });
    const wrong = await app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${TOKEN}x` },
    });
    expect(wrong.statusCode).toBe(401);

    const orgId = await createOrganization(database.db, 'Metrics Mall');
    const templateId = await createTemplate(database.db, { orgIds: [orgId], slots: 1 });
    const booth = await createBooth(database.db, link, { orgId });
    const busy = await createBooth(database.db, link, { orgId, behaviour: 'refuse' });
    await createBooth(database.db, link, { orgId, status: 'offline' });
    const before = await scrape();
    for (const metric of [
      'flashbooth_http_request_duration_seconds',
      'flashbooth_captures_started_total',
      'flashbooth_media_delivered_total',
      'flashbooth_delivery_seconds',
      'flashbooth_captures_failed_total',
      'flashbooth_captures_late_total',
      'flashbooth_mqtt_messages_total',
      'flashbooth_payment_outcomes_total',
      'flashbooth_sms_total',
      'flashbooth_job_run_duration_seconds',
      'flashbooth_booths_online',
      'flashbooth_db_pool_connections',
      'flashbooth_wall_pages_total',
      'process_cpu_seconds_total',
    ]) {
      expect(before, metric).toContain(`# TYPE ${metric} `);
    }
    // Two scripted booths are idle, one offline (the fleet, from the database).
    expect(sample(before, 'flashbooth_booths_online')).toBe(2);
    if (name === 'postgres') {
      expect(sample(before, 'flashbooth_db_pool_connections{state="total"}')).toBeGreaterThan(0);
    }

    const person = await signedIn(app, 'regular');
    const accepted = await capture(app, person.token, booth.id, templateId);
    expect(accepted.statusCode, accepted.body).toBe(200);
    const refused = await capture(app, person.token, busy.id, templateId);
    expect(refused.statusCode).not.toBe(200);
    // The booth delivers the accepted capture's photo.
    const upload = link.lastCapture(booth.thingName).uploads[0]!;
    const put = await app.inject({
      method: 'PUT',
      url: upload.upload_url,
      payload: await makeJpeg(800),
      headers: { 'content-type': 'image/jpeg' },
    });
    expect(put.statusCode).toBe(204);
    const confirmed = await app.inject({
      method: 'POST',
      url: `/api/device/media/${upload.media_id}/uploaded`,
      headers: booth.auth,
      // When the photos were taken: the delivery time runs from here.
      payload: { captured_at: new Date().toISOString() },
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);

    const after = await scrape();
    expect(sample(after, 'flashbooth_captures_started_total{outcome="accepted"}')).toBe(1);
    expect(sample(after, 'flashbooth_captures_started_total{outcome="service_unavailable"}')).toBe(
      1,
    );
    // The refused capture gave its entitlement back at once.
    expect(sample(after, 'flashbooth_captures_failed_total{reason="not_started"}')).toBe(1);
    expect(sample(after, 'flashbooth_media_delivered_total')).toBe(1);
    expect(sample(after, 'flashbooth_delivery_seconds_count')).toBe(1);
    // Pings and capture commands out, their replies in.
    expect(
      sample(after, 'flashbooth_mqtt_messages_total{direction="out",kind="command_capture"}'),
    ).toBe(2);
    expect(sample(after, 'flashbooth_mqtt_messages_total{direction="in",kind="reply"}')).toBe(
      sample(after, 'flashbooth_mqtt_messages_total{direction="out",kind="command_ping"}') + 1,
    );
    // The sign-in code went through the SMS sender.
    expect(sample(after, 'flashbooth_sms_total{outcome="sent"}')).toBe(1);
    // Requests by route pattern, never by raw URL (the media id is not in any label).
    expect(after).toContain(
      'flashbooth_http_request_duration_seconds_count{method="POST",route="/api/regular/devices/:id/capture",status_code="200"} 1',
    );
    expect(after).toContain('route="/api/device/media/:id/uploaded"');
    expect(after).not.toContain(`/api/device/media/${upload.media_id}/uploaded`);

    // The wall's page cache: the first read of a page misses, the next ones are answered kept.
    for (let i = 0; i < 3; i += 1) {
      expect(
        (await app.inject({ method: 'GET', url: '/api/regular/media/public' })).statusCode,
      ).toBe(200);
    }
    const walls = await scrape();
    expect(sample(walls, 'flashbooth_wall_pages_total{result="miss"}')).toBe(1);
    expect(sample(walls, 'flashbooth_wall_pages_total{result="hit"}')).toBe(2);

    // A background job run is timed (the jobs runner's observer).
    await app.jobs.runNow('delivery-deadline');
    const jobs = await scrape();
    expect(
      sample(
        jobs,
        'flashbooth_job_run_duration_seconds_count{job="delivery-deadline",outcome="ok"}',
      ),
    ).toBe(1);
  });

  it('serve on a port of their own, with the token when one is set', async () => {
    const { app } = await start({ METRICS_PORT: '0', METRICS_TOKEN: TOKEN });
    const base = `http://127.0.0.1:${app.metricsPort}`;
    expect((await fetch(`${base}/metrics`)).status).toBe(401);
    const ok = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain('# TYPE flashbooth_captures_started_total counter');
    expect((await fetch(`${base}/api/health`)).status).toBe(404);
    await app.close();
    opened.splice(0);
    await expect(fetch(`${base}/metrics`)).rejects.toThrow();
  });

  it('health details (every job’s counts) need the metrics token or a super user; the probes stay open', async () => {
    const testApp = await start({ METRICS_TOKEN: TOKEN });
    const { app } = testApp;
    const details = (headers: Record<string, string> = {}) =>
      app.inject({ method: 'GET', url: '/api/health/details', headers });

    const anonymous = await details();
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({
      code: 'unauthorized',
      message:
        'The health details need the metrics token (Authorization: Bearer <METRICS_TOKEN>) or a super user’s sign-in.',
    });
    expect((await details({ authorization: `Bearer ${TOKEN}x` })).statusCode).toBe(401);
    const visitor = await signedIn(app, 'regular');
    expect((await details({ authorization: `Bearer ${visitor.token}` })).statusCode).toBe(401);

    const monitor = await details({ authorization: `Bearer ${TOKEN}` });
    expect(monitor.statusCode).toBe(200);
    const body = monitor.json<{ status: string; jobs: { name: string }[] }>();
    expect(body.status).toBe('ok');
    expect(body.jobs.map((job) => job.name)).toEqual(Object.keys(JOB_DESCRIPTIONS));

    const superUser = await signedInSuperUser(testApp);
    const signedInDetails = await details({ authorization: `Bearer ${superUser.token}` });
    expect(signedInDetails.statusCode).toBe(200);
    expect(signedInDetails.json()).toEqual(body);

    for (const url of ['/api/health', '/api/health/live', '/api/health/ready']) {
      expect((await app.inject({ method: 'GET', url })).statusCode, url).toBe(200);
    }
  });

  it('readiness fails while the broker link is down or the database is closed; liveness does not', async () => {
    const { app, database, link } = await start();
    const probe = async (url: string) => app.inject({ method: 'GET', url });
    expect((await probe('/api/health/live')).json()).toEqual({ status: 'ok' });
    expect((await probe('/api/health/ready')).json()).toEqual({ status: 'ok' });

    link.connected = false;
    const brokerDown = await probe('/api/health/ready');
    expect(brokerDown.statusCode).toBe(503);
    expect(brokerDown.json()).toEqual({
      code: 'service_unavailable',
      message: 'Not ready: the MQTT broker link is not reachable.',
    });
    expect((await probe('/api/health/live')).statusCode).toBe(200);
    link.connected = true;
    expect((await probe('/api/health/ready')).statusCode).toBe(200);

    await database.close();
    const databaseDown = await probe('/api/health/ready');
    expect(databaseDown.statusCode).toBe(503);
    expect(databaseDown.json<{ message: string }>().message).toBe(
      'Not ready: the database is not reachable.',
    );
    expect((await probe('/api/health/live')).statusCode).toBe(200);
  });
});
