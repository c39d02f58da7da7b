import {
  RELEASE_NOTES_MAX,
  RELEASE_VERSION_MAX,
  SOFTWARE_DESCRIPTION_MAX,
  SOFTWARE_MESSAGES,
  SOFTWARE_NAME_MAX,
} from '@flashbooth/contracts/rules';
import { useState } from 'react';
import { Field } from '@/components/console/form-dialog';
import { SOFTWARE_SCREEN_TEXT } from '../software-model';

interface RequiredTextProps {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  maxLength: number;
  /** Shown under the field once it has been left empty (the submit button is disabled then). */
  requiredMessage: string;
  placeholder?: string;
}

/**
 * A required one-line field: the dialog's submit stays disabled while it is empty (spec section
 * 5), so the reason is said beside the field as soon as it has been touched and left empty.
 */
function RequiredText({
  id,
  label,
  value,
  onChange,
  maxLength,
  requiredMessage,
  placeholder,
}: RequiredTextProps) {
  const [touched, setTouched] = useState(false);
  const missing = touched && !value.trim();
  return (
    <Field id={id} label={label}>
      <input
        id={id}
        className="input"
        value={value}
        maxLength={maxLength}
        required
        aria-required="true"
        aria-invalid={missing || undefined}
        aria-describedby={missing ? `${id}-required` : undefined}
        autoComplete="off"
        placeholder={placeholder}
        onBlur={() => setTouched(true)}
        onChange={(event) => {
          setTouched(true);
          onChange(event.target.value);
        }}
      />
      {missing && (
        <p className="field-error software-field-error" id={`${id}-required`}>
          {requiredMessage}
        </p>
      )}
    </Field>
  );
}

interface TextAreaProps {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  maxLength: number;
  rows?: number;
}

function TextArea({ id, label, value, onChange, maxLength, rows = 3 }: TextAreaProps) {
  return (
    <Field id={id} label={label}>
      <textarea
        id={id}
        className="input software-textarea"
        rows={rows}
        maxLength={maxLength}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </Field>
  );
}

/** Name* and Description: Create Channel (its form also holds the link) and Edit Channel. */
export function ChannelFields<T extends { name: string; description: string }>({
  id,
  values,
  onChange,
}: {
  id: string;
  values: T;
  onChange: (values: T) => void;
}) {
  return (
    <>
      <RequiredText
        id={`${id}-name`}
        label="Name*"
        value={values.name}
        maxLength={SOFTWARE_NAME_MAX}
        requiredMessage={SOFTWARE_MESSAGES.channelNameRequired}
        placeholder="e.g. Stable"
        onChange={(name) => onChange({ ...values, name })}
      />
      <TextArea
        id={`${id}-description`}
        label="Description"
        value={values.description}
        maxLength={SOFTWARE_DESCRIPTION_MAX}
        onChange={(description) => onChange({ ...values, description })}
      />
    </>
  );
}

/** Version* (placeholder 1.0.0) and Release Notes: Create Release and Edit Details. */
export function ReleaseFields({
  id,
  values,
  onChange,
}: {
  id: string;
  values: { version: string; releaseNotes: string };
  onChange: (values: { version: string; releaseNotes: string }) => void;
}) {
  return (
    <>
      <RequiredText
        id={`${id}-version`}
        label="Version*"
        value={values.version}
        maxLength={RELEASE_VERSION_MAX}
        requiredMessage={SOFTWARE_MESSAGES.versionRequired}
        placeholder={SOFTWARE_SCREEN_TEXT.versionPlaceholder}
        onChange={(version) => onChange({ ...values, version })}
      />
      <TextArea
        id={`${id}-notes`}
        label="Release Notes"
        value={values.releaseNotes}
        maxLength={RELEASE_NOTES_MAX}
        rows={5}
        onChange={(releaseNotes) => onChange({ ...values, releaseNotes })}
      />
    </>
  );
}
