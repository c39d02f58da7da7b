import { useId, useState } from 'react';
import { Field, FormDialog } from './form-dialog';
import { type FormMutation, type FormOutcome, useFormSubmit } from './use-form-submit';

interface TextFieldDialogProps<T> {
  title: string;
  label: string;
  hint?: string;
  /** The field's text when the dialog opens ('' by default). */
  initial?: string;
  inputMode: 'text' | 'numeric' | 'decimal';
  maxLength?: number;
  submitLabel?: string;
  busyLabel?: string;
  /** Submit stays off while the field is empty. */
  required?: boolean;
  /** The rule the text must pass before anything is sent; its body is the value sent. */
  check: (text: string) => FormOutcome<T>;
  send: FormMutation<T, unknown>;
  /** The dialog's failure when the server says none. */
  failed: string;
  /** It went through (the value sent). */
  onSent: (value: T) => void;
  onClose: () => void;
}

/**
 * A dialog of one text field: the text is checked (`check`) before anything is sent, and the
 * rule's message, "No changes to save." or the server's answer shows in the dialog (useFormSubmit).
 */
export function TextFieldDialog<T>({
  title,
  label,
  hint,
  initial = '',
  inputMode,
  maxLength,
  submitLabel = 'Save',
  busyLabel = 'Saving...',
  required = false,
  check,
  send,
  failed,
  onSent,
  onClose,
}: TextFieldDialogProps<T>) {
  const id = useId();
  const [text, setText] = useState(initial);
  const submit = useFormSubmit(
    send,
    () => check(text),
    failed,
    (_, value) => onSent(value),
  );
  return (
    <FormDialog
      open
      title={title}
      submitLabel={submitLabel}
      busyLabel={busyLabel}
      submitDisabled={required && text.trim() === ''}
      onCancel={onClose}
      {...submit}
    >
      <Field id={id} label={label} {...(hint ? { hint } : {})}>
        <input
          id={id}
          className="input"
          type="text"
          value={text}
          inputMode={inputMode}
          autoComplete="off"
          maxLength={maxLength}
          aria-invalid={submit.error !== null || undefined}
          onChange={(event) => {
            setText(event.target.value);
            submit.clear();
          }}
        />
      </Field>
    </FormDialog>
  );
}
