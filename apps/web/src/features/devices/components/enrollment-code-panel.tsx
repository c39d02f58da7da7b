import { useEffect, useRef } from 'react';
import { formatUtcTimestamp } from '@/lib/format-date';
import { useCreateEnrollmentCode } from '../api/create-enrollment-code';
import { CopyButton } from './copy-button';
import './enrollment.css';

/**
 * A booth computer's one-time enrollment code, made when this mounts: the code, big and
 * copyable, when it expires, and the exact command to run on the booth. "New code" makes another
 * (the earlier one stops working).
 */
export function EnrollmentCodePanel({ deviceId }: { deviceId: number }) {
  const create = useCreateEnrollmentCode(deviceId);
  const requested = useRef(false);
  const { mutate } = create;
  useEffect(() => {
    // Once per mount (Strict Mode runs effects twice): a second code would replace the first.
    if (requested.current) return;
    requested.current = true;
    mutate();
  }, [mutate]);

  const code = create.data;
  return (
    <section className="enrollment" aria-labelledby="enrollment-title" data-testid="enrollment">
      <h3 className="enrollment-title" id="enrollment-title">
        Set up the booth computer
      </h3>
      <p className="enrollment-hint">
        On the booth (Debian 12 or Raspberry Pi OS, after <code>install.sh</code>), run this
        command. No secret to type: the booth fetches its settings with the code.
      </p>
      {create.isPending && (
        <p className="enrollment-wait" role="status">
          <span className="spinner spinner-sm" aria-hidden="true" /> Making a code…
        </p>
      )}
      {create.isError && (
        <div className="enrollment-failed">
          <p className="status status-error" role="alert">
            {create.error.message}
          </p>
          <button type="button" className="btn btn-secondary" onClick={() => mutate()}>
            Try Again
          </button>
        </div>
      )}
      {code && (
        <>
          <div className="enrollment-code-row">
            <span className="enrollment-label" id="enrollment-code-label">
              Enrollment code
            </span>
            <CopyButton text={code.code} label="Copy enrollment code" />
          </div>
          <output
            className="enrollment-code"
            aria-labelledby="enrollment-code-label"
            data-testid="enrollment-code"
          >
            {code.code}
          </output>
          <p className="enrollment-expiry" data-testid="enrollment-expiry">
            Works once, until {formatUtcTimestamp(code.expires_at)} UTC (30 minutes).
          </p>
          <div className="enrollment-code-row">
            <span className="enrollment-label" id="enrollment-command-label">
              Command for the booth
            </span>
            <CopyButton text={code.command} label="Copy command" />
          </div>
          <pre
            className="enrollment-command"
            aria-labelledby="enrollment-command-label"
            tabIndex={0}
            data-testid="enrollment-command"
          >
            {code.command}
          </pre>
          <p className="field-hint">
            Enrolling gives the booth a new secret: a secret shown or pasted before stops working.
          </p>
          <button
            type="button"
            className="btn btn-secondary enrollment-again"
            onClick={() => mutate()}
          >
            New Code
          </button>
        </>
      )}
    </section>
  );
}
