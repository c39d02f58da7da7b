import { describe, expect, it } from 'vitest';
import {
  accountRetentionSms,
  itemsInWords,
  keptFor,
  mediaRetentionSms,
  smsDate,
  venuesInWords,
} from './retention-texts.js';

// 1 Dec 2026 20:30 UTC is already 2 Dec in India.
const DELETE_ON = new Date('2026-12-01T20:30:00Z');

describe('retention notice texts', () => {
  it('writes the deletion date as a person in India reads it', () => {
    expect(smsDate(DELETE_ON)).toBe('2 Dec 2026');
  });

  it('says how long things are kept in words', () => {
    expect(keptFor(365)).toBe('1 year');
    expect(keptFor(730)).toBe('2 years');
    expect(keptFor(90)).toBe('90 days');
    expect(keptFor(1)).toBe('1 day');
  });

  it('counts photos and videos', () => {
    expect(itemsInWords(1, 0)).toBe('1 photo');
    expect(itemsInWords(3, 0)).toBe('3 photos');
    expect(itemsInWords(0, 1)).toBe('1 video');
    expect(itemsInWords(2, 1)).toBe('2 photos and 1 video');
  });

  it('names one or two venues, and counts the rest', () => {
    expect(venuesInWords([])).toBe('from your Flashbooth sessions');
    expect(venuesInWords(['Cafe Mocha', 'Cafe Mocha'])).toBe('from Cafe Mocha');
    expect(venuesInWords(['Cafe Mocha', 'Sea Lounge'])).toBe('from Cafe Mocha and Sea Lounge');
    expect(venuesInWords(['A', 'B', 'C', 'A'])).toBe('from A and 2 other venues');
  });

  it('tells what will be deleted, when, and how to keep a copy', () => {
    expect(
      mediaRetentionSms({
        photos: 12,
        videos: 0,
        venues: ['Cafe Mocha'],
        deleteOn: DELETE_ON,
        retentionDays: 365,
      }),
    ).toBe(
      'Flashbooth: 12 photos from Cafe Mocha will be deleted on 2 Dec 2026, 1 year after they were taken. To keep them, download them from My Media before then.',
    );
    expect(
      mediaRetentionSms({
        photos: 1,
        videos: 0,
        venues: [],
        deleteOn: DELETE_ON,
        retentionDays: 90,
      }),
    ).toBe(
      'Flashbooth: 1 photo from your Flashbooth sessions will be deleted on 2 Dec 2026, 90 days after it was taken. To keep it, download it from My Media before then.',
    );
  });

  it('tells an inactive person that signing in keeps the account', () => {
    expect(accountRetentionSms({ deleteOn: DELETE_ON, retentionDays: 365, items: 4 })).toBe(
      'Flashbooth: You have not signed in for 1 year, so your Flashbooth account and its 4 photos and videos will be deleted on 2 Dec 2026. To keep it, just sign in before then. To keep a copy, use Download my data in your profile.',
    );
    expect(accountRetentionSms({ deleteOn: DELETE_ON, retentionDays: 365, items: 0 })).toBe(
      'Flashbooth: You have not signed in for 1 year, so your Flashbooth account will be deleted on 2 Dec 2026. To keep it, just sign in before then. To keep a copy, use Download my data in your profile.',
    );
  });
});
