import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { Camera } from './camera/camera.js';
import { SimulatedCamera } from './camera/simulated-camera.js';
import {
  checkCamera,
  checkEncoder,
  checkPrint,
  checkPrinter,
  checkServer,
  describeCameraFailure,
  doctorCommand,
  doctorExitCode,
  formatResult,
  parseDoctorArgs,
  summaryLine,
  type CheckResult,
} from './doctor.js';
import type { PrintJob, Printer, PrinterStatus } from './printer/printer.js';

// The broker check and the whole command against a broker and an HTTP server:
// test/doctor.int.test.ts. Here every check is fed fakes, and time is a counter.
function ticking(step = 7) {
  let t = 0;
  return () => {
    t += step;
    return t;
  };
}

const failingCamera = (error: Error): Camera => ({
  driver: 'gphoto2',
  capture: () => Promise.reject(error),
});

const printerWith = (status?: PrinterStatus): Printer & { jobs: PrintJob[] } => {
  const jobs: PrintJob[] = [];
  return {
    jobs,
    print: (job) => {
      jobs.push(job);
      return Promise.resolve({ jobId: 'Booth-7' });
    },
    ...(status ? { status: () => Promise.resolve(status) } : {}),
  };
};

const answer = (status: number, body: unknown): typeof fetch =>
  (() => Promise.resolve(new Response(JSON.stringify(body), { status }))) as typeof fetch;

describe('parseDoctorArgs', () => {
  it('reads --print, --broker-login and --help, and names an unknown option', () => {
    expect(parseDoctorArgs([])).toEqual({
      options: { print: false, brokerLogin: false },
      help: false,
    });
    expect(parseDoctorArgs(['--print', '--broker-login']).options).toEqual({
      print: true,
      brokerLogin: true,
    });
    expect(parseDoctorArgs(['--help']).help).toBe(true);
    expect(parseDoctorArgs(['--prnt']).error).toBe('Unknown option: --prnt');
  });
});

describe('formatResult and the summary', () => {
  const pass: CheckResult = {
    name: 'camera',
    status: 'pass',
    ms: 812,
    detail: 'simulated: 1620x1080 JPEG, 97 KB',
  };
  const fail: CheckResult = {
    name: 'printer',
    status: 'fail',
    ms: 31,
    detail: 'cups:DNP: paper out',
    fix: 'The printer is out of paper: load paper',
  };
  const skip: CheckResult = {
    name: 'server',
    status: 'skip',
    ms: 0,
    detail: 'BOOTH_SERVER_URL is not set',
  };

  it('writes one line per check with its mark, time and what to do', () => {
    expect(formatResult(pass)).toBe('✓ camera    812 ms  simulated: 1620x1080 JPEG, 97 KB');
    expect(formatResult(fail)).toBe(
      '✗ printer    31 ms  cups:DNP: paper out → The printer is out of paper: load paper',
    );
    expect(formatResult(skip)).toBe('– server      0 ms  BOOTH_SERVER_URL is not set');
  });

  it('exits 0 only when nothing failed; says all passed only when nothing was skipped', () => {
    expect(doctorExitCode([pass, skip])).toBe(0);
    expect(summaryLine([pass, skip])).toBe(
      'No check failed, but not everything was checked (skipped: server).',
    );
    expect(summaryLine([pass, { ...pass, name: 'login' }])).toBe('All checks passed.');
    expect(doctorExitCode([pass, fail])).toBe(1);
    expect(summaryLine([fail, { ...fail, name: 'broker' }])).toBe(
      '2 checks failed: fix them and run flashbooth-booth doctor again.',
    );
  });
});

describe('checkCamera', () => {
  it('takes one photo and reports its size and the time taken', async () => {
    const result = await checkCamera(new SimulatedCamera(), 'simulated', ticking(250));
    expect(result).toMatchObject({ name: 'camera', status: 'pass', ms: 250 });
    expect(result.detail).toMatch(/^simulated: 1620x1080 JPEG, \d+ KB$/);
  });

  it('says what to do when the photo fails', async () => {
    const error = new Error('No camera found: check that the camera is switched on');
    expect(await checkCamera(failingCamera(error), 'gphoto2', ticking())).toEqual({
      name: 'camera',
      status: 'fail',
      ms: 7,
      detail: 'gphoto2: the photo failed',
      fix: 'No camera found: check that the camera is switched on',
    });
  });
});

describe('checkEncoder', () => {
  it('fails and says what to install when ffmpeg is missing', async () => {
    const result = await checkEncoder(() => 0, 'flashbooth-no-such-ffmpeg');
    expect(result).toMatchObject({
      name: 'encoder',
      status: 'fail',
      detail: 'ffmpeg is not installed',
      fix: 'install ffmpeg: sudo apt-get install ffmpeg (motion templates need it)',
    });
  });
});

describe('describeCameraFailure', () => {
  it('keeps a driver’s sentence and adds the cause to a bare message', () => {
    const worded = new Error('The camera could not focus: add light', { cause: new Error('PTP') });
    expect(describeCameraFailure(worded)).toBe('The camera could not focus: add light');
    expect(describeCameraFailure(new Error('capture failed', { cause: new Error('EIO') }))).toBe(
      'capture failed: EIO',
    );
    expect(describeCameraFailure('boom')).toBe('boom');
  });
});

describe('checkPrinter and the test print', () => {
  it('passes an idle or printing queue and fails one that needs someone', async () => {
    expect(
      await checkPrinter(printerWith({ state: 'idle', message: null }), 'cups:DNP', ticking()),
    ).toEqual({
      name: 'printer',
      status: 'pass',
      ms: 7,
      detail: 'cups:DNP: idle',
    });
    expect(
      await checkPrinter(
        printerWith({
          state: 'ink_out',
          message: 'The printer is out of ink or ribbon: replace it',
        }),
        'cups:DNP',
        ticking(),
      ),
    ).toMatchObject({
      status: 'fail',
      detail: 'cups:DNP: ink out',
      fix: 'The printer is out of ink or ribbon: replace it',
    });
    expect((await checkPrinter(printerWith(), 'custom', ticking())).status).toBe('skip');
  });

  it('prints nothing unless asked; asked, sends a 6×4 test page', async () => {
    const printer = printerWith({ state: 'idle' });
    await checkPrinter(printer, 'cups:DNP', ticking());
    expect(printer.jobs).toEqual([]);
    const result = await checkPrint(
      printer,
      'fb-abcdefghij',
      ticking(),
      () => new Date('2026-11-27T20:00:00Z'),
    );
    expect(result).toMatchObject({ status: 'pass', detail: 'test page sent as job Booth-7' });
    const [job] = printer.jobs;
    expect(job).toMatchObject({ copies: 1, strips: 1, jobName: 'Flashbooth test page' });
    const meta = await sharp(job!.image).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 1800, 1200]);
  });
});

describe('checkServer', () => {
  it('passes a healthy server', async () => {
    expect(
      await checkServer(
        'https://booths.example.com/',
        answer(200, { status: 'ok' }),
        1000,
        ticking(),
      ),
    ).toEqual({
      name: 'server',
      status: 'pass',
      ms: 7,
      detail: 'https://booths.example.com/api/health: healthy',
    });
  });

  it('fails an unhealthy or unreachable server, and skips without BOOTH_SERVER_URL', async () => {
    expect(
      await checkServer(
        'https://booths.example.com',
        answer(503, { message: 'The database is not reachable.' }),
        1000,
        ticking(),
      ),
    ).toMatchObject({
      status: 'fail',
      detail: 'https://booths.example.com/api/health: HTTP 503 (The database is not reachable.)',
      fix: 'the server is up but not ready: tell its operator',
    });
    const unreachable = (() =>
      Promise.reject(
        new TypeError('fetch failed', {
          cause: new Error('getaddrinfo ENOTFOUND booths.example.com'),
        }),
      )) as typeof fetch;
    expect(
      await checkServer('https://booths.example.com', unreachable, 1000, ticking()),
    ).toMatchObject({
      status: 'fail',
      detail: 'https://booths.example.com/api/health: getaddrinfo ENOTFOUND booths.example.com',
      fix: "check BOOTH_SERVER_URL and the booth's internet connection",
    });
    expect((await checkServer(undefined, answer(200, {}), 1000, ticking())).status).toBe('skip');
  });
});

describe('doctorCommand', () => {
  it('names the bad settings and exits 1 before checking anything', async () => {
    const lines: string[] = [];
    const code = await doctorCommand(
      [],
      { BOOTH_SETTINGS_FILE: '/nonexistent/flashbooth/booth.env' },
      { write: (line) => lines.push(line) },
    );
    expect(code).toBe(1);
    expect(lines[0]).toMatch(/^✗ config .*Invalid booth configuration:\n/s);
    expect(lines[0]).toMatch(/\n {2}BOOTH_MQTT_URL: required/);
    expect(lines).toHaveLength(2);
  });

  it('answers --help and refuses an unknown option', async () => {
    const lines: string[] = [];
    expect(await doctorCommand(['--help'], {}, { write: (line) => lines.push(line) })).toBe(0);
    expect(lines[0]).toMatch(/^Usage: flashbooth-booth doctor/);
    expect(await doctorCommand(['--nope'], {}, { write: (line) => lines.push(line) })).toBe(2);
  });
});
