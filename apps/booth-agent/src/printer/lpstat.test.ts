import { describe, expect, it } from 'vitest';
import { lpstatFailure, parseLpstat, printerStatusFromLpstat } from './lpstat.js';

/**
 * What `LC_ALL=C lpstat -l -p <queue> -a <queue>` prints (CUPS 2.4, Debian 12): the state line,
 * the state message when there is one, the -l details with the state reasons as "Alerts:", and
 * the accepting line.
 */
function lpstatOutput(options: {
  queue?: string;
  state: string;
  message?: string;
  alerts?: string;
  accepting?: boolean;
}): string {
  const queue = options.queue ?? 'DNP_DS620';
  const since = 'Fri 27 Nov 2026 08:12:03 PM UTC';
  const stateLine = {
    idle: `printer ${queue} is idle.  enabled since ${since}`,
    printing: `printer ${queue} now printing ${queue}-42.  enabled since ${since}`,
    disabled: `printer ${queue} disabled since ${since} -`,
    holding: `printer ${queue} is holding new jobs.  enabled since ${since}`,
  }[options.state];
  return [
    stateLine,
    ...(options.message !== undefined ? [`\t${options.message}`] : []),
    '\tForm mounted:',
    '\tContent types: any',
    '\tPrinter types: unknown',
    `\tDescription: DNP DS620`,
    `\tAlerts: ${options.alerts ?? 'none'}`,
    '\tLocation: Booth',
    '\tConnection: direct',
    `\tInterface: /etc/cups/ppd/${queue}.ppd`,
    '\tOn fault: no alert',
    '\tAfter fault: continue',
    '\tUsers allowed:',
    '\t\t(all)',
    '\tForms allowed:',
    '\t\t(none)',
    '\tBanner required',
    '\tCharset sets:',
    '\t\t(none)',
    '\tDefault pitch:',
    '\tDefault page size:',
    '\tDefault port settings:',
    options.accepting === false
      ? `${queue} not accepting requests since ${since} -\n\tRejecting Jobs`
      : `${queue} accepting requests since ${since}`,
    '',
  ].join('\n');
}

const statusOf = (options: Parameters<typeof lpstatOutput>[0]) =>
  printerStatusFromLpstat(
    parseLpstat(lpstatOutput(options), options.queue ?? 'DNP_DS620'),
    options.queue ?? 'DNP_DS620',
  );

describe('parseLpstat', () => {
  it('reads the state, message, reasons and acceptance', () => {
    expect(
      parseLpstat(
        lpstatOutput({
          state: 'disabled',
          message: 'Media empty or jammed',
          alerts: 'media-empty-error paused',
          accepting: false,
        }),
        'DNP_DS620',
      ),
    ).toEqual({
      state: 'disabled',
      message: 'Media empty or jammed',
      reasons: ['media-empty-error', 'paused'],
      accepting: false,
    });
  });

  it('reads only the queue asked about, and no message when there is none', () => {
    const output = `${lpstatOutput({ queue: 'Other', state: 'disabled', alerts: 'paused' })}${lpstatOutput({ state: 'idle' })}`;
    expect(parseLpstat(output, 'DNP_DS620')).toEqual({
      state: 'idle',
      message: undefined,
      reasons: [],
      accepting: true,
    });
  });
});

describe('printerStatusFromLpstat', () => {
  it('idle and printing are fine', () => {
    expect(statusOf({ state: 'idle' })).toEqual({ state: 'idle', message: null });
    expect(statusOf({ state: 'printing', message: 'Printing page 1, 4% complete.' })).toEqual({
      state: 'printing',
      message: null,
    });
  });

  it('paper out, with how to resume a queue CUPS stopped', () => {
    expect(statusOf({ state: 'idle', alerts: 'media-empty-error' })).toEqual({
      state: 'paper_out',
      message: 'The printer is out of paper: load paper',
    });
    expect(
      statusOf({ state: 'disabled', message: 'Media empty or jammed', alerts: 'media-needed' }),
    ).toEqual({
      state: 'paper_out',
      message:
        'The printer is out of paper (Media empty or jammed): load paper, then resume the queue: cupsenable DNP_DS620',
    });
  });

  it('ink or ribbon out', () => {
    expect(statusOf({ state: 'printing', alerts: 'marker-supply-empty-error' })).toMatchObject({
      state: 'ink_out',
      message: 'The printer is out of ink or ribbon: replace it',
    });
    expect(statusOf({ state: 'idle', alerts: 'toner-empty-error' }).state).toBe('ink_out');
  });

  it('stopped: disabled, jammed, offline, holding or refusing jobs', () => {
    expect(statusOf({ state: 'disabled', alerts: 'paused' })).toEqual({
      state: 'stopped',
      message: 'The print queue is stopped: fix the printer, then run cupsenable DNP_DS620',
    });
    expect(statusOf({ state: 'disabled', message: 'Paused', alerts: 'paused' }).message).toBe(
      'The print queue is stopped (Paused): fix the printer, then run cupsenable DNP_DS620',
    );
    expect(statusOf({ state: 'idle', alerts: 'media-jam-error' }).message).toBe(
      'Paper jam: clear the jam',
    );
    expect(
      statusOf({
        state: 'printing',
        message: 'Waiting for printer to become available.',
        alerts: 'offline-report',
      }),
    ).toEqual({
      state: 'stopped',
      message:
        'The printer does not answer (Waiting for printer to become available.): check that it is switched on and its cable is plugged in',
    });
    expect(statusOf({ state: 'holding' }).state).toBe('stopped');
    expect(statusOf({ state: 'idle', accepting: false })).toEqual({
      state: 'stopped',
      message: 'The print queue refuses new jobs: run cupsaccept DNP_DS620',
    });
  });

  it('warns of low supplies without calling the printer out of them', () => {
    expect(
      statusOf({ state: 'idle', alerts: 'media-low-warning marker-supply-low-warning' }),
    ).toEqual({
      state: 'idle',
      message: 'Warning: paper is running low and ink or ribbon is running low',
    });
    // A -report reason is information only.
    expect(statusOf({ state: 'idle', alerts: 'media-empty-report' }).state).toBe('idle');
  });

  it('unknown when CUPS said nothing about the queue', () => {
    expect(printerStatusFromLpstat(parseLpstat('', 'DNP_DS620'), 'DNP_DS620').state).toBe(
      'unknown',
    );
  });
});

describe('lpstatFailure', () => {
  it('says what to do when CUPS is down or the queue is missing', () => {
    expect(lpstatFailure('lpstat: Scheduler is not running.', 'DNP')).toEqual({
      state: 'unknown',
      message:
        'CUPS is not running: start it (sudo systemctl start cups) and check that the cups package is installed',
    });
    // lpstat says "Invalid destination" when no scheduler answers too: `lpstat -r` tells.
    expect(
      lpstatFailure('lpstat: Invalid destination name in list "DNP".', 'DNP', false).message,
    ).toMatch(/^CUPS is not running/);
    expect(lpstatFailure('lpstat: Invalid destination name in list "DNP".', 'DNP')).toEqual({
      state: 'unknown',
      message: 'CUPS has no print queue named DNP: lpstat -p lists the queues; check BOOTH_PRINTER',
    });
  });
});
