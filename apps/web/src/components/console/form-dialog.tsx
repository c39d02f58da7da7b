import type { FormEvent, ReactNode } from 'react';
import { Dialog } from '@/components/ui/dialog';
import './console.css';

interface FormDialogProps {
  open: boolean;
  title: string;
  /** The fields (use `Field`). */
  children: ReactNode;
  submitLabel: string;
  /** The submit button's text while the call runs ("Creating..."); the submit label otherwise. */
  busyLabel?: string;
  busy?: boolean;
  /** Why the last try failed (a rule of the form or the server's message); shown in the dialog. */
  error?: string | null;
  /** A note that is not a failure ("No changes to save."). */
  notice?: string | null;
  /** Disables submit (a required field still empty). */
  submitDisabled?: boolean;
  cancelLabel?: string;
  onSubmit: () => void;
  onCancel: () => void;
}

/**
 * A dialog holding a form: Enter submits, Cancel and Escape close it (not while it is busy), and
 * the error stays inside the dialog, above the backdrop, where the person is looking. A dialog
 * scrolls within the screen, so it fits a phone (390 × 844) with the keyboard open.
 */
export function FormDialog({
  open,
  title,
  children,
  submitLabel,
  busyLabel,
  busy = false,
  error,
  notice,
  submitDisabled = false,
  cancelLabel = 'Cancel',
  onSubmit,
  onCancel,
}: FormDialogProps) {
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!busy) onSubmit();
  };
  const cancel = () => {
    if (!busy) onCancel();
  };
  return (
    <Dialog open={open} title={title} onClose={cancel} closeOnBackdrop={false}>
      <form className="dialog-form" onSubmit={submit} noValidate>
        {children}
        {error ? (
          <p className="status status-error dialog-error" role="alert">
            {error}
          </p>
        ) : (
          notice && (
            <p className="status status-info dialog-error" role="status">
              {notice}
            </p>
          )
        )}
        <div className="dialog-actions">
          <button type="button" className="btn btn-secondary" onClick={cancel} disabled={busy}>
            {cancelLabel}
          </button>
          <button
            type="submit"
            className="btn btn-primary"
            disabled={busy || submitDisabled}
            aria-busy={busy || undefined}
          >
            {busy ? (busyLabel ?? submitLabel) : submitLabel}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

interface FieldProps {
  /** The control's id (useId). */
  id: string;
  label: string;
  hint?: string;
  children: ReactNode;
}

/** A labelled form field. */
export function Field({ id, label, hint, children }: FieldProps) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children}
      {hint && <p className="field-hint">{hint}</p>}
    </div>
  );
}
