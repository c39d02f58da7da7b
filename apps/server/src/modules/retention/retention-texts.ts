/**
 * The retention notices' SMS texts, sent 48 hours before something is deleted for good: what
 * goes, when, and what the person can do first. Plain text in the product's voice ("Flashbooth:"
 * first, as the delivery and sign-in messages), short enough for two SMS segments.
 */

/** How long before a deletion its notice is sent (the DPDP Rules' 48 hours). */
export const RETENTION_NOTICE_MS = 48 * 3_600_000;

/** "2 Dec 2026": a date as the visitor in India reads it. */
export function smsDate(at: Date): string {
  return new Intl.DateTimeFormat('en-IN', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    timeZone: 'Asia/Kolkata',
  }).format(at);
}

/** "1 year", "2 years", "90 days": how long things are kept, in words. */
export function keptFor(days: number): string {
  if (days % 365 === 0) return days === 365 ? '1 year' : `${days / 365} years`;
  return days === 1 ? '1 day' : `${days} days`;
}

/** "3 photos", "1 photo and 2 videos". */
export function itemsInWords(photos: number, videos: number): string {
  const part = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;
  if (photos > 0 && videos > 0) return `${part(photos, 'photo')} and ${part(videos, 'video')}`;
  if (videos > 0) return part(videos, 'video');
  return part(photos, 'photo');
}

/** "from Cafe Mocha", "from Cafe Mocha and Sea Lounge", "from Cafe Mocha and 2 other venues". */
export function venuesInWords(venues: string[]): string {
  const named = [...new Set(venues.filter((venue) => venue.trim()))];
  if (named.length === 0) return 'from your Flashbooth sessions';
  if (named.length === 1) return `from ${named[0]}`;
  if (named.length === 2) return `from ${named[0]} and ${named[1]}`;
  return `from ${named[0]} and ${named.length - 1} other venues`;
}

/**
 * The one SMS a person gets before their photos and videos past MEDIA_RETENTION_DAYS go: how
 * many, from where, when, and how to keep a copy.
 */
export function mediaRetentionSms(notice: {
  photos: number;
  videos: number;
  venues: string[];
  deleteOn: Date;
  retentionDays: number;
}): string {
  const items = itemsInWords(notice.photos, notice.videos);
  const one = notice.photos + notice.videos === 1;
  return (
    `Flashbooth: ${items} ${venuesInWords(notice.venues)} will be deleted on ` +
    `${smsDate(notice.deleteOn)}, ${keptFor(notice.retentionDays)} after ${one ? 'it was' : 'they were'} taken. ` +
    `To keep ${one ? 'it' : 'them'}, download ${one ? 'it' : 'them'} from My Media before then.`
  );
}

/**
 * The SMS before an account without a sign-in for MEDIA_RETENTION_DAYS is deleted: signing in
 * keeps it; "Download my data" keeps a copy.
 */
export function accountRetentionSms(notice: {
  deleteOn: Date;
  retentionDays: number;
  items: number;
}): string {
  const what =
    notice.items > 0
      ? `your Flashbooth account and its ${notice.items} ${notice.items === 1 ? 'photo or video' : 'photos and videos'}`
      : 'your Flashbooth account';
  return (
    `Flashbooth: You have not signed in for ${keptFor(notice.retentionDays)}, so ${what} will be deleted on ` +
    `${smsDate(notice.deleteOn)}. To keep it, just sign in before then. ` +
    'To keep a copy, use Download my data in your profile.'
  );
}
