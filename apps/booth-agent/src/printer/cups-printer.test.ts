import { describe, expect, it } from 'vitest';
import { CupsPrinter } from './cups-printer.js';

// Printing itself runs `lp` (a child process): test/cups-printer.int.test.ts.
describe('CupsPrinter', () => {
  it('refuses a printer name that could be read as an option', () => {
    expect(() => new CupsPrinter({ printerName: '-oevil' })).toThrow(/Invalid CUPS printer name/);
  });
});
