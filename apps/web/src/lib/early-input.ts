/**
 * What a visitor typed and submitted on a page painted before the app had started (the sign-in
 * screen the booth page carries for a signed-out browser, scripts/prerender.ts): the page's
 * loader records it, the app renders the page afresh, then this puts it back: each field's value
 * through the input event React listens to, then the held submit.
 */
interface EarlyInput {
  /** Values by the field's place among the page's inputs, textareas and selects. */
  values: (string | undefined)[];
  /** The place among the page's forms of the form submitted, or -1. */
  submit: number;
  /** Removes the loader's listeners (before the app renders, so they hold back no submit). */
  stop: () => void;
}

declare global {
  interface Window {
    flashboothEarlyInput?: EarlyInput;
  }
}

/** Ends the recording; called before the app's first render. */
export function stopEarlyInput(): EarlyInput | undefined {
  const early = window.flashboothEarlyInput;
  delete window.flashboothEarlyInput;
  early?.stop();
  return early;
}

/** Sets a field's value as typing does, so React's onChange sees it. */
function typeInto(
  field: HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement,
  value: string,
) {
  const prototype = Object.getPrototypeOf(field) as object;
  Object.getOwnPropertyDescriptor(prototype, 'value')?.set?.call(field, value);
  field.dispatchEvent(
    new Event(field instanceof HTMLSelectElement ? 'change' : 'input', { bubbles: true }),
  );
}

/** Puts the recorded input into the app's page (after its first render), then submits. */
export function replayEarlyInput(container: HTMLElement, early: EarlyInput | undefined): void {
  if (!early) return;
  const fields = [
    ...container.querySelectorAll<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>(
      'input, textarea, select',
    ),
  ];
  early.values.forEach((value, index) => {
    const field = fields[index];
    if (value !== undefined && field && field.value !== value) typeInto(field, value);
  });
  const form = container.querySelectorAll('form')[early.submit];
  // After React has applied the values (its updates from the input events).
  if (form) setTimeout(() => form.requestSubmit(), 0);
}
