import { Readable, pipeline } from 'node:stream';
import type { Guest } from '@flashbooth/contracts';
import { stringify } from 'csv-stringify';

/** The CSV's columns: the API's guest fields, in the same order and with the same names. */
export const GUEST_CSV_COLUMNS = ['id', 'name', 'email', 'phone', 'last_visit'] as const;

/**
 * Text a visitor typed (name, email) that a spreadsheet would run as a formula (= + - @, or a
 * leading tab or carriage return) gets a leading apostrophe, so opening the export in Excel or
 * Sheets never executes what a visitor wrote. Phones are E.164 the server checked ("+91…") and
 * are written as they are.
 */
export function spreadsheetSafe(text: string | null): string {
  if (text === null) return '';
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/** One guest as a CSV record. */
export function guestRecord(guest: Guest): string[] {
  return [
    String(guest.id),
    spreadsheetSafe(guest.name),
    spreadsheetSafe(guest.email),
    guest.phone ?? '',
    guest.last_visit ?? '',
  ];
}

/**
 * The guests as a CSV stream (RFC 4180 quoting by csv-stringify, a header row, a UTF-8 byte
 * order mark so Excel reads names like "Café" right). A failure while reading the guests
 * destroys the stream, which ends the response, and is reported to `onError`.
 */
export function guestsCsv(guests: AsyncIterable<Guest>, onError: (error: Error) => void): Readable {
  async function* records() {
    for await (const guest of guests) yield guestRecord(guest);
  }
  return pipeline(
    Readable.from(records()),
    stringify({ header: true, columns: [...GUEST_CSV_COLUMNS], bom: true }),
    (error) => {
      if (error) onError(error);
    },
  );
}
