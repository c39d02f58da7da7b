import type { PrinterStatus } from './printer.js';

/**
 * The arguments that ask CUPS about one queue: its state line, message and state reasons
 * ("Alerts:", printed with -l) and whether it accepts jobs. Run with LC_ALL=C: lpstat's
 * sentences are translated, and the parser reads the English ones.
 */
export const lpstatArgs = (queue: string): string[] => ['-l', '-p', queue, '-a', queue];

/** What `lpstat -l -p <queue> -a <queue>` said about the queue. */
export interface LpstatReport {
  state: 'idle' | 'printing' | 'disabled' | 'holding' | undefined;
  /** The printer-state-message: the driver's or the backend's last words ("Media empty"). */
  message: string | undefined;
  /** The printer-state-reasons, e.g. media-empty-error, marker-supply-low-warning. */
  reasons: string[];
  accepting: boolean | undefined;
}

/** Reads lpstat's output (cups/systemv/lpstat.c, show_printers and show_accepting). */
export function parseLpstat(output: string, queue: string): LpstatReport {
  const report: LpstatReport = {
    state: undefined,
    message: undefined,
    reasons: [],
    accepting: undefined,
  };
  const lines = output.split('\n');
  const name = escapeRegExp(queue);
  const stateLine = new RegExp(
    `^printer ${name} (is idle\\.|now printing |disabled since |is holding new jobs\\.)`,
    'i',
  );
  lines.forEach((line, i) => {
    const state = stateLine.exec(line);
    if (state) {
      const said = state[1]!.toLowerCase();
      report.state = said.startsWith('is idle')
        ? 'idle'
        : said.startsWith('now printing')
          ? 'printing'
          : said.startsWith('disabled')
            ? 'disabled'
            : 'holding';
      // The state message, when there is one, is the indented line right after the state line.
      const next = lines[i + 1];
      if (next?.startsWith('\t') && !/^\t(Description|Form mounted|Alerts):/.test(next)) {
        const message = next.trim();
        if (message && message !== 'reason unknown') report.message = message;
      }
      return;
    }
    const alerts = /^\tAlerts:(.*)$/.exec(line);
    if (alerts && report.state !== undefined && report.reasons.length === 0) {
      report.reasons = alerts[1]!
        .trim()
        .split(/\s+/)
        .filter((r) => r && r !== 'none');
      return;
    }
    if (new RegExp(`^${name} not accepting requests`, 'i').test(line)) report.accepting = false;
    else if (new RegExp(`^${name} accepting requests`, 'i').test(line)) report.accepting = true;
  });
  return report;
}

// A reason is a keyword with an optional severity suffix; "-report" is for information only.
const hasReason = (reasons: string[], pattern: RegExp) =>
  reasons.some((reason) => !reason.endsWith('-report') && pattern.test(reason));

/**
 * The queue's state in the contract's words, with what to do at the booth. Needs-someone
 * reasons come before the queue state: a queue that CUPS stopped because the paper ran out
 * says "paper out", and how to resume it.
 */
export function printerStatusFromLpstat(report: LpstatReport, queue: string): PrinterStatus {
  const { reasons } = report;
  const resume = report.state === 'disabled' ? `, then resume the queue: cupsenable ${queue}` : '';
  const said = report.message ? ` (${report.message})` : '';
  if (report.state === undefined) {
    return { state: 'unknown', message: `CUPS said nothing about the queue ${queue}` };
  }
  if (hasReason(reasons, /^(media-empty|media-needed)/)) {
    return {
      state: 'paper_out',
      message: `The printer is out of paper${said}: load paper${resume}`,
    };
  }
  if (
    hasReason(reasons, /^(marker-supply-empty|toner-empty|marker-ink-empty|ink-empty|ribbon-empty)/)
  ) {
    return {
      state: 'ink_out',
      message: `The printer is out of ink or ribbon${said}: replace it${resume}`,
    };
  }
  if (hasReason(reasons, /^media-jam/)) {
    return { state: 'stopped', message: `Paper jam${said}: clear the jam${resume}` };
  }
  if (hasReason(reasons, /^(cover-open|door-open|interlock-open)/)) {
    return { state: 'stopped', message: `The printer's cover is open${said}: close it${resume}` };
  }
  if (reasons.some((reason) => reason.startsWith('offline'))) {
    return {
      state: 'stopped',
      message: `The printer does not answer${said}: check that it is switched on and its cable is plugged in`,
    };
  }
  if (report.state === 'disabled') {
    return {
      state: 'stopped',
      message: `The print queue is stopped${said}: fix the printer, then run cupsenable ${queue}`,
    };
  }
  if (report.state === 'holding') {
    return {
      state: 'stopped',
      message: `The print queue holds new jobs: release them with cupsenable --release ${queue}`,
    };
  }
  if (report.accepting === false) {
    return {
      state: 'stopped',
      message: `The print queue refuses new jobs: run cupsaccept ${queue}`,
    };
  }
  const low = [
    hasReason(reasons, /^media-low/) && 'paper is running low',
    hasReason(reasons, /^(marker-supply-low|toner-low)/) && 'ink or ribbon is running low',
  ].filter(Boolean);
  const warning = low.length > 0 ? `Warning: ${low.join(' and ')}` : null;
  return report.state === 'printing'
    ? { state: 'printing', message: warning }
    : { state: 'idle', message: warning };
}

/** `lpstat -r`: whether the CUPS scheduler answers. */
export const schedulerArgs = ['-r'];

/** What `lpstat -r` printed: "scheduler is running" or "scheduler is not running". */
export const schedulerRunning = (output: string): boolean =>
  /scheduler is running/i.test(output) && !/not running/i.test(output);

export const CUPS_NOT_RUNNING =
  'CUPS is not running: start it (sudo systemctl start cups) and check that the cups package is installed';

/**
 * lpstat's complaint when it could not tell, in words. lpstat says "Invalid destination" both
 * when the queue is missing and when no scheduler answers (cups-client alone, or CUPS stopped),
 * so the caller asks `lpstat -r` and passes `scheduler`: false is told as CUPS not running.
 */
export function lpstatFailure(stderr: string, queue: string, scheduler?: boolean): PrinterStatus {
  if (
    scheduler === false ||
    /scheduler is not running|Unable to connect|Connection refused|No such file/i.test(stderr)
  ) {
    return { state: 'unknown', message: CUPS_NOT_RUNNING };
  }
  if (
    /Invalid destination|does not exist|Unknown destination|No destinations added/i.test(stderr)
  ) {
    return {
      state: 'unknown',
      message: `CUPS has no print queue named ${queue}: lpstat -p lists the queues; check BOOTH_PRINTER`,
    };
  }
  const said = stderr.trim().split('\n').filter(Boolean).slice(-1)[0];
  return { state: 'unknown', message: `lpstat failed${said ? `: ${said.slice(0, 200)}` : ''}` };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
