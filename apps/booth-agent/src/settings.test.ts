import { describe, expect, it } from 'vitest';
import { memoryStore, recordingLog } from '../test/fakes.js';
import { applySettings } from './settings.js';

function apply(payload: string | object, state = memoryStore().state) {
  const log = recordingLog();
  const body = typeof payload === 'string' ? payload : JSON.stringify(payload);
  const applied = applySettings(state, Buffer.from(body), { thingName: 'fb-test', log });
  return { applied, state, log };
}

describe('applySettings (restock)', () => {
  it('applies a newer revision: prints left and the revision', () => {
    const { applied, state, log } = apply({ revision: 3, prints_left: 600 });
    expect(applied).toBe(true);
    expect(state).toMatchObject({ prints_left: 600, settings_revision: 3 });
    expect(log.messages('info')).toEqual(['applied new settings (restock)']);
  });

  it('ignores the revision already applied and older ones, so later prints are not undone', () => {
    const state = memoryStore({ prints_left: 599, settings_revision: 3 }).state;
    for (const revision of [3, 2]) {
      const { applied, log } = apply({ revision, prints_left: 600 }, state);
      expect(applied).toBe(false);
      expect(log.messages('debug')).toEqual(['settings already applied']);
    }
    expect(state).toMatchObject({ prints_left: 599, settings_revision: 3 });
  });

  it('ignores malformed settings, non-JSON and an empty (cleared) retained message', () => {
    const state = memoryStore({ prints_left: 10 }).state;
    const malformed = apply({ revision: 'four', prints_left: 100 }, state);
    const negative = apply({ revision: 5, prints_left: -1 }, state);
    const text = apply('not json', state);
    const empty = apply('', state);
    expect([malformed, negative, text, empty].map((r) => r.applied)).toEqual([
      false,
      false,
      false,
      false,
    ]);
    expect(malformed.log.messages('warn')).toEqual(['ignoring malformed settings']);
    expect(negative.log.messages('warn')).toEqual(['ignoring malformed settings']);
    expect(text.log.messages('warn')).toEqual(['ignoring settings that are not JSON']);
    expect(empty.log.entries).toEqual([]);
    expect(state).toMatchObject({ prints_left: 10, settings_revision: 0 });
  });
});
