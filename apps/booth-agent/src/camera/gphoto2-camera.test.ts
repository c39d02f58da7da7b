import { describe, expect, it } from 'vitest';
import { classifyGphoto2Error, gphoto2Advice } from './gphoto2-camera.js';

// Running gphoto2 (a fake one) is in test/cameras.int.test.ts; these are its messages as printed.
describe('classifyGphoto2Error', () => {
  it.each([
    [
      "*** Error ***\nCould not detect any camera\n*** Error (-105: 'Unknown model') ***",
      'not_found',
    ],
    [
      "*** Error ***\nAn error occurred in the io-library ('Could not claim the USB device'): Could not claim interface 0 (Device or resource busy).\n*** Error (-53: 'Could not claim the USB device') ***",
      'busy',
    ],
    [
      "Canon EOS Full-Press failed (0x2019: PTP Device Busy)\n*** Error (-110: 'I/O in progress') ***",
      'busy',
    ],
    ["*** Error (-7: 'I/O problem') ***", 'busy'],
    [
      "Canon EOS Capture failed to release: Perhaps no focus?\nERROR: Could not capture image.\n*** Error (-1: 'Unspecified error') ***",
      'focus',
    ],
    [
      "PTP Out of Focus\nERROR: Could not capture image.\n*** Error (-1: 'Unspecified error') ***",
      'focus',
    ],
    [
      "PTP Store Full\nERROR: Could not capture.\n*** Error (-1: 'Unspecified error') ***",
      'card_full',
    ],
    ["*** Error (-115: 'Not enough space') ***", 'card_full'],
    ['PTP Store Not Available\nERROR: Could not capture.', 'no_card'],
    ["ERROR: Could not capture image.\n*** Error (-1: 'Unspecified error') ***", 'other'],
  ])('%s → %s', (output, failure) => {
    expect(classifyGphoto2Error(output)).toBe(failure);
  });

  it('names the port in the advice when one is set', () => {
    expect(gphoto2Advice('not_found', 'usb:001,004')).toMatch(
      /^No camera found on port usb:001,004:/,
    );
    expect(gphoto2Advice('not_found', undefined)).toMatch(/^No camera found: /);
  });
});
