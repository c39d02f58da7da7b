import { BUDGET_TEXTS, type BudgetNotice } from '../login-model';

/**
 * A phone whose code budget is spent (issue 14): why codes are refused, until when, and that the
 * one-tap link in the SMS signs in even now. Announced once when it appears.
 */
export function BudgetSpentNotice({ notice, phone }: { notice: BudgetNotice; phone: string }) {
  return (
    <div className="login-notice login-notice-warning" role="alert" data-testid="budget-notice">
      <p className="login-notice-title">{BUDGET_TEXTS.title}</p>
      <p>{BUDGET_TEXTS.reason(notice.retryAt)}</p>
      <p>{notice.linkSent ? BUDGET_TEXTS.linkSent(phone) : BUDGET_TEXTS.linkEarlier}</p>
    </div>
  );
}

/** A sign-in link from an SMS that did not sign in (used, expired, or another failure). */
export function LinkFailedNotice({ message }: { message: string }) {
  return (
    <div className="login-notice login-notice-error" role="alert" data-testid="link-failed">
      <p className="login-notice-title">This sign-in link did not work</p>
      <p>{message}</p>
    </div>
  );
}
