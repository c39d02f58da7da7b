import { useEffect, useId, useRef } from 'react';
import { errorText } from '@/lib/error-text';
import { formatUtcTimestamp } from '@/lib/format-date';
import { ENROLLMENT_CODE_FAILED, useCreateEnrollmentCode } from '../api/create-enrollment-code';
import { CopyButton } from './copy-button';
import './enrollment.css';

/** A command, its last word (the code) never broken at its dash where the line wraps. */
function CommandText({ command }: { command: string }) {
  const cut = command.lastIndexOf(' ') + 1;
  return (
    <>
      {command.slice(0, cut)}
      <span className="enrollment-nowrap">{command.slice(cut)}</span>
    </>
  );
}

/**
 * A booth computer's one-time enrollment code, made when this mounts: the one command to paste
 * into the booth's terminal (install, enroll, start; issue 39) with the code in it, the code big
 * and copyable, when it expires, and the shorter command for a booth already installed. "New
 * code" makes another (the earlier one stops working). `title`: its own heading (left out where
 * the dialog says it).
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
        Paste this one line into the booth computer&apos;s terminal (Debian 12 or Raspberry Pi OS
        bookworm, with internet): it installs the booth software, enrolls the booth with the code
        and starts it. No secret to type.
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
            <CommandText command={code.command} />
          </pre>
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
          <p className="field-hint" data-testid="enrollment-installed-command">
            Booth software already installed? Enroll with{' '}
            <code className="enrollment-inline-command">{code.enroll_command}</code>
          </p>
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
