import { ERASURE_CODE_LENGTH, PRIVACY_MESSAGES as M } from '@flashbooth/contracts/rules';
import { type FormEvent, useEffect, useId, useReducer, useRef } from 'react';
import { Dialog } from '@/components/ui/dialog';
import { LoadErrorPanel } from '@/components/ui/list-states';
import { Spinner } from '@/components/ui/spinner';
import { ApiError } from '@/lib/api-client';
import { errorText } from '@/lib/error-text';
import { useDataExport, useRequestDataExport } from '../api/data-export';
import { useEraseAccount, useSendErasureCode } from '../api/erase-account';
import { closedDeletion, deletionReducer, exportView } from '../privacy-model';
import './privacy-section.css';

/** "Download my data": ask for a ZIP, see it being prepared, download it before its link expires. */
function DataExportCard() {
  const headingId = useId();
  const current = useDataExport();
  const request = useRequestDataExport();

  let body;
  if (current.isPending) {
    body = (
      <div aria-busy="true" className="privacy-loading">
        <span className="visually-hidden" role="status">
          Loading your data download…
        </span>
        <div className="skeleton skeleton-line" style={{ width: '70%' }} aria-hidden="true" />
        <div className="skeleton skeleton-input" aria-hidden="true" />
      </div>
    );
  } else if (current.isError) {
    body = (
      <LoadErrorPanel className="privacy-load-error" message={M.exportLoadFailed} query={current} />
    );
  } else {
    const view = exportView(current.data.current);
    const requestButton = (label: string, primary: boolean) => (
      <button
        type="button"
        className={primary ? 'btn btn-primary' : 'btn btn-secondary'}
        onClick={() => request.mutate()}
        disabled={request.isPending}
        aria-busy={request.isPending}
      >
        {request.isPending && <Spinner small label="Starting…" />}
        <span>{label}</span>
      </button>
    );
    body = (
      <div className="privacy-export-state" data-state={view.kind}>
        {view.kind === 'pending' && (
          <p className="privacy-export-pending" role="status">
            <Spinner small label="" />
            <span>{view.message}</span>
          </p>
        )}
        {view.kind === 'ready' && (
          <>
            <p className="privacy-export-message" role="status">
              {view.message}
            </p>
            <p className="privacy-export-details">{view.details}</p>
            <div className="privacy-actions">
              <a className="btn btn-primary" href={view.downloadUrl} download={view.fileName}>
                {M.exportDownload}
              </a>
              {requestButton(view.action, false)}
            </div>
          </>
        )}
        {(view.kind === 'expired' || view.kind === 'failed') && (
          <>
            <p
              className={view.kind === 'failed' ? 'status status-error' : 'privacy-export-message'}
              role={view.kind === 'failed' ? 'alert' : 'status'}
            >
              {view.message}
            </p>
            <div className="privacy-actions">{requestButton(view.action, true)}</div>
          </>
        )}
        {view.kind === 'none' && (
          <div className="privacy-actions">{requestButton(view.action, true)}</div>
        )}
        {request.isError && (
          <p className="status status-error privacy-inline-error" role="alert">
            {errorText(request.error, M.exportRequestFailed)}
          </p>
        )}
      </div>
    );
  }

  return (
    <section className="card profile-card privacy-card" aria-labelledby={headingId}>
      <h2 id={headingId} className="privacy-title">
        {M.exportHeading}
      </h2>
      <p className="privacy-intro">{M.exportIntro}</p>
      {body}
    </section>
  );
}

/** The dialog's steps: what deleting does, then the code from the SMS. */
function DeleteAccountDialog({
  open,
  creditsText,
  onClose,
  onDeleted,
}: {
  open: boolean;
  creditsText: string | null;
  onClose: () => void;
  onDeleted: () => void;
}) {
  const id = useId();
  const [state, dispatch] = useReducer(deletionReducer, closedDeletion);
  const sendCode = useSendErasureCode();
  const erase = useEraseAccount();
  const codeRef = useRef<HTMLInputElement>(null);

  // The parent opens and closes; the steps live here.
  useEffect(() => {
    dispatch({ type: open ? 'open' : 'cancel' });
  }, [open]);
  // The code field takes the focus when it appears, after a new code and after a refusal.
  const codeKey = state.step === 'code' ? `${state.sentTo} ${state.busy}` : null;
  useEffect(() => {
    if (codeKey !== null && !codeKey.endsWith('true')) codeRef.current?.focus();
  }, [codeKey]);

  const busy =
    (state.step === 'explain' && state.busy) ||
    (state.step === 'code' && (state.busy || state.resending));

  const requestCode = async () => {
    dispatch({ type: 'sendCode' });
    try {
      const sent = await sendCode.mutateAsync();
      dispatch({ type: 'codeSent', sentTo: sent.sent_to });
    } catch (error) {
      dispatch({ type: 'sendFailed', message: errorText(error, M.deleteSendFailed) });
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (state.step !== 'code' || state.busy) return;
    const next = deletionReducer(state, { type: 'submit' });
    dispatch({ type: 'submit' });
    if (next.step !== 'code' || !next.busy) {
      codeRef.current?.focus();
      return;
    }
    try {
      await erase.mutateAsync(next.code);
      dispatch({ type: 'deleted' });
      onDeleted();
    } catch (error) {
      const message = errorText(error, M.deleteFailed);
      const codeSpent =
        error instanceof ApiError &&
        (error.status === 429 || message === M.codeExpired || message === M.codeTooManyAttempts);
      dispatch({ type: 'submitFailed', message, codeSpent });
    }
  };

  const close = () => {
    if (!busy) onClose();
  };

  const error = state.step === 'explain' || state.step === 'code' ? state.error : null;

  return (
    <Dialog
      open={open && state.step !== 'closed' && state.step !== 'deleted'}
      title={M.deleteDialogTitle}
      onClose={close}
      closeOnBackdrop={false}
      className="privacy-delete-dialog"
    >
      {state.step === 'explain' && (
        <>
          <p className="privacy-dialog-lead">This deletes at once and cannot be undone:</p>
          <ul className="privacy-consequences">
            <li>Your profile: name, phone number, email, date of birth</li>
            <li>Every photo and video, also from the wall and shared links</li>
            <li>Your likes and comments</li>
            <li>{creditsText ? `Your credit balance (${creditsText})` : 'Any remaining credit'}</li>
            <li>Your passkeys and every signed-in session</li>
          </ul>
          <p className="privacy-note">{M.deletePaymentsKept}</p>
          <p className="privacy-note">
            Want a copy first? Use “{M.exportHeading}” above before you delete.
          </p>
          {error && (
            <p className="status status-error privacy-inline-error" role="alert">
              {error}
            </p>
          )}
          <div className="dialog-actions">
            <button type="button" className="btn btn-secondary" onClick={close} disabled={busy}>
              {M.deleteCancel}
            </button>
            <button
              type="button"
              className="btn btn-danger"
              onClick={() => void requestCode()}
              disabled={busy}
              aria-busy={busy}
            >
              {busy && <Spinner small label="" />}
              <span>{busy ? M.deleteSendingCode : M.deleteSendCode}</span>
            </button>
          </div>
        </>
      )}
      {state.step === 'code' && (
        <form onSubmit={(event) => void submit(event)} noValidate>
          <p className="privacy-dialog-lead" id={`${id}-sent`}>
            {M.deleteCodeSent(state.sentTo)}
          </p>
          <div className="field">
            <label htmlFor={`${id}-code`}>{M.deleteCodeLabel}</label>
            <input
              ref={codeRef}
              id={`${id}-code`}
              className="input privacy-code-input"
              type="text"
              inputMode="numeric"
              autoComplete="one-time-code"
              maxLength={ERASURE_CODE_LENGTH + 4}
              value={state.code}
              onChange={(event) => dispatch({ type: 'typeCode', text: event.target.value })}
              disabled={state.busy}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-error` : `${id}-sent`}
            />
            {error && (
              <p id={`${id}-error`} className="field-error" role="alert">
                {error}
              </p>
            )}
          </div>
          <button
            type="button"
            className="btn btn-link privacy-resend"
            onClick={() => void requestCode()}
            disabled={busy}
          >
            {state.resending ? M.deleteSendingCode : M.deleteResendCode}
          </button>
          <div className="dialog-actions">
            <button type="button" className="btn btn-secondary" onClick={close} disabled={busy}>
              {M.deleteCancel}
            </button>
            <button type="submit" className="btn btn-danger" disabled={busy} aria-busy={state.busy}>
              {state.busy && <Spinner small label="" />}
              <span>{state.busy ? M.deleteConfirming : M.deleteConfirm}</span>
            </button>
          </div>
        </form>
      )}
    </Dialog>
  );
}

/** "Delete my account": what it does, then the dialog that confirms it with a code by SMS. */
function DeleteAccountCard({
  creditsText,
  onDeleted,
}: {
  creditsText: string | null;
  onDeleted: () => void;
}) {
  const headingId = useId();
  const [open, toggle] = useReducer((_: boolean, next: boolean) => next, false);
  return (
    <section className="card profile-card privacy-card privacy-delete" aria-labelledby={headingId}>
      <h2 id={headingId} className="privacy-title">
        {M.deleteHeading}
      </h2>
      <p className="privacy-intro">{M.deleteIntro}</p>
      <p className="privacy-note">{M.deletePaymentsKept}</p>
      <div className="privacy-actions">
        <button type="button" className="btn btn-danger" onClick={() => toggle(true)}>
          {M.deleteStart}
        </button>
      </div>
      <DeleteAccountDialog
        open={open}
        creditsText={creditsText}
        onClose={() => toggle(false)}
        onDeleted={onDeleted}
      />
    </section>
  );
}

/** The visitor profile's privacy cards: "Download my data" and "Delete my account". */
export function PrivacySection({
  creditsText,
  onDeleted,
}: {
  creditsText: string | null;
  onDeleted: () => void;
}) {
  return (
    <>
      <DataExportCard />
      <DeleteAccountCard creditsText={creditsText} onDeleted={onDeleted} />
    </>
  );
}
