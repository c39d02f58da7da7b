import { buffer } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { guestRecord, guestsCsv, spreadsheetSafe } from './guests-csv.js';

describe('guest CSV', () => {
  it('keeps what a visitor typed from running as a spreadsheet formula', () => {
    expect(spreadsheetSafe('=HYPERLINK("x")')).toBe('\'=HYPERLINK("x")');
    for (const start of ['+', '-', '@', '\t', '\r']) {
      expect(spreadsheetSafe(`${start}1`)).toBe(`'${start}1`);
    }
    expect(spreadsheetSafe('Asha')).toBe('Asha');
    expect(spreadsheetSafe(null)).toBe('');
  });

  it('writes phones as they are and empty cells for missing values', () => {
    expect(
      guestRecord({ id: 7, name: 'Asha', email: null, phone: '+919876543210', last_visit: null }),
    ).toEqual(['7', 'Asha', '', '+919876543210', '']);
  });

  it('streams a header, quoted fields and a byte order mark', async () => {
    async function* guests() {
      yield {
        id: 1,
        name: 'Rao, "Ravi"',
        email: 'r@x.in',
        phone: '+911',
        last_visit: '2025-05-14T10:20:30',
      };
      yield { id: 2, name: 'Line\nBreak', email: null, phone: null, last_visit: null };
    }
    // Read as bytes: a TextDecoder (stream/consumers' text()) would drop the byte order mark.
    const csv = (await buffer(guestsCsv(guests(), () => {}))).toString('utf8');
    expect(csv).toBe(
      '\uFEFFid,name,email,phone,last_visit\n' +
        '1,"Rao, ""Ravi""",r@x.in,+911,2025-05-14T10:20:30\n' +
        '2,"Line\nBreak",,,\n',
    );
  });

  it('reports a failure while reading and ends the stream with it', async () => {
    async function* failing() {
      yield { id: 1, name: 'A', email: null, phone: null, last_visit: null };
      throw new Error('database went away');
    }
    const errors: Error[] = [];
    await expect(buffer(guestsCsv(failing(), (error) => errors.push(error)))).rejects.toThrow(
      'database went away',
    );
    expect(errors.map((error) => error.message)).toEqual(['database went away']);
  });
});
