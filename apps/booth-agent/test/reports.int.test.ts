import path from 'node:path';
import { DeviceErrorReportSchema, mqttTopics } from '@flashbooth/contracts';
import { describe, expect, it } from 'vitest';
import { BOOTH_MESSAGES } from '../src/replies.js';
import { MAX_PENDING_REPORTS } from '../src/report-outbox.js';
import type { Printer } from '../src/printer/printer.js';
import {
  capturePayload,
  eventually,
  gatedCamera,
  type Harness,
  recordingLog,
  sleep,
  useHarness,
} from './harness.js';

let h: Harness;
let dir: string;
useHarness('flashbooth-agent-reports-', (harness, folder) => {
  h = harness;
  dir = folder;
});

/** Waits for the booth's `count`-th error report and checks it against the contract. */
async function nthReport(thingName: string, count = 1) {
  const reports = await eventually(
    () => h.reportsOf(thingName),
    (found) => found.length >= count,
  );
  const report = reports[count - 1]!;
  expect(DeviceErrorReportSchema.safeParse(report).success).toBe(true);
  return report;
}

/** Sends a capture, expects it accepted, and waits until the booth is idle again. */
async function acceptedCapture(thingName: string, mediaIds: number[]) {
  const payload = capturePayload(mediaIds, h.httpUrl);
  const sent = h.command(thingName, 'capture', payload);
  expect(await h.replyTo(sent.id)).toEqual({ id: sent.id, status: 'accepted' });
  return payload;
}

const failingPrinter = (message: string): Printer => ({
  print: () => Promise.reject(new Error(message)),
});

describe('error reports', () => {
  it('reports a capture refused because the foreground cannot be fetched', async () => {
    const { thingName } = await h.startAgent();
    const payload = capturePayload([201], h.httpUrl, '/missing.png');
    const sent = h.command(thingName, 'capture', payload);
    expect(await h.replyTo(sent.id)).toEqual({ id: sent.id, error: BOOTH_MESSAGES.foreground });
    const report = await nthReport(thingName);
    expect(report).toMatchObject({ capture_id: payload.capture_id, delivered_media_ids: [] });
    expect(report.message).toMatch(/artwork \(foreground\) of template "One up" \(id 11\)/);
    expect(report.message).toMatch(/HTTP 404/);
    expect(report.message).toMatch(/Nothing was delivered/);
  });

  it('reports a camera failure with the photo it failed on; nothing delivered, no print', async () => {
    const camera = gatedCamera();
    const { agent, thingName } = await h.startAgent({ camera, printsLeft: 300 });
    const payload = await acceptedCapture(thingName, [211]);
    await camera.taking;
    camera.open(new Error('USB camera disconnected'));
    const report = await nthReport(thingName);
    expect(report).toMatchObject({ capture_id: payload.capture_id, delivered_media_ids: [] });
    expect(report.message).toMatch(/camera did not take photo 1 of 1 \(USB camera disconnected\)/);
    expect(report.report_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(report.at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);
    await agent.idle();
    expect(agent.printsLeft).toBe(300);
    expect(agent.status).toBe('idle');
    expect(h.uploads.filter((u) => u.path.startsWith('/upload/211?'))).toEqual([]);
  });

  it('reports a composition failure', async () => {
    const { thingName } = await h.startAgent({
      camera: { capture: () => Promise.resolve(Buffer.from('not a photo')) },
    });
    const payload = await acceptedCapture(thingName, [221]);
    const report = await nthReport(thingName);
    expect(report).toMatchObject({ capture_id: payload.capture_id, delivered_media_ids: [] });
    expect(report.message).toMatch(/could not be composed into template "One up"/);
  });

  it('reports a printer failure', async () => {
    const { agent, thingName } = await h.startAgent({
      printer: failingPrinter('ribbon out'),
      printsLeft: 300,
    });
    const payload = await acceptedCapture(thingName, [231]);
    const report = await nthReport(thingName);
    expect(report).toMatchObject({ capture_id: payload.capture_id, delivered_media_ids: [] });
    expect(report.message).toMatch(/printer did not print \(ribbon out\)/);
    await agent.idle();
    expect(agent.printsLeft).toBe(300);
  });

  it('keeps an item whose upload fails queued and retries it until it goes; no report', async () => {
    const { agent, thingName } = await h.startAgent();
    h.failUpload.add(242);
    await acceptedCapture(thingName, [241, 242]);
    await agent.idle();
    await eventually(
      () => h.uploads.filter((u) => u.path.startsWith('/upload/242?')).length,
      (attempts) => attempts >= 3,
    );
    expect(h.confirmations).toContain(241);
    expect(agent.deliveryQueue.items).toBe(1);
    h.failUpload.delete(242);
    await agent.delivered();
    expect(h.confirmations.filter((id) => id === 242)).toEqual([242]);
    expect(h.reportsOf(thingName)).toEqual([]);
  });

  it('asks the server for a fresh link when the stored one is refused', async () => {
    const { agent, thingName } = await h.startAgent();
    h.expiredLinks.add(251);
    await acceptedCapture(thingName, [251]);
    await agent.idle();
    await agent.delivered();
    expect(h.freshLinks).toEqual([251]);
    expect(h.uploads.filter((u) => u.path.startsWith('/upload/251?')).map((u) => u.path)).toEqual([
      '/upload/251?sig=fresh',
    ]);
    expect(h.confirmations.filter((id) => id === 251)).toEqual([251]);
  });

  it('confirms again an item whose confirmation failed, without uploading it again', async () => {
    const { agent, thingName } = await h.startAgent();
    h.failConfirm.add(252);
    await acceptedCapture(thingName, [252]);
    await agent.idle();
    await sleep(100);
    h.failConfirm.delete(252);
    await agent.delivered();
    expect(h.uploads.filter((u) => u.path.startsWith('/upload/252?'))).toHaveLength(1);
    expect(h.confirmations.filter((id) => id === 252)).toEqual([252]);
    expect(h.reportsOf(thingName)).toEqual([]);
  });

  it('reports a capture refused for an empty roll', async () => {
    const { thingName } = await h.startAgent({ printsLeft: 0 });
    const payload = capturePayload([261], h.httpUrl);
    const sent = h.command(thingName, 'capture', payload);
    expect(await h.replyTo(sent.id)).toEqual({ id: sent.id, error: BOOTH_MESSAGES.rollEmpty });
    const report = await nthReport(thingName);
    expect(report).toMatchObject({ capture_id: payload.capture_id, delivered_media_ids: [] });
    expect(report.message).toMatch(/paper roll is empty/);
  });

  it('reports nothing for a session that succeeds', async () => {
    const log = recordingLog();
    const { agent, thingName } = await h.startAgent({ printsLeft: 300, log });
    await acceptedCapture(thingName, [271]);
    await agent.idle();
    await agent.delivered();
    expect(h.confirmations).toContain(271);
    // A report is made (and logged) before the session ends, so none can still be on its way.
    expect(agent.pendingReports).toEqual([]);
    expect(log.entries.filter((e) => e.level === 'warn' || e.level === 'error')).toEqual([]);
    expect(h.reportsOf(thingName)).toEqual([]);
  });

  it('reports the roll running low once per crossing of the warning level', async () => {
    const { agent, thingName } = await h.startAgent({ printsLeft: 51 });
    // 51 → 50 → 49 (crosses) → 48.
    for (const mediaId of [281, 282, 283]) {
      await acceptedCapture(thingName, [mediaId]);
      await agent.idle();
    }
    expect(agent.printsLeft).toBe(48);
    // Restocked to the line (staff), then one print crosses it again.
    await h.publishRetained(
      mqttTopics.settings(thingName),
      JSON.stringify({ revision: 1, prints_left: 50 }),
    );
    await eventually(
      () => agent.printsLeft,
      (left) => left === 50,
    );
    await acceptedCapture(thingName, [284]);
    await agent.idle();
    await nthReport(thingName, 2);
    // Reports go out in order, so a report for 48 would have come before the second one.
    expect(h.reportsOf(thingName).map((report) => report.message)).toEqual([
      'Only 49 prints left on the paper roll. Restock the printer soon.',
      'Only 49 prints left on the paper roll. Restock the printer soon.',
    ]);
    expect(h.reportsOf(thingName)[0]).not.toHaveProperty('capture_id');
  });
});

describe('error reports while the broker is away', () => {
  it('keeps a session failure while disconnected and sends it after reconnecting', async () => {
    const camera = gatedCamera();
    const { agent, thingName } = await h.startAgent({ camera });
    const payload = await acceptedCapture(thingName, [291]);
    await camera.taking;
    h.accepting = false;
    h.disconnect(thingName);
    await eventually(
      () => agent.connected,
      (connected) => !connected,
    );
    camera.open(new Error('lens cap stuck'));
    await agent.idle();
    expect(agent.pendingReports).toHaveLength(1);
    expect(h.reportsOf(thingName)).toEqual([]);

    h.accepting = true;
    const report = await nthReport(thingName);
    expect(report).toMatchObject({ capture_id: payload.capture_id, delivered_media_ids: [] });
    expect(report.message).toMatch(/lens cap stuck/);
    await eventually(
      () => agent.pendingReports.length,
      (left) => left === 0,
    );
  });

  it(`keeps at most ${MAX_PENDING_REPORTS} reports, dropping the oldest, and sends them in order`, async () => {
    const { agent, thingName } = await h.startAgent();
    h.accepting = false;
    h.disconnect(thingName);
    await eventually(
      () => agent.connected,
      (connected) => !connected,
    );
    const made = MAX_PENDING_REPORTS + 5;
    for (let n = 1; n <= made; n += 1) agent.reportError(`report ${n}`);
    expect(agent.pendingReports).toHaveLength(MAX_PENDING_REPORTS);
    expect(agent.pendingReports[0]?.message).toBe('report 6');

    h.accepting = true;
    const sent = await eventually(
      () => h.reportsOf(thingName),
      (found) => found.length >= MAX_PENDING_REPORTS,
    );
    expect(sent.map((report) => report.message)).toEqual(
      Array.from({ length: MAX_PENDING_REPORTS }, (_, i) => `report ${i + 6}`),
    );
    expect(new Set(sent.map((report) => report.report_id)).size).toBe(MAX_PENDING_REPORTS);
  });

  it('keeps unsent reports in the state file across a restart', async () => {
    const stateFile = path.join(dir, 'restart', 'state.json');
    const first = await h.startAgent({ stateFile });
    h.accepting = false;
    h.disconnect(first.thingName);
    await eventually(
      () => first.agent.connected,
      (connected) => !connected,
    );
    const kept = first.agent.reportError('the printer door is open');
    await first.agent.stop();
    expect(h.reportsOf(first.thingName)).toEqual([]);

    h.accepting = true;
    const second = await h.startAgent({ stateFile, thingName: first.thingName });
    const report = await nthReport(first.thingName);
    expect(report).toEqual(kept);
    await eventually(
      () => second.agent.pendingReports.length,
      (left) => left === 0,
    );
  });
});
