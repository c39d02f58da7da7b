import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';

const PORT = Number(process.env.E2E_PORT ?? 8091);
export const BASE_URL = `http://localhost:${PORT}`;
// The embedded broker on a known port beside the web port, so a test can connect a booth of its
// own (one without the 10 s countdown). Set here for the workers, which inherit the environment.
const MQTT_PORT = Number(process.env.E2E_MQTT_PORT ?? PORT + 1);
process.env.E2E_MQTT_URL = `mqtt://127.0.0.1:${MQTT_PORT}`;
// A fresh data folder per run: the product starts exactly as on a new machine.
// Made once, by the runner: the workers load this file again and inherit the variable, so a test
// can read the seeded booth's print spool there.
process.env.E2E_DATA_DIR ??= mkdtempSync(path.join(os.tmpdir(), 'flashbooth-e2e-'));
const dataDir = process.env.E2E_DATA_DIR;

const chromium = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
  ],
};

export default defineConfig({
  testDir: './tests',
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL: BASE_URL,
    launchOptions: chromium,
    trace: 'off',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'phone',
      use: {
        ...devices['Pixel 7'],
        viewport: { width: 390, height: 844 },
        launchOptions: chromium,
      },
    },
    {
      // Tests tagged @flow check what a screen does, which is the same at both sizes: they run
      // at phone size only (most visitors are on a phone), which keeps `npm test` within its
      // 15 minutes on 2 cores. Untagged tests (layout, fit, what differs by size) run at both.
      name: 'desktop',
      grepInvert: /@flow/,
      use: {
        ...devices['Desktop Chrome'],
        viewport: { width: 1280, height: 800 },
        launchOptions: chromium,
      },
    },
  ],
  webServer: {
    command: 'node --import tsx ../apps/launcher/src/main.ts',
    url: `${BASE_URL}/api/health`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(PORT),
      DATA_DIR: dataDir,
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      // Every browser test signs in from 127.0.0.1: lift the per-address sending limit.
      OTP_SEND_LIMIT_PER_IP: '100000',
      // The seeded staff phones sign in once per console test: more than a day's 50 codes.
      OTP_SEND_LIMIT_PER_PHONE: '5000',
      OTP_GLOBAL_HOURLY_LIMIT: '100000',
      // No pause between wrong codes, so sign-in-link.spec.ts can spend a phone's daily budget (10
      // wrong codes) at once; only phones with 5 or more wrong codes in a day notice.
      OTP_BACKOFF_BASE_SECONDS: '0',
      SUPER_USER_PHONES: '+919000000099',
      // Not the dev server's broker port (1884), so a running dev server does not clash.
      MQTT_PORT: String(MQTT_PORT),
      // The seeded demo booths take their photos with the webcam driver, through Debian's real
      // ffmpeg, with its test source standing in for the USB camera (issue 22).
      BOOTH_CAMERA: 'webcam',
      BOOTH_WEBCAM_FORMAT: 'lavfi',
      BOOTH_WEBCAM_DEVICE: 'testsrc2=size=1620x1080:rate=30',
      BOOTH_WEBCAM_SIZE: '1620x1080',
      BOOTH_WEBCAM_WARMUP_FRAMES: '3',
    },
  },
});
