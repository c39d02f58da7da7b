import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  BOOTH_AGENT_VERSION,
  BoothAgent,
  SimulatedCamera,
  SimulatedPrinter,
  type AgentLog,
} from '@flashbooth/booth-agent';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { staffApi, uniqueTag, type RegisteredBooth } from './support';

/*
 * Real booths for the tests: a booth registered through the staff API, run in the test process
 * by the real booth agent (simulated camera and printer) against the embedded broker. The server
 * sends its capture command over MQTT; the agent composes, prints, uploads and confirms, as at a
 * venue.
 */

/** A registered booth with its running agent. */
export interface TestBooth extends RegisteredBooth {
  agent: BoothAgent;
  /** What the agent logged as errors; a capture checks it stayed empty. */
  errors: string[];
}

export interface StartBoothOptions {
  /**
   * The countdown before each photo; none by default, so a capture takes a second instead of
   * 10 s. A booth driven through the capture screen needs one (see payments.spec.ts).
   */
  countdownMs?: number;
  /** Where the agent installs software updates; without it the booth refuses them. */
  releasesDir?: string;
}

function errorsLog(errors: string[]): AgentLog {
  const ignore = () => undefined;
  return {
    debug: ignore,
    info: ignore,
    warn: ignore,
    error: (details, message) => {
      const err = details.err instanceof Error ? `: ${details.err.message}` : '';
      errors.push(`${message}${err}`);
    },
  };
}

/** Connects the booth's agent to the embedded broker; resolves once it is idle. */
export async function startBooth(
  registered: RegisteredBooth,
  serverUrl: string,
  options: StartBoothOptions = {},
): Promise<TestBooth> {
  const mqttUrl = process.env.E2E_MQTT_URL;
  if (!mqttUrl)
    throw new Error('E2E_MQTT_URL is not set: run the tests through playwright.config.ts');
  const errors: string[] = [];
  const agent = new BoothAgent({
    mqttUrl,
    thingName: registered.thingName,
    secret: registered.secret,
    camera: new SimulatedCamera(),
    printer: new SimulatedPrinter(mkdtempSync(path.join(os.tmpdir(), 'flashbooth-e2e-spool-'))),
    softwareVersion: BOOTH_AGENT_VERSION,
    serverUrl,
    log: errorsLog(errors),
    timers: { countdownMs: options.countdownMs ?? 0 },
    connectTimeoutMs: 5000,
    ...(options.releasesDir ? { releasesDir: options.releasesDir } : {}),
  });
  await agent.start();
  return { ...registered, agent, errors };
}

/**
 * What a spec file's tests share in a worker (booths, templates): made by the first test that
 * asks, made again after a failed attempt, and stopped after the file's last test. Call it at the
 * top of the spec file.
 */
export function sharedRig<T>(
  make: (request: APIRequestContext, serverUrl: string) => Promise<T>,
  stop: (rig: T) => Promise<unknown>,
): (request: APIRequestContext, serverUrl: string | undefined) => Promise<T> {
  let rig: Promise<T> | undefined;
  test.afterAll(async () => {
    const current = await rig?.catch(() => undefined);
    rig = undefined;
    if (current) await stop(current);
  });
  return (request, serverUrl) => {
    rig ??= (async () => {
      if (!serverUrl) throw new Error('baseURL is not configured');
      return make(request, serverUrl);
    })();
    rig.catch(() => {
      rig = undefined;
    });
    return rig;
  };
}

/** A running booth of the demo organization and a one-photo landscape template it offers. */
export interface DemoRig {
  orgId: number;
  booth: TestBooth;
  templateId: number;
}

/** A spec file's {@link DemoRig} (see {@link sharedRig}); `name` tells its booth and template apart. */
export function demoRig(name: string) {
  return sharedRig<DemoRig>(
    async (request, serverUrl) => {
      const tag = uniqueTag();
      const staff = await staffApi(request);
      const orgId = await staff.demoOrgId();
      const registered = await staff.createBooth(`${name} Booth ${tag}`, orgId);
      const templateId = await staff.createTemplate(orgId, `${tag} ${name}`, 'landscape', {
        slots: 1,
      });
      return { orgId, booth: await startBooth(registered, serverUrl), templateId };
    },
    (rig) => rig.booth.agent.stop(),
  );
}

/**
 * A real capture for the visitor of `token` at the booth; answers the media id once the booth is
 * idle again with no error logged and the server has the photo (uploaded and confirmed from the
 * booth's delivery queue).
 */
export async function captureAt(
  request: APIRequestContext,
  token: string,
  booth: TestBooth,
  templateId: number,
): Promise<number> {
  const response = await request.post(`/api/regular/devices/${booth.id}/capture`, {
    headers: { Authorization: `Bearer ${token}` },
    data: { template_id: templateId },
  });
  expect(response.ok(), await response.text()).toBe(true);
  const { media_ids } = (await response.json()) as { media_ids: number[] };
  expect(media_ids).toHaveLength(1);
  await booth.agent.idle();
  expect(booth.errors, `booth ${booth.name} reported errors`).toEqual([]);
  // The session ends once the photo is printed and written to the booth's delivery queue; the
  // upload follows in the background (issue 22). Resolve once the server has it.
  const id = media_ids[0]!;
  await expect
    .poll(
      async () => {
        const uploaded = await request.get(`/api/regular/media/uploaded?media_ids=${id}`, {
          headers: { Authorization: `Bearer ${token}` },
        });
        const body = (await uploaded.json()) as { media_items: { is_uploaded: boolean }[] };
        return body.media_items[0]?.is_uploaded;
      },
      { message: `item ${id} delivered from booth ${booth.name}`, timeout: 30_000 },
    )
    .toBe(true);
  return id;
}
