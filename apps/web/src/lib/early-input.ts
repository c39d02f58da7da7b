/**
 * What a visitor typed, submitted and tapped on a page painted before the app had started (any
 * prerendered page the loader of scripts/prerender.ts starts, such as the sign-in screen the booth
 * page carries for a signed-out browser): the page's loader records it, the app takes the page
 * over (afresh when something was typed), then this puts it back: each field's value through the
 * input event React listens to, then the tapped button's click and the held submit.
 */
interface EarlyInput {
  /** Values by the field's place among the page's inputs, textareas and selects. */
  values: (string | undefined)[];
  /** Each recorded field's kind by its place (`input:tel`): put back only into its like. */
  kinds?: (string | undefined)[];
  /** The place of the field the visitor last went into, or -1 (older loaders: absent). */
  focused?: number;
  /** The place among the page's forms of the form submitted, or -1. */
  submit: number;
  /**
   * The place among the page's buttons (other than submit buttons) of the one last tapped, or -1
   * (older loaders: absent): such a button works only once the app runs, which taps it again.
   */
  click?: number;
  /** That button's name (its aria-label, or else its text): tapped again only if it matches. */
  clickLabel?: string | null;
  /**
   * The item the button belongs to (the `data-media-id` of its closest element that has one: a
   * wall card), or null (older loaders: absent): the button is then found in that item, by its
   * place among the item's buttons (`clickInIndex`), never in another item that happens to
   * stand at its place in a list that changed (a wall that has more cards by then).
   */
  clickIn?: string | null;
  clickInIndex?: number;
  /**
   * The address's path the input was recorded at (older loaders: absent): once the app has gone
   * elsewhere (the tap already led on, the visitor navigated), nothing is replayed any more.
   */
  page?: string;
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

type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

/** A field's kind as the loader records it (`input:tel`, `select:select-one`). */
const kindOf = (field: Field) => `${field.tagName}:${field.type}`.toLowerCase();

/** What the replay needs of the page's elements (a button, an item, the app's container). */
interface NodeLike {
  getAttribute(name: string): string | null;
  textContent: string | null;
  querySelectorAll(selector: string): ArrayLike<NodeLike>;
}

/** A button's name as the loader records it: its aria-label, or else its text. */
const nameOf = (button: NodeLike) => button.getAttribute('aria-label') ?? button.textContent;

const BUTTONS = 'button:not([type="submit"])';

/**
 * The button to tap again, as the loader recorded it: in its item (`clickIn`) when it had one,
 * else by its place in the page; undefined when there is no such button (yet) or it is not the
 * one tapped (another name). Nothing to tap: null.
 */
export function buttonToReplay(
  container: Pick<NodeLike, 'querySelectorAll'>,
  early: Pick<EarlyInput, 'click' | 'clickLabel' | 'clickIn' | 'clickInIndex'>,
): NodeLike | null | undefined {
  const clickIndex = early.click ?? -1;
  if (clickIndex < 0) return null;
  let button: NodeLike | undefined;
  if (early.clickIn != null) {
    const item = Array.from(container.querySelectorAll('[data-media-id]')).find(
      (candidate) => candidate.getAttribute('data-media-id') === early.clickIn,
    );
    // At its place in the item, or else the item's button of that name (the app's card may lack
    // one before it, such as a clip's Play once the clip would not play).
    const buttons = item ? Array.from(item.querySelectorAll(BUTTONS)) : [];
    const atPlace = buttons[early.clickInIndex ?? -1];
    button =
      atPlace && nameOf(atPlace) === early.clickLabel
        ? atPlace
        : buttons.find((candidate) => nameOf(candidate) === early.clickLabel);
  } else {
    button = Array.from(container.querySelectorAll(BUTTONS))[clickIndex];
  }
  return button && nameOf(button) === early.clickLabel ? button : undefined;
}

/**
 * Puts the recorded input into `container` if the page there is the one it was recorded on
 * (each field recorded in its place and of its kind, the form submitted, the button tapped):
 * answers false, doing nothing, while it is not.
 */
function apply(container: HTMLElement, early: EarlyInput): boolean {
  const fields = [...container.querySelectorAll<Field>('input, textarea, select')];
  const recorded = early.values.flatMap((value, index) => (value === undefined ? [] : [index]));
  const focusedIndex = early.focused ?? -1;
  if (focusedIndex >= 0) recorded.push(focusedIndex);
  const sameField = (index: number) => {
    const field = fields[index];
    const kind = early.kinds?.[index];
    return field !== undefined && (kind === undefined || kindOf(field) === kind);
  };
  if (!recorded.every(sameField)) return false;
  const form = early.submit >= 0 ? container.querySelectorAll('form')[early.submit] : undefined;
  if (early.submit >= 0 && !form) return false;
  const button = buttonToReplay(container, early) as HTMLButtonElement | null | undefined;
  if (button === undefined) return false;

  early.values.forEach((value, index) => {
    const field = fields[index];
    if (value !== undefined && field && field.value !== value) typeInto(field, value);
  });
  const focused = fields[focusedIndex];
  if (focused) {
    focused.focus();
    if (focused instanceof HTMLInputElement && CARET_TYPES.has(focused.type)) {
      focused.setSelectionRange(focused.value.length, focused.value.length);
    }
  }
  // After React has applied the values (its updates from the input events).
  if (button || form) {
    setTimeout(() => {
      button?.click();
      form?.requestSubmit();
    }, 0);
  }
  return true;
}

/** How long the replay waits for the page the input was recorded on. */
const REPLAY_WAIT_MS = 10_000;

/**
 * Puts the recorded input into the app's page, called in the commit of its first render: puts
 * the visitor back in the field they were in (the caret at the end), then taps the button tapped
 * and submits what was submitted. When that first render is not yet the page (a stored session
 * is checked first, behind a spinner), it waits for the page, up to REPLAY_WAIT_MS.
 */
export function replayEarlyInput(container: HTMLElement, early: EarlyInput | undefined): void {
  if (!early) return;
  early.stop();
  const nothing =
    early.values.every((value) => value === undefined) &&
    (early.focused ?? -1) < 0 &&
    early.submit < 0 &&
    (early.click ?? -1) < 0;
  if (nothing || apply(container, early)) return;
  const observer = new MutationObserver(() => {
    // The app has gone on to another page: what was recorded is not for it.
    if (early.page !== undefined && window.location.pathname !== early.page) done();
    else if (apply(container, early)) done();
  });
  const timer = setTimeout(done, REPLAY_WAIT_MS);
  function done() {
    observer.disconnect();
    clearTimeout(timer);
  }
  observer.observe(container, { childList: true, subtree: true });
}
