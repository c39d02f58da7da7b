import { useEffect, useId, useRef } from 'react';
import { errorText } from '@/lib/error-text';
import { formatUtcTimestamp } from '@/lib/format-date';
import { ENROLLMENT_CODE_FAILED, useCreateEnrollmentCode } from '../api/create-enrollment-code';
import { CopyButton } from './copy-button';
import './enrollment.css';

/**
 * A booth computer's one-time enrollment code, made when this mounts: the code, big and
 * copyable, when it expires, and the exact command to run on the booth. "New code" makes another
 * (the earlier one stops working). `title`: its own heading (left out where the dialog says it).
 */
export function EnrollmentCodePanel({
  deviceId,
  title = true,
}: {
  deviceId: number;
  title?: boolean;
}) {
  const ids = useId();
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
    <section
      className="enrollment"
      {...(title ? { 'aria-labelledby': `${ids}-title` } : { 'aria-label': 'Enrollment code' })}
      data-testid="enrollment"
    >
      {title && (
        <h3 className="enrollment-title" id={`${ids}-title`}>
          Set up the booth computer
        </h3>
      )}
      <p className="enrollment-hint">
        Run the command on the booth computer (after <code>install.sh</code>): it fetches the
        booth&apos;s settings, no secret to type.
      </p>
      {create.isPending && (
        <p className="enrollment-wait" role="status">
          <span className="spinner spinner-sm" aria-hidden="true" /> Making a code…
        </p>
      )}
      {create.isError && (
        <div className="enrollment-failed">
          <p className="status status-error" role="alert">
            {errorText(create.error, ENROLLMENT_CODE_FAILED)}
          </p>
          <button type="button" className="btn btn-secondary" onClick={() => mutate()}>
            Try Again
          </button>
        </div>
      )}
      {code && (
        <>
          <div className="enrollment-code-row">
            <span className="enrollment-label" id={`${ids}-code`}>
              Enrollment code
            </span>
            <CopyButton text={code.code} label="Copy enrollment code" />
          </div>
          <output
            className="enrollment-code"
            aria-labelledby={`${ids}-code`}
            data-testid="enrollment-code"
          >
            {code.code}
          </output>
          <p className="enrollment-expiry" data-testid="enrollment-expiry">
            Works once, until {formatUtcTimestamp(code.expires_at)} UTC (30 minutes).
          </p>
          <div className="enrollment-code-row">
            <span className="enrollment-label" id={`${ids}-command`}>
              Command
            </span>
            <CopyButton text={code.command} label="Copy command" />
          </div>
          <pre
            className="enrollment-command"
            aria-labelledby={`${ids}-command`}
            tabIndex={0}
            data-testid="enrollment-command"
          >
            {/* The code itself never breaks at its dash where the command wraps. */}
            {code.command.slice(0, code.command.lastIndexOf(' ') + 1)}
            <span className="enrollment-nowrap">
              {code.command.slice(code.command.lastIndexOf(' ') + 1)}
            </span>
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
