import { describe, expect, it } from 'vitest';
import { buttonToReplay } from './early-input';

/** A page's element as the replay reads it: attributes, text and the elements under it. */
interface FakeNode {
  attributes: Record<string, string>;
  textContent: string | null;
  children: FakeNode[];
  getAttribute(name: string): string | null;
  querySelectorAll(selector: string): FakeNode[];
}

const node = (
  tag: string,
  attributes: Record<string, string>,
  children: FakeNode[] = [],
  text: string | null = null,
): FakeNode & { tag: string } => {
  const all = (from: FakeNode[]): FakeNode[] =>
    from.flatMap((child) => [child, ...all(child.children)]);
  return {
    tag,
    attributes,
    textContent: text,
    children,
    getAttribute: (name) => attributes[name] ?? null,
    querySelectorAll(selector) {
      const found = all(children) as (FakeNode & { tag: string })[];
      if (selector === '[data-media-id]') {
        return found.filter((child) => 'data-media-id' in child.attributes);
      }
      if (selector === 'button:not([type="submit"])') {
        return found.filter(
          (child) => child.tag === 'button' && child.attributes.type !== 'submit',
        );
      }
      throw new Error(`unexpected selector ${selector}`);
    },
  };
};

const LIKE = 'Like, 0 likes. Sign in to like';
const card = (id: number, buttons: string[] = [LIKE, 'Comments']) =>
  node(
    'article',
    { 'data-media-id': String(id) },
    buttons.map((name) =>
      name === 'Comments'
        ? node('button', { type: 'button' }, [], name)
        : node('button', { type: 'button', 'aria-label': name }),
    ),
  );
const page = (...cards: FakeNode[]) =>
  node('div', {}, [node('button', { type: 'button', 'aria-label': 'Menu' }), ...cards]);

describe('buttonToReplay', () => {
  it('taps nothing when nothing was tapped', () => {
    expect(buttonToReplay(page(card(1)), { click: -1 })).toBeNull();
    expect(buttonToReplay(page(card(1)), {})).toBeNull();
  });

  it('finds a card’s button in that card, wherever the app’s list has the card', () => {
    // Recorded on the HTML's list as the second card's Like (its 4th button in the page)...
    const early = { click: 3, clickLabel: LIKE, clickIn: '7', clickInIndex: 0 };
    // ...and the app's list has a newer card first: the page's 4th button is card 8's Like.
    const app = page(card(9), card(8), card(7));
    const button = buttonToReplay(app, early);
    expect(button).toBe(app.querySelectorAll('[data-media-id]')[2]!.children[0]);
  });

  it('waits while the card is not there, and never taps another card’s button', () => {
    const early = { click: 1, clickLabel: LIKE, clickIn: '7', clickInIndex: 0 };
    expect(buttonToReplay(page(card(9), card(8)), early)).toBeUndefined();
    expect(buttonToReplay(page(), early)).toBeUndefined();
  });

  it('finds the button by its name in its card when one before it is missing', () => {
    // The HTML's card had a clip's Play button first; the app's card has none (clip failed).
    const early = { click: 2, clickLabel: LIKE, clickIn: '7', clickInIndex: 1 };
    const app = page(card(7));
    expect(buttonToReplay(app, early)).toBe(
      app.querySelectorAll('[data-media-id]')[0]!.children[0],
    );
  });

  it('outside an item, taps the button at its place only when it has the same name', () => {
    const app = page(card(7));
    expect(buttonToReplay(app, { click: 2, clickLabel: 'Comments' })).toBe(
      app.querySelectorAll('[data-media-id]')[0]!.children[1],
    );
    expect(buttonToReplay(app, { click: 1, clickLabel: 'Comments' })).toBeUndefined();
    expect(
      buttonToReplay(app, { click: 5, clickLabel: 'Comments', clickIn: null }),
    ).toBeUndefined();
  });
});
