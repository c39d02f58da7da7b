/** Error codes the API uses, each with its HTTP status (DESIGN.md "Errors"). */
const STATUS_BY_CODE = {
  validation_error: 400,
  bad_request: 400,
  unauthorized: 401,
  invalid_token: 401,
  code_mismatch: 401,
  code_expired: 401,
  forbidden: 403,
  not_found: 404,
  user_not_found: 404,
  phone_registered: 409,
  conflict: 409,
  // A capture the visitor's credit does not cover (paid checkout comes with payments).
  payment_required: 409,
  // A booth that cannot take a visitor now (payments and captures refuse before money moves).
  booth_offline: 409,
  booth_busy: 409,
  booth_updating: 409,
  // A visit (issue 37): a payment at this booth is paid and unused; a capture is still running.
  already_paid: 409,
  capture_in_progress: 409,
  payload_too_large: 413,
  unprocessable: 422,
  too_many_attempts: 429,
  rate_limited: 429,
  internal_error: 500,
  service_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof STATUS_BY_CODE;

/** The one error type: a code, the status it maps to, and a message safe to show. */
export class AppError extends Error {
  readonly statusCode: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'AppError';
    this.statusCode = STATUS_BY_CODE[code];
  }
}

export const notFound = (message = 'Not found.') => new AppError('not_found', message);
export const forbidden = (message = 'You are not allowed to do that.') =>
  new AppError('forbidden', message);
export const unauthorized = (message = 'Please sign in again.') =>
  new AppError('unauthorized', message);
