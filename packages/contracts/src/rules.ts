/**
 * Rules shared by the server and the web app that need no schema library, so the web bundle
 * can import them (`@flashbooth/contracts/rules`) without pulling zod into a visitor's download.
 */
export type RulesPool = 'regular' | 'enterprise';

export const OTP_LENGTH = 4;

/** Error codes of the sign-in contract (DESIGN.md). */
export const AUTH_ERROR_CODES = {
  userNotFound: 'user_not_found',
  phoneRegistered: 'phone_registered',
  codeMismatch: 'code_mismatch',
  codeExpired: 'code_expired',
  tooManyAttempts: 'too_many_attempts',
} as const;

/**
 * E.164: a plus, a country code that does not start with 0, and at most 15 digits in all.
 * The login screen sends country code + number with everything except digits and plus removed.
 */
export const E164_PATTERN = /^\+[1-9]\d{7,14}$/;

/** What the login screen does before sending: keep only digits and plus. */
export function normalizePhoneInput(countryCode: string, number: string): string {
  return `${countryCode}${number}`.replace(/[^\d+]/g, '');
}

/** The spec's one message for a phone that is not one (login, invitations, organizations). */
export const PHONE_INVALID_MESSAGE = 'Please enter a valid phone number.';

/**
 * Whether text holds only what phone numbers are written with: digits, spaces, plus signs and
 * the separators - . ( ). Stripping everything but digits and plus (the spec's rule) must not
 * turn "98765abc43210" into a phone.
 */
export function isPhoneText(text: string): boolean {
  return /^[\d\s+().-]*$/.test(text);
}

/**
 * The E.164 phone written in `text` ("+91 80 4000-1234" → "+918040001234"), or null when it is
 * not one: other characters than a phone's, no country code, too few or too many digits.
 */
export function phoneFromText(text: string): string | null {
  if (!isPhoneText(text)) return null;
  const phone = text.replace(/[^\d+]/g, '');
  return E164_PATTERN.test(phone) ? phone : null;
}

export const PROFILE_MESSAGES = {
  email: 'Please enter a valid email address',
  dobFormat: 'Please enter the date in dd/mm/yyyy format',
  dobInvalid: 'Please enter a valid date',
  regularAge: 'Age must be between 10 and 100 years',
  enterpriseTooYoung: 'You must be at least 10 years old',
  enterpriseTooOld: 'Please enter a valid date of birth',
  name: 'Please enter your full name.',
} as const;

export const MIN_AGE = 10;
export const MAX_AGE = 100;

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function isValidEmail(value: string): boolean {
  return EMAIL_PATTERN.test(value) && value.length <= 254;
}

/** Whole years between a yyyy-mm-dd date of birth and today (UTC). */
export function ageOn(dobIso: string, today: Date): number {
  const [y, m, d] = dobIso.split('-').map(Number) as [number, number, number];
  let age = today.getUTCFullYear() - y;
  const beforeBirthday =
    today.getUTCMonth() + 1 < m || (today.getUTCMonth() + 1 === m && today.getUTCDate() < d);
  if (beforeBirthday) age -= 1;
  return age;
}

/** True when y-m-d names a day that exists. */
export function isRealDate(y: number, m: number, d: number): boolean {
  if (y < 1 || m < 1 || m > 12 || d < 1) return false;
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** The age rule differs by pool: one message for visitors, two for staff. */
export function ageError(pool: RulesPool, age: number): string | null {
  if (pool === 'regular') {
    return age < MIN_AGE || age > MAX_AGE ? PROFILE_MESSAGES.regularAge : null;
  }
  if (age < MIN_AGE) return PROFILE_MESSAGES.enterpriseTooYoung;
  if (age > MAX_AGE) return PROFILE_MESSAGES.enterpriseTooOld;
  return null;
}

/** Validates a yyyy-mm-dd date of birth as the server receives it. */
export function isoDobError(pool: RulesPool, iso: string, today: Date): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(iso);
  if (!match) return PROFILE_MESSAGES.dobFormat;
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (!isRealDate(y, m, d)) return PROFILE_MESSAGES.dobInvalid;
  return ageError(pool, ageOn(iso, today));
}

/** Parses the screen's dd/mm/yyyy into yyyy-mm-dd, or returns the spec's message. */
export function parseDisplayDob(
  pool: RulesPool,
  display: string,
  today: Date,
): { iso: string; error: null } | { iso: null; error: string } {
  const match = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(display.trim());
  if (!match) return { iso: null, error: PROFILE_MESSAGES.dobFormat };
  const iso = `${match[3]}-${match[2]}-${match[1]}`;
  const error = isoDobError(pool, iso, today);
  return error ? { iso: null, error } : { iso, error: null };
}

/** yyyy-mm-dd → dd/mm/yyyy for display; empty when absent. */
export function formatDobForDisplay(iso: string | null | undefined): string {
  if (!iso) return '';
  const match = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  return match ? `${match[3]}/${match[2]}/${match[1]}` : '';
}

/** Devices (staff spec sections 5 and 9). */
export const PRINTS_LEFT_MIN = 100;
export const PRINTS_LEFT_MAX = 700;
/** Below this many prints the device page warns staff. */
export const PRINTS_LEFT_WARNING = 50;
export const DEVICE_PRICE_MAX_RUPEES = 1000;

export const DEVICE_MESSAGES = {
  nameEmpty: 'Device name cannot be empty.',
  printsLeft: 'Value must be a number between 100 and 700.',
  price: 'Price must be a number between 0.00 and 1000.00.',
  orgIdRequired: 'Organization ID is required.',
  noChanges: 'No changes to save.',
  oneChange: 'Change one field at a time: name, software_channel_id, prints_left or price_rupees.',
  notFound: 'Device not found.',
  noAnswer: 'The photobooth did not respond. Please try again.',
  lowRoll: 'Warning: Media roll is critically low. Restock immediately!',
} as const;

/** Why a booth cannot take a visitor now, or `available` when it is idle. */
export type BoothAvailability = 'available' | 'busy' | 'updating' | 'offline';

/**
 * A booth's raw status as a visitor's chance to use it: only an idle booth takes a new visitor
 * (the capture flow's "idle shows Capture"); `ready`, `processing` and `uploading` are another
 * visitor's session; `updating` installs software; offline (or no status yet) cannot be reached.
 * The server refuses payments and captures at a booth that is not available, before any money
 * moves, and the booth page says why.
 */
export function boothAvailability(status: string | null | undefined): BoothAvailability {
  const value = (status ?? '').trim().toLowerCase();
  if (value === 'idle') return 'available';
  if (value === '' || value === 'offline') return 'offline';
  if (value === 'updating') return 'updating';
  return 'busy';
}

/** What a visitor is told about a booth that cannot take them now (page, payment, capture). */
export const BOOTH_AVAILABILITY_MESSAGES: Record<
  Exclude<BoothAvailability, 'available'>,
  string
> = {
  offline:
    'This photobooth is offline right now, so it cannot take photos or payments. Please wait until it is back online, or ask the venue staff for help.',
  busy: 'The photobooth is busy with another visitor. Please wait a moment, then try again.',
  updating: 'The photobooth is installing an update. Please wait a few minutes, then try again.',
};

/** Templates (staff spec sections 5 and 9; visitor spec section 9). */
export const TEMPLATE_ORIENTATIONS = ['portrait', 'landscape'] as const;
export type TemplateOrientation = (typeof TEMPLATE_ORIENTATIONS)[number];
/** Staff template list page size. */
export const TEMPLATES_PAGE_SIZE = 10;
/** Templates per page on the visitor's booth template selection (cursor paging). */
export const BOOTH_TEMPLATES_PAGE_SIZE = 9;
export const BOOTH_TEMPLATES_MAX_LIMIT = 50;
/** Sample and foreground images: PNG or JPEG, at most 20 MB. */
export const TEMPLATE_IMAGE_CONTENT_TYPES = ['image/jpeg', 'image/png'] as const;
export const TEMPLATE_IMAGE_MAX_BYTES = 20 * 1024 * 1024;

export const TEMPLATE_MESSAGES = {
  nameRequired: 'Template name is required.',
  nameEmpty: 'Template name cannot be empty.',
  sampleType: 'Please select an image file for the sample.',
  foregroundType: 'Please select an image file for the foreground.',
  orgIdRequired: 'Organization ID is required.',
  noOrgSelected: 'No organization selected for removal.',
  notFound: 'Template not found.',
  onlyPrivileged: 'Only super users and Flashbooth admins can change templates.',
  imageNotFound: 'Image slot not found.',
  orgNotFound: 'Organization not found.',
  notAssociated: 'This template is not associated with that organization.',
  noChanges: 'No changes to save.',
  updated: 'Template updated successfully!',
  deleted: 'Template deleted successfully.',
  sampleUploaded: 'Sample image uploaded successfully!',
  foregroundUploaded: 'Foreground image uploaded successfully!',
  empty: 'No templates found. Try creating one!',
  noOrgs:
    'This template is not currently associated with any organizations. Use the "+Add Organization" button to associate it.',
  captureKind: 'Capture kind must be photo, gif, boomerang or video.',
  motionFrames: 'Frames must be a whole number from 2 to 6.',
  motionSeconds: 'Seconds must be from 3 to 10.',
  motionSpeed: 'Speed must be from 0.5× to 2×.',
  motionPrints: 'motion_prints must be true or false.',
} as const;

/**
 * What a template captures: `photo` (stills composed into a print), `gif` (a few stills played as
 * a loop), `boomerang` (a short burst played forward then backward) or `video` (a clip).
 */
export const CAPTURE_KINDS = ['photo', 'gif', 'boomerang', 'video'] as const;
export type CaptureKind = (typeof CAPTURE_KINDS)[number];
/** The motion kinds: every kind that records moving media rather than only stills. */
export type MotionCaptureKind = Exclude<CaptureKind, 'photo'>;

export const CAPTURE_KIND_LABELS: Record<CaptureKind, string> = {
  photo: 'Photo',
  gif: 'GIF',
  boomerang: 'Boomerang',
  video: 'Video',
};

export function isCaptureKind(value: unknown): value is CaptureKind {
  return typeof value === 'string' && (CAPTURE_KINDS as readonly string[]).includes(value);
}

/** Whether a capture kind records motion (an MP4 with a poster and an animated preview). */
export function isMotionKind(kind: CaptureKind): kind is MotionCaptureKind {
  return kind !== 'photo';
}

/** Whether the booth prints with a template: a photo always, a motion kind when it is set to. */
export function templatePrints(kind: CaptureKind, motionPrints: boolean): boolean {
  return !isMotionKind(kind) || motionPrints;
}

/**
 * The booth counts down this long before each photo, and once before a motion kind's recording
 * (DESIGN.md 2b step 3): the server's deadlines and the visit's capture stages follow it.
 */
export const CAPTURE_COUNTDOWN_SECONDS = 10;

/** The bounds and timings of motion captures, shared by the server, the booth and the console. */
export const MOTION_RULES = {
  /** gif: stills taken. */
  gifFrames: { min: 2, max: 6, default: 4 },
  /** video: clip length in seconds. */
  videoSeconds: { min: 3, max: 10, default: 5 },
  /** Playback speed of every motion kind. */
  speed: { min: 0.5, max: 2, default: 1 },
  /** boomerang: the burst recorded, in seconds. */
  boomerangBurstSeconds: 1.5,
  /** gif: seconds between stills. */
  gifIntervalSeconds: 0.75,
  fps: 30,
  /** Every MP4 is looped to at least this many seconds. */
  minLoopSeconds: 3,
  /** The animated WebP (lists) and the .gif download are at most this wide. */
  previewMaxWidth: 480,
} as const;

/**
 * A motion item's MP4 is refused at confirmation above this; its poster, preview and gif are
 * held to the photos' MEDIA_MAX_BYTES.
 */
export const MEDIA_VIDEO_MAX_BYTES = 200 * 1024 * 1024;

/** A new template's motion settings: photo, 4 frames, 5 s, 1×, with a print. */
export const MOTION_DEFAULTS = {
  capture_kind: 'photo' as CaptureKind,
  motion_frames: MOTION_RULES.gifFrames.default,
  motion_seconds: MOTION_RULES.videoSeconds.default,
  motion_speed: MOTION_RULES.speed.default,
  motion_prints: true,
};

/**
 * Seconds the booth records after the single countdown (the capture screen and the server's
 * deadlines): none for a photo, the stills' spacing for a gif, the burst for a boomerang and the
 * clip for a video.
 */
export function recordSeconds(kind: CaptureKind, frames: number, seconds: number): number {
  switch (kind) {
    case 'photo':
      return 0;
    case 'gif':
      return frames * MOTION_RULES.gifIntervalSeconds;
    case 'boomerang':
      return MOTION_RULES.boomerangBurstSeconds;
    case 'video':
      return seconds;
  }
}

/** A new image slot in the template editor: 1080×720, no filter, placed by how many exist. */
export function newTemplateSlot(existingSlots: number): {
  x: number;
  y: number;
  w: number;
  h: number;
  filter: string;
} {
  const positions = [
    { x: 61, y: 555 },
    { x: 61, y: 1440 },
    { x: 61, y: 2325 },
  ];
  const { x, y } = positions[existingSlots] ?? { x: 0, y: 0 };
  return { x, y, w: 1080, h: 720, filter: 'none' };
}

/** My Media (visitor spec section 9): 10 a page. */
export const MEDIA_PAGE_SIZE = 10;

// The Template Studio layouts (canvas sizes and photo slots), zod-free like the rest of this entry.
export * from './layouts.js';

// The filters a booth applies and the print preview's bounds (template detail).
export * from './template-filters.js';

// Image slots must lie inside the template's print canvas (server and editor).
export * from './template-slot-rules.js';

// A foreground: a PNG of the canvas size, transparent where the slots are (Studio, console, server).
export * from './template-foreground-rules.js';

export * from './software-rules.js';

export * from './rollout-rules.js';

export * from './organization-rules.js';

// The one-tap sign-in link of every sign-in SMS and the spent-code-budget refusal.
export * from './sign-in-link-rules.js';

// Passkeys: name length, how many per account, messages.
export * from './passkey-rules.js';

// Who may do what in the staff console (server enforces, screens mirror).
export * from './permissions.js';

// The staff media views: page size, texts, the All Media filters and the repost badge.
export * from './media-library-rules.js';

// The public wall: page sizes, comment length and edit rules, messages.
export * from './wall-rules.js';

// A person's data export and account erasure: states, texts, the confirmation code's length.
export * from './privacy-rules.js';

// ---- Payments (visitor spec: template pick and payment). ----

/** The least a provider order may be for: PhonePe refuses orders under ₹1. */
export const PAYMENT_MIN_PAISE = 100;

/** Texts of the payment and refund calls (the booth screen shows `initiateFailed` too). */
export const PAYMENT_MESSAGES = {
  notFound: 'Transaction not found.',
  free: 'This photobooth is free: no payment is needed.',
  creditCovers: 'Your credit covers this photobooth: no payment is needed.',
  notPending: 'This payment is already finished. Please start a new one.',
  expired: 'This payment has expired. Please start a new one.',
  busy: 'Your payment is being prepared. Please try again in a moment.',
  initiateFailed: 'Could not initiate payment. Please try again or contact support.',
  /** A capture nothing covers (no free booth, unused payment or enough credit). */
  captureNotCovered: 'Your credit does not cover this photobooth. Please pay to continue.',
  returnAddress: 'redirect_url must be an address of this site.',
  refundStaffOnly: 'Only super users and product admins can refund payments.',
  refundNotCompleted: 'Only a completed payment can be refunded.',
  refundOtherProvider: 'This payment was made with another payment provider; refund it as credit.',
  refundRefused: 'The payment provider refused the refund. Nothing was refunded.',
  /** A payment at this booth is paid and not used yet: Capture uses it (issue 37). */
  alreadyPaid:
    'You have already paid for a capture at this photobooth. Press Capture to use your payment.',
} as const;

/** A visit at a booth (issue 37). */
export const VISIT_MESSAGES = {
  captureInProgress:
    'Your capture at this photobooth is still in progress. Please wait for it to finish.',
} as const;

/**
 * How much of a visitor's credit a payment for `pricePaise` holds: all of it when it is above 0
 * and below the price, but never so much that the provider would be asked for less than
 * `minAmountPaise`. Null when the credit covers the price (no payment is needed). The server
 * holds exactly this; the booth screen's "To pay" badge shows the price minus it.
 */
export function paymentCreditHold(
  pricePaise: number,
  creditPaise: number,
  minAmountPaise: number = PAYMENT_MIN_PAISE,
): number | null {
  if (creditPaise >= pricePaise) return null;
  if (creditPaise <= 0) return 0;
  return Math.max(0, Math.min(creditPaise, pricePaise - minAmountPaise));
}

// Organization statistics: texts, gap-fill and chart date formats.
export * from './stats-rules.js';

// A booth's health: when its disk is low.
export * from './device-health-rules.js';

// How the visitor screens write dates, pagers and the wall's card texts (web app and server HTML).
export * from './display-rules.js';
