// A CUPS scheduler of the test's own (issue 39): Debian's cupsd, run as root with a temporary
// configuration, listening on a socket in a temporary folder (lp and lpstat find it through
// CUPS_SERVER), with virtual printers from printer-driver-cups-pdf. The machine's own CUPS
// service is not used or touched. In CI (CI=true) a machine that cannot run it fails the test
// instead of skipping it (.ci/run installs cups and printer-driver-cups-pdf).
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

const CUPSD = '/usr/sbin/cupsd';
const CUPS_PDF_BACKEND = '/usr/lib/cups/backend/cups-pdf';
const CUPS_PDF_PPD = '/usr/share/ppd/cups-pdf/CUPS-PDF_opt.ppd';
const CUPS_PDF_CONF = '/etc/cups/cups-pdf.conf';

/** Why this machine cannot run the test's scheduler, or undefined when it can. */
export function cupsdUnavailable(): string | undefined {
  if (process.getuid?.() !== 0) return 'cupsd and its cups-pdf backend must run as root';
  for (const file of [CUPSD, CUPS_PDF_BACKEND, CUPS_PDF_PPD]) {
    if (!existsSync(file)) {
      return `${file} is missing: apt-get install cups printer-driver-cups-pdf`;
    }
  }
  return undefined;
}

/**
 * The cups-pdf PPD with the page sizes of a 6×4 in dye-sublimation printer's driver (Gutenprint's
 * DNP and Citizen PPDs): w288h432, and w288h432-div2 (the same page, cut in two strips), which the
 * booth asks for with -o media=… (cups-printer.ts).
 */
export function dyeSubPpd(ppd: string): string {
  const sizes: [string, string][] = [
    ['w288h432', '4x6 in'],
    ['w288h432-div2', '4x6 in, 2 strips'],
  ];
  const after = (keyword: string, line: (name: string, label: string) => string) => {
    const marker = `*Default${keyword}:`;
    const at = ppd.indexOf('\n', ppd.indexOf(marker));
    if (ppd.indexOf(marker) < 0) throw new Error(`the PPD has no ${marker}`);
    ppd = `${ppd.slice(0, at + 1)}${sizes.map(([name, label]) => `${line(name, label)}\n`).join('')}${ppd.slice(at + 1)}`;
  };
  const setPage = '"<</PageSize[288 432]/ImagingBBox null>>setpagedevice"';
  after('PageSize', (name, label) => `*PageSize ${name}/${label}: ${setPage}`);
  after('PageRegion', (name, label) => `*PageRegion ${name}/${label}: ${setPage}`);
  after('ImageableArea', (name) => `*ImageableArea ${name}: "0 0 288 432"`);
  after('PaperDimension', (name) => `*PaperDimension ${name}: "288 432"`);
  return ppd;
}

/** Where cups-pdf writes a job of `user` (the `Out` of /etc/cups/cups-pdf.conf). */
function cupsPdfOutput(user: string, home: string): string {
  const conf = existsSync(CUPS_PDF_CONF) ? readFileSync(CUPS_PDF_CONF, 'utf8') : '';
  const out = /^\s*Out\s+(.+?)\s*$/m.exec(conf)?.[1] ?? '/var/spool/cups-pdf/${USER}';
  return out.replaceAll('${HOME}', home).replaceAll('${USER}', user);
}

export interface TestCups {
  /** The scheduler's socket (CUPS_SERVER). */
  server: string;
  /** This process's environment with CUPS_SERVER set: for lp, lpstat and the agent. */
  env: NodeJS.ProcessEnv;
  /** Adds an enabled queue with the dye-sublimation page sizes, printing to PDF. */
  addQueue(name: string): Promise<void>;
  /** Runs a CUPS command (cupsdisable, cupsenable, lpstat…) against this scheduler. */
  command(program: string, args: string[]): Promise<string>;
  /**
   * The PDF cups-pdf wrote for job `jobId` (lp's "Queue-12"), titled `title`: waits for it, and
   * fails at once with cupsd's words when the job stopped (a filter failed).
   */
  output(jobId: string, title: string, timeoutMs?: number): Promise<Buffer>;
  /** Stops the scheduler (the queues stay in its folder until `remove`). */
  stop(): Promise<void>;
  /** Stops it and deletes its folder and the PDFs it wrote. */
  remove(): Promise<void>;
}

export async function startCupsd(): Promise<TestCups> {
  const why = cupsdUnavailable();
  if (why) throw new Error(`Cannot start a CUPS scheduler for the test: ${why}`);
  const base = await mkdtemp(path.join(os.tmpdir(), 'flashbooth-cupsd-'));
  // The filters run as CUPS's `lp` user: they must reach the spool and write the temporary folder.
  await chmod(base, 0o755);
  const dir = (name: string) => path.join(base, name);
  for (const name of ['etc', 'spool', 'cache', 'state', 'log']) await mkdir(dir(name));
  await mkdir(dir('tmp'));
  await chmod(dir('tmp'), 0o1777);
  const server = dir('cups.sock');
  await writeFile(
    path.join(dir('etc'), 'cups-files.conf'),
    [
      `ServerRoot ${dir('etc')}`,
      `RequestRoot ${dir('spool')}`,
      `CacheDir ${dir('cache')}`,
      `StateDir ${dir('state')}`,
      `TempDir ${dir('tmp')}`,
      `AccessLog ${dir('log')}/access_log`,
      `ErrorLog ${dir('log')}/error_log`,
      `PageLog ${dir('log')}/page_log`,
      'FileDevice No',
      '',
    ].join('\n'),
  );
  await writeFile(
    path.join(dir('etc'), 'cupsd.conf'),
    [
      `Listen ${server}`,
      'LogLevel info',
      'WebInterface No',
      'Browsing No',
      'DefaultAuthType None',
      '<Location />',
      '  Order allow,deny',
      '  Allow all',
      '</Location>',
      '<Policy default>',
      '  <Limit All>',
      '    Order deny,allow',
      '  </Limit>',
      '</Policy>',
      '',
    ].join('\n'),
  );
  const ppd = path.join(base, 'flashbooth-dye-sub.ppd');
  await writeFile(ppd, dyeSubPpd(await readFile(CUPS_PDF_PPD, 'latin1')), 'latin1');

  const env: NodeJS.ProcessEnv = { ...process.env, CUPS_SERVER: server, LC_ALL: 'C', LANG: 'C' };
  const command = async (program: string, args: string[]) =>
    (await run(program, args, { env, timeout: 20_000 })).stdout;

  let daemon: ChildProcess | undefined;
  const start = async () => {
    const child = spawn(
      CUPSD,
      [
        '-f',
        '-c',
        path.join(dir('etc'), 'cupsd.conf'),
        '-s',
        path.join(dir('etc'), 'cups-files.conf'),
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let said = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      said += chunk.toString();
    });
    daemon = child;
    const deadline = Date.now() + 15_000;
    for (;;) {
      if (child.exitCode !== null) throw new Error(`cupsd exited (${child.exitCode}): ${said}`);
      const answer = await command('lpstat', ['-r']).catch(() => '');
      if (/scheduler is running/.test(answer)) return;
      if (Date.now() > deadline) throw new Error(`cupsd did not answer within 15 s: ${said}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  await start();

  const user = os.userInfo();
  const outDir = cupsPdfOutput(user.username, user.homedir);
  // This scheduler's job numbers (they start at 1 again with every test run) and when it started:
  // remove() deletes only what it printed.
  const jobs: string[] = [];
  const startedAt = Date.now() - 1000;

  const stop = async () => {
    const child = daemon;
    daemon = undefined;
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };

  return {
    server,
    env,
    command,
    async addQueue(name) {
      await command('lpadmin', ['-p', name, '-E', '-v', 'cups-pdf:/', '-P', ppd]);
    },
    async output(jobId, title, timeoutMs = 60_000) {
      const job = jobId.slice(jobId.lastIndexOf('-') + 1);
      jobs.push(job);
      const deadline = Date.now() + timeoutMs;
      const jobLog = async () =>
        (await readFile(path.join(dir('log'), 'error_log'), 'utf8').catch(() => ''))
          .split('\n')
          .filter((line) => line.includes(`[Job ${job}]`))
          .join('\n');
      for (;;) {
        const names = await readdir(outDir).catch(() => [] as string[]);
        const file = names.find(
          (name) => name.startsWith(title) && name.endsWith(`job_${job}.pdf`),
        );
        if (file) {
          const pdf = await readFile(path.join(outDir, file));
          // cups-pdf writes in place: the file is whole once it ends with %%EOF.
          if (pdf.subarray(-32).toString('latin1').includes('%%EOF')) return pdf;
        }
        const log = await jobLog();
        if (/Job stopped|aborted|canceled/i.test(log)) {
          throw new Error(`CUPS did not print job ${jobId}:\n${log.slice(-3000)}`);
        }
        if (Date.now() > deadline) {
          throw new Error(
            `no PDF of job ${jobId} (${title}) in ${outDir} within ${timeoutMs} ms; cupsd said:\n${log.slice(-3000)}`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    },
    stop,
    async remove() {
      await stop();
      await rm(base, { recursive: true, force: true });
      const names = await readdir(outDir).catch(() => [] as string[]);
      for (const name of names) {
        const file = path.join(outDir, name);
        const ours = jobs.some((job) => name.endsWith(`-job_${job}.pdf`));
        if (ours && (await stat(file)).mtimeMs >= startedAt) await rm(file, { force: true });
      }
    },
  };
}

/**
 * Each page's MediaBox in a PDF (points), read from its page objects (cups-pdf's Ghostscript
 * writes them uncompressed); a page without one inherits its /Pages node's.
 */
export function pdfPageSizes(pdf: Buffer): { width: number; height: number }[] {
  const objects = pdf.toString('latin1').split(/\bendobj\b/);
  const box = (object: string) => {
    const found = /\/MediaBox\s*\[\s*([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s*\]/.exec(
      object,
    );
    if (!found) return undefined;
    const [x0, y0, x1, y1] = found.slice(1).map(Number) as [number, number, number, number];
    return { width: Math.round(x1 - x0), height: Math.round(y1 - y0) };
  };
  const inherited = objects
    .filter((o) => /\/Type\s*\/Pages\b/.test(o))
    .map(box)
    .find(Boolean);
  return objects
    .filter((object) => /\/Type\s*\/Page(?![a-zA-Z])/.test(object))
    .map((object) => box(object) ?? inherited)
    .filter((size): size is { width: number; height: number } => size !== undefined);
}
