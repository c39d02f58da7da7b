import { describe, expect, it } from 'vitest';
import { type FormOutcome, outcomeMessages } from './use-form-submit';

describe('useFormSubmit outcome', () => {
  it('shows a broken rule as the error and nothing is sent', () => {
    const outcome: FormOutcome<{ name: string }> = {
      kind: 'invalid',
      message: 'Organization name is required.',
    };
    expect(outcomeMessages(outcome)).toEqual({
      error: 'Organization name is required.',
      notice: null,
    });
  });

  it('shows "No changes to save." as a notice, not an error', () => {
    expect(outcomeMessages({ kind: 'unchanged', message: 'No changes to save.' })).toEqual({
      error: null,
      notice: 'No changes to save.',
    });
  });

  it('clears both messages when the body goes out', () => {
    expect(outcomeMessages({ kind: 'ok', body: { name: 'Demo' } })).toEqual({
      error: null,
      notice: null,
    });
  });
});
