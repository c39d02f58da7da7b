import { beforeEach, describe, expect, it } from 'vitest';
import {
  WALL_INTENT_MAX_AGE_MS,
  WALL_INTENT_STORAGE_KEY,
  rememberWallIntent,
  peekWallIntent,
  takeWallIntent,
  takeWallIntentFor,
  wallReturnPath,
} from './wall-intent';

/** Session storage as the browser has it (the unit tests run without a DOM). */
class MemoryStorage {
  private readonly values = new Map<string, string>();
  getItem = (key: string) => this.values.get(key) ?? null;
  setItem = (key: string, value: string) => void this.values.set(key, value);
  removeItem = (key: string) => void this.values.delete(key);
}

describe('wall intent', () => {
  let store: MemoryStorage;
  beforeEach(() => {
    store = new MemoryStorage();
  });

  it('keeps a like or a comment for one sign-in and forgets it once taken', () => {
    rememberWallIntent({ action: 'like', mediaId: 12, at: 1000 }, store);
    expect(takeWallIntent(2000, store)).toEqual({ action: 'like', mediaId: 12, at: 1000 });
    expect(takeWallIntent(2000, store)).toBeNull();
    rememberWallIntent({ action: 'comment', mediaId: 3, text: 'Lovely', at: 1000 }, store);
    expect(takeWallIntent(1000, store)).toMatchObject({ action: 'comment', text: 'Lovely' });
  });

  it('takes an intent only at its card, leaving it for that card otherwise', () => {
    rememberWallIntent({ action: 'like', mediaId: 12, at: 1000 }, store);
    expect(takeWallIntentFor('', 2000, store)).toBeNull();
    expect(takeWallIntentFor('#wall-item-13', 2000, store)).toBeNull();
    expect(peekWallIntent(2000, store)).toEqual({ action: 'like', mediaId: 12, at: 1000 });
    expect(takeWallIntentFor('#wall-item-12', 2000, store)).toEqual({
      action: 'like',
      mediaId: 12,
      at: 1000,
    });
    expect(takeWallIntentFor('#wall-item-12', 2000, store)).toBeNull();
    expect(peekWallIntent(2000, store)).toBeNull();
  });

  it('drops stale, future and malformed intents', () => {
    rememberWallIntent({ action: 'like', mediaId: 12, at: 0 }, store);
    expect(takeWallIntent(WALL_INTENT_MAX_AGE_MS + 1, store)).toBeNull();
    rememberWallIntent({ action: 'like', mediaId: 12, at: 10_000_000 }, store);
    expect(takeWallIntent(0, store)).toBeNull();
    for (const raw of [
      '{',
      '{"action":"like","mediaId":"1","at":0}',
      '{"action":"comment","mediaId":1,"text":" ","at":0}',
    ]) {
      store.setItem(WALL_INTENT_STORAGE_KEY, raw);
      expect(takeWallIntent(0, store), raw).toBeNull();
    }
  });

  it('returns to the same wall page at the card', () => {
    expect(wallReturnPath('?search=sun&page=2', 12)).toBe(
      '/regular/wall?search=sun&page=2#wall-item-12',
    );
    expect(wallReturnPath('', 4)).toBe('/regular/wall#wall-item-4');
  });
});
