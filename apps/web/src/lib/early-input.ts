/**
 * What a visitor typed and submitted on a page painted before the app had started (the sign-in
 * screen the booth page carries for a signed-out browser, scripts/prerender.ts): the page's
 * loader records it, the app renders the page afresh, then this puts it back: each field's value
 * through the input event React listens to, then the held submit.
 */
interface EarlyInput {
  /** Values by the field's place among the page's inputs, textareas and selects. */
  values: (string | undefined)[];
  /** The place of the field the visitor last went into, or -1 (older loaders: absent). */
  focused?: number;
  /** The place among the page's forms of the form submitted, or -1. */
  submit: number;
  /**
   * Removes the loader's listeners. They stay until the replay: what is typed while the app
   * renders is still recorded, and a submit in that moment is held and replayed like the others.
   */
  stop: () => void;
}

declare global {
  interface Window {
    flashboothEarlyInput?: EarlyInput;
  }
}

/** Takes the recording over from the page's loader; called before the app's first render. */
export function takeEarlyInput(): EarlyInput | undefined {
  const early = window.flashboothEarlyInput;
  delete window.flashboothEarlyInput;
  return early;
}

/** Inputs that have a caret to put at the end (the others refuse setSelectionRange). */
const CARET_TYPES = new Set(['text', 'tel', 'search', 'url', 'password']);

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

/**
 * Puts the recorded input into the app's page (in the commit of its first render), puts the
 * visitor back in the field they were in (the caret at the end), then submits what was
 * submitted.
 */
export function replayEarlyInput(container: HTMLElement, early: EarlyInput | undefined): void {
  if (!early) return;
  early.stop();
  const fields = [
    ...container.querySelectorAll<HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>(
      'input, textarea, select',
    ),
  ];
  early.values.forEach((value, index) => {
    const field = fields[index];
    if (value !== undefined && field && field.value !== value) typeInto(field, value);
  });
  const focused = fields[early.focused ?? -1];
  if (focused) {
    focused.focus();
    if (focused instanceof HTMLInputElement && CARET_TYPES.has(focused.type)) {
      focused.setSelectionRange(focused.value.length, focused.value.length);
    }
  }
  const form = container.querySelectorAll('form')[early.submit];
  // After React has applied the values (its updates from the input events).
  if (form) setTimeout(() => form.requestSubmit(), 0);
}
