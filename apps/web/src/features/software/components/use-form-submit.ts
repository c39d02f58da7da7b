import type { UseMutationResult } from '@tanstack/react-query';
import { useState } from 'react';
import { failureText, type FormOutcome } from '../software-model';

/**
 * A create or edit dialog's submit: a rule the form breaks shows as its error, "No changes to
 * save." as its notice, and a valid body goes to the mutation, whose failure shows as the server's
 * message or `failed`. Spread the answer onto `FormDialog`.
 */
export function useFormSubmit<TBody, TResult>(
  mutation: UseMutationResult<TResult, Error, TBody>,
  outcome: () => FormOutcome<TBody>,
  failed: string,
  onSuccess: (result: TResult) => void,
) {
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const onSubmit = () => {
    const next = outcome();
    setError(null);
    setNotice(null);
    if (next.kind === 'unchanged') setNotice(next.message);
    else if (next.kind === 'invalid') setError(next.message);
    else {
      mutation.mutate(next.body, {
        onSuccess,
        onError: (failure) => setError(failureText(failure, failed)),
      });
    }
  };

  return { busy: mutation.isPending, error, notice, onSubmit };
}
