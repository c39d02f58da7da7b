import { useState } from 'react';
import { errorText } from '@/lib/error-text';

/** A form's refusal before anything is sent: a rule it breaks, or nothing changed. */
export type FormRefusal =
  { kind: 'invalid'; message: string } | { kind: 'unchanged'; message: string };

/** What a form's check makes of its fields: the body to send, or why nothing is sent. */
export type FormOutcome<T> = { kind: 'ok'; body: T } | FormRefusal;

/** What the submit hook needs of a mutation (a TanStack `useMutation` result fits). */
export interface FormMutation<TBody, TResult> {
  isPending: boolean;
  mutate: (
    body: TBody,
    options: {
      onSuccess: (result: TResult, body: TBody) => void;
      onError: (error: unknown) => void;
    },
  ) => void;
}

/** The dialog's messages for an outcome: a refusal's text as error or notice, none to send. */
export function outcomeMessages(outcome: FormOutcome<unknown>): {
  error: string | null;
  notice: string | null;
} {
  if (outcome.kind === 'invalid') return { error: outcome.message, notice: null };
  if (outcome.kind === 'unchanged') return { error: null, notice: outcome.message };
  return { error: null, notice: null };
}

/**
 * A create or edit dialog's submit: a rule the form breaks shows as its error, "No changes to
 * save." as its notice, and a valid body goes to the mutation, whose failure shows as
 * `errorText(error, failed)`. Spread the answer onto `FormDialog`; `clear()` drops the message
 * (a field changed, the dialog closed).
 */
export function useFormSubmit<TBody, TResult>(
  mutation: FormMutation<TBody, TResult>,
  outcome: () => FormOutcome<TBody>,
  failed: string,
  onSuccess: (result: TResult, body: TBody) => void,
) {
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const onSubmit = () => {
    const next = outcome();
    const messages = outcomeMessages(next);
    setError(messages.error);
    setNotice(messages.notice);
    if (next.kind !== 'ok') return;
    mutation.mutate(next.body, {
      onSuccess,
      onError: (failure) => setError(errorText(failure, failed)),
    });
  };

  const clear = () => {
    setError(null);
    setNotice(null);
  };

  return { busy: mutation.isPending, error, notice, onSubmit, clear };
}

/** What a create form is: its empty values, the check that makes the body, the failure text. */
export interface CreateForm<TValues, TBody> {
  empty: TValues;
  body: (values: TValues) => FormOutcome<TBody>;
  failed: string;
}

/**
 * A create dialog that stays mounted while closed: useFormSubmit, with the values starting afresh
 * once the record is created and when the dialog is cancelled (`close`).
 */
export function useCreateForm<TValues, TBody, TResult>(
  form: CreateForm<TValues, TBody>,
  mutation: FormMutation<TBody, TResult>,
  on: { onCreated: (result: TResult) => void; onClose: () => void },
) {
  const [values, setValues] = useState(form.empty);
  const submit = useFormSubmit(
    mutation,
    () => form.body(values),
    form.failed,
    (result) => {
      setValues(form.empty);
      on.onCreated(result);
    },
  );
  const close = () => {
    setValues(form.empty);
    submit.clear();
    on.onClose();
  };
  return { values, setValues, submit, close };
}
