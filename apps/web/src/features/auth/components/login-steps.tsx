import { useId, type FormEvent, type ReactNode, type RefObject } from 'react';
import { Spinner } from '@/components/ui/spinner';
import {
  COUNTRY_CODE_MAX_LENGTH,
  OTP_LENGTH,
  PHONE_NUMBER_MAX_LENGTH,
  sanitizeOtp,
} from '../login-model';

function SubmitButton({
  busy,
  label,
  busyLabel,
}: {
  busy: boolean;
  label: string;
  busyLabel: string;
}) {
  return (
    <button type="submit" className="btn btn-primary btn-block" disabled={busy} aria-busy={busy}>
      {busy && <Spinner small label={busyLabel} />}
      <span>{label}</span>
    </button>
  );
}

function FieldError({ id, message }: { id: string; message: string | null }) {
  if (!message) return null;
  return (
    <p id={id} className="field-error">
      {message}
    </p>
  );
}

interface StepFormProps {
  id: string;
  title: string;
  hint: ReactNode;
  submitLabel: string;
  busyLabel: string;
  busy: boolean;
  onSubmit: () => void;
  /** Shows the "Change number" link back to phone entry. */
  onChangeNumber?: () => void;
  children: ReactNode;
}

/** The frame every login step shares: heading, hint, fields, submit and the way back. */
function StepForm({
  id,
  title,
  hint,
  submitLabel,
  busyLabel,
  busy,
  onSubmit,
  onChangeNumber,
  children,
}: StepFormProps) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  return (
    <form className="login-form" onSubmit={submit} noValidate aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} className="login-step-title">
        {title}
      </h2>
      <p id={`${id}-hint`} className="login-step-hint">
        {hint}
      </p>
      {children}
      <SubmitButton busy={busy} label={submitLabel} busyLabel={busyLabel} />
      {onChangeNumber && (
        <div className="login-secondary">
          <button type="button" className="btn btn-link" onClick={onChangeNumber} disabled={busy}>
            Change number
          </button>
        </div>
      )}
    </form>
  );
}

interface PhoneStepProps {
  countryCode: string;
  number: string;
  error: string | null;
  busy: boolean;
  firstFieldRef: RefObject<HTMLInputElement | null>;
  numberRef: RefObject<HTMLInputElement | null>;
  onCountryCodeChange: (value: string) => void;
  onNumberChange: (value: string) => void;
  onSubmit: () => void;
}

export function PhoneStep({ firstFieldRef, numberRef, ...props }: PhoneStepProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  return (
    <StepForm
      id={id}
      title="Sign in with your phone"
      hint="We'll text you a 4-digit one-time code. New here? We'll set up your account."
      submitLabel="Continue"
      busyLabel="Sending code…"
      busy={props.busy}
      onSubmit={props.onSubmit}
    >
      <div className="phone-row">
        <div className="field phone-cc">
          <label htmlFor={`${id}-cc`}>Country code</label>
          <input
            ref={firstFieldRef}
            id={`${id}-cc`}
            className="input"
            type="tel"
            inputMode="tel"
            autoComplete="tel-country-code"
            maxLength={COUNTRY_CODE_MAX_LENGTH}
            value={props.countryCode}
            onChange={(event) => props.onCountryCodeChange(event.target.value)}
            aria-invalid={props.error ? true : undefined}
            aria-describedby={props.error ? errorId : undefined}
          />
        </div>
        <div className="field phone-number">
          <label htmlFor={`${id}-number`}>Mobile number</label>
          <input
            ref={numberRef}
            id={`${id}-number`}
            className="input"
            type="tel"
            inputMode="tel"
            // "webauthn": the browser may offer passkeys in this field's autofill (passkey-sign-in.tsx).
            autoComplete="tel-national webauthn"
            maxLength={PHONE_NUMBER_MAX_LENGTH}
            placeholder="98765 43210"
            value={props.number}
            onChange={(event) => props.onNumberChange(event.target.value)}
            aria-invalid={props.error ? true : undefined}
            aria-describedby={props.error ? `${errorId} ${hintId}` : hintId}
          />
        </div>
      </div>
      <FieldError id={errorId} message={props.error} />
    </StepForm>
  );
}

/** What the steps after the phone number share: that number, the error, submit and the way back. */
interface AfterPhoneStepProps {
  phone: string;
  error: string | null;
  busy: boolean;
  firstFieldRef: RefObject<HTMLInputElement | null>;
  onSubmit: () => void;
  onChangeNumber: () => void;
}

interface SignUpStepProps extends AfterPhoneStepProps {
  name: string;
  onNameChange: (value: string) => void;
}

export function SignUpStep({ firstFieldRef, ...props }: SignUpStepProps) {
  const id = useId();
  const errorId = `${id}-error`;
  return (
    <StepForm
      id={id}
      title="Create Your Account"
      hint={
        <>
          No account uses <strong className="login-phone">{props.phone}</strong> yet. Tell us your
          name and we&apos;ll text you a code.
        </>
      }
      submitLabel="Create account"
      busyLabel="Creating your account…"
      busy={props.busy}
      onSubmit={props.onSubmit}
      onChangeNumber={props.onChangeNumber}
    >
      <div className="field">
        <label htmlFor={`${id}-name`}>Full name</label>
        <input
          ref={firstFieldRef}
          id={`${id}-name`}
          className="input"
          type="text"
          autoComplete="name"
          autoCapitalize="words"
          maxLength={100}
          value={props.name}
          onChange={(event) => props.onNameChange(event.target.value)}
          aria-invalid={props.error ? true : undefined}
          aria-describedby={props.error ? errorId : undefined}
        />
        <FieldError id={errorId} message={props.error} />
      </div>
    </StepForm>
  );
}

interface OtpStepProps extends AfterPhoneStepProps {
  code: string;
  onCodeChange: (value: string) => void;
}

export function OtpStep({ firstFieldRef, ...props }: OtpStepProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;
  return (
    <StepForm
      id={id}
      title="Enter OTP"
      hint={
        <>
          Enter the 4-digit code we sent to <strong className="login-phone">{props.phone}</strong>.
        </>
      }
      submitLabel="Verify"
      busyLabel="Checking your code…"
      busy={props.busy}
      onSubmit={props.onSubmit}
      onChangeNumber={props.onChangeNumber}
    >
      <div className="field">
        <label htmlFor={`${id}-code`}>One-time code</label>
        <input
          ref={firstFieldRef}
          id={`${id}-code`}
          className="input otp-input"
          type="text"
          inputMode="numeric"
          pattern="[0-9]*"
          autoComplete="one-time-code"
          maxLength={OTP_LENGTH}
          placeholder="••••"
          value={props.code}
          onChange={(event) => props.onCodeChange(sanitizeOtp(event.target.value))}
          aria-invalid={props.error ? true : undefined}
          aria-describedby={props.error ? `${errorId} ${hintId}` : hintId}
        />
        <FieldError id={errorId} message={props.error} />
      </div>
    </StepForm>
  );
}
