import type { Pool, User } from '@flashbooth/contracts';
import { useId, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Spinner } from '@/components/ui/spinner';
import type { StatusKind } from '@/components/ui/status-message';
import { errorText } from '@/lib/error-text';
import { useUpdateSelf } from '../api/update-self';
import {
  autoFormatDob,
  buildProfilePatch,
  dobError,
  emailError,
  formatCredits,
  formFromUser,
  GENDER_CHOICES,
  PROFILE_SCREEN_MESSAGES,
  type GenderChoice,
  type ProfileFormValues,
} from '../profile-form';

interface FieldProps {
  id: string;
  label: string;
  error?: string | null;
  className?: string;
  children: (describedBy: string | undefined, invalid: boolean | undefined) => ReactNode;
}

/** A labelled field whose error is linked with aria-describedby and aria-invalid. */
function Field({ id, label, error, className, children }: FieldProps) {
  const errorId = `${id}-error`;
  return (
    <div className={`field ${className ?? ''}`}>
      <label htmlFor={id}>{label}</label>
      {children(error ? errorId : undefined, error ? true : undefined)}
      {error && (
        <p id={errorId} className="field-error">
          {error}
        </p>
      )}
    </div>
  );
}

function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  const letters = parts.length > 1 ? [parts[0]![0], parts[parts.length - 1]![0]] : [parts[0]?.[0]];
  return letters.join('').toUpperCase() || '?';
}

interface ProfileDetailsFormProps {
  user: User;
  pool: Pool;
  onStatus: (kind: StatusKind, text: string) => void;
  clearStatus: () => void;
}

export function ProfileDetailsForm({ user, pool, onStatus, clearStatus }: ProfileDetailsFormProps) {
  const id = useId();
  const [form, setForm] = useState<ProfileFormValues>(() => formFromUser(user));
  const [errors, setErrors] = useState<{ email: string | null; dob: string | null }>({
    email: null,
    dob: null,
  });
  const emailRef = useRef<HTMLInputElement>(null);
  const dobRef = useRef<HTMLInputElement>(null);
  const update = useUpdateSelf(pool);

  const set = <K extends keyof ProfileFormValues>(key: K, value: ProfileFormValues[K]) =>
    setForm((previous) => ({ ...previous, [key]: value }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (update.isPending) return;
    const nextErrors = {
      email: emailError(form.email),
      dob: dobError(pool, form.dob, new Date()),
    };
    setErrors(nextErrors);
    const result = buildProfilePatch(user, form, pool, new Date());
    if (result.kind === 'invalid') {
      onStatus('error', result.message);
      (nextErrors.email ? emailRef : dobRef).current?.focus();
      return;
    }
    if (result.kind === 'empty') {
      onStatus('info', PROFILE_SCREEN_MESSAGES.noChanges);
      return;
    }
    clearStatus();
    try {
      const saved = await update.mutateAsync(result.patch);
      setForm(formFromUser(saved));
      onStatus('success', PROFILE_SCREEN_MESSAGES.updated);
    } catch (error) {
      onStatus('error', errorText(error, PROFILE_SCREEN_MESSAGES.updateFailed));
    }
  };

  const fieldId = (name: string) => `${id}-${name}`;

  return (
    <form className="card profile-card" onSubmit={(event) => void submit(event)} noValidate>
      <div className="profile-summary">
        <div className="profile-avatar" aria-hidden="true">
          {initials(user.name)}
        </div>
        <div className="profile-summary-text">
          <p className="profile-summary-name">{user.name}</p>
          <p className="profile-summary-phone">{user.phone}</p>
        </div>
      </div>

      <div className="profile-grid">
        <Field
          id={fieldId('phone')}
          label="Phone"
          className={pool === 'regular' ? undefined : 'profile-span'}
        >
          {() => (
            <input id={fieldId('phone')} className="input" type="tel" value={user.phone} readOnly />
          )}
        </Field>

        {pool === 'regular' && (
          <Field id={fieldId('credits')} label="Credits">
            {() => (
              <input
                id={fieldId('credits')}
                className="input profile-credits"
                type="text"
                value={formatCredits(user.credits_rupees)}
                readOnly
              />
            )}
          </Field>
        )}

        <Field id={fieldId('name')} label="Full Name" className="profile-span">
          {() => (
            <input
              id={fieldId('name')}
              className="input"
              type="text"
              autoComplete="name"
              maxLength={100}
              value={form.name}
              onChange={(event) => set('name', event.target.value)}
            />
          )}
        </Field>

        <Field id={fieldId('email')} label="Email Address" error={errors.email}>
          {(describedBy, invalid) => (
            <input
              ref={emailRef}
              id={fieldId('email')}
              className="input"
              type="email"
              inputMode="email"
              autoComplete="email"
              maxLength={254}
              value={form.email}
              onChange={(event) => {
                set('email', event.target.value);
                if (errors.email) {
                  setErrors((previous) => ({ ...previous, email: emailError(event.target.value) }));
                }
              }}
              onBlur={() =>
                setErrors((previous) => ({ ...previous, email: emailError(form.email) }))
              }
              aria-invalid={invalid}
              aria-describedby={describedBy}
            />
          )}
        </Field>

        <Field id={fieldId('dob')} label="Date of Birth" error={errors.dob}>
          {(describedBy, invalid) => (
            <input
              ref={dobRef}
              id={fieldId('dob')}
              className="input"
              type="text"
              inputMode="numeric"
              autoComplete="bday"
              placeholder="dd/mm/yyyy"
              maxLength={10}
              value={form.dob}
              onChange={(event) => {
                const value = autoFormatDob(form.dob, event.target.value);
                set('dob', value);
                if (errors.dob) {
                  setErrors((previous) => ({
                    ...previous,
                    dob: dobError(pool, value, new Date()),
                  }));
                }
              }}
              onBlur={() =>
                setErrors((previous) => ({
                  ...previous,
                  dob: dobError(pool, form.dob, new Date()),
                }))
              }
              aria-invalid={invalid}
              aria-describedby={describedBy}
            />
          )}
        </Field>

        <Field id={fieldId('gender')} label="Gender">
          {() => (
            <select
              id={fieldId('gender')}
              className="select"
              value={form.gender}
              onChange={(event) => set('gender', event.target.value as GenderChoice)}
            >
              <option value="">—</option>
              {GENDER_CHOICES.map((choice) => (
                <option key={choice} value={choice}>
                  {choice}
                </option>
              ))}
            </select>
          )}
        </Field>

        {form.gender === 'Other' && (
          <Field id={fieldId('gender-custom')} label="Specify Gender">
            {() => (
              <input
                id={fieldId('gender-custom')}
                className="input"
                type="text"
                maxLength={50}
                value={form.genderCustom}
                onChange={(event) => set('genderCustom', event.target.value)}
              />
            )}
          </Field>
        )}
      </div>

      <div className="profile-actions">
        <button
          type="submit"
          className="btn btn-primary"
          disabled={update.isPending}
          aria-busy={update.isPending}
        >
          {update.isPending && <Spinner small label="Saving…" />}
          <span>Save Changes</span>
        </button>
      </div>
    </form>
  );
}
