import { describe, expect, it } from 'vitest';
import { AccessTokens } from './access-tokens.js';

const SECRET = 'a'.repeat(64);

function clock(start: string) {
  let now = new Date(start);
  return { now: () => now, advance: (ms: number) => (now = new Date(now.getTime() + ms)) };
}

describe('AccessTokens', () => {
  it('answers a remembered token until the second it expires, then says the session expired', async () => {
    const time = clock('2026-11-25T10:00:00.000Z');
    const tokens = new AccessTokens(SECRET, 900, time.now);
    const token = await tokens.sign({ userId: 7, pool: 'regular' });
    expect(await tokens.verify(token, 'regular')).toEqual({ userId: 7, pool: 'regular' });
    time.advance(899_999);
    expect(await tokens.verify(token, 'regular')).toEqual({ userId: 7, pool: 'regular' });
    time.advance(1);
    await expect(tokens.verify(token, 'regular')).rejects.toThrow(
      'Your session has expired. Please sign in again.',
    );
    // Still refused on the next call (nothing was remembered from the refusal).
    await expect(tokens.verify(token, 'regular')).rejects.toThrow('Your session has expired.');
  });

  it('refuses a verified token in the other pool and any altered copy of it', async () => {
    const tokens = new AccessTokens(SECRET, 900, () => new Date('2026-11-25T10:00:00Z'));
    const token = await tokens.sign({ userId: 7, pool: 'regular' });
    await tokens.verify(token, 'regular');
    await expect(tokens.verify(token, 'enterprise')).rejects.toThrow('Please sign in again.');
    const [header, payload, signature] = token.split('.');
    const flipped = `${signature![0] === 'A' ? 'B' : 'A'}${signature!.slice(1)}`;
    await expect(tokens.verify(`${header}.${payload}.${flipped}`, 'regular')).rejects.toThrow(
      'Please sign in again.',
    );
    await expect(tokens.verify(`${header}.${payload}x.${signature}`, 'regular')).rejects.toThrow(
      'Please sign in again.',
    );
  });

  it('refuses a token of another secret even after one of its own verified', async () => {
    const now = () => new Date('2026-11-25T10:00:00Z');
    const ours = new AccessTokens(SECRET, 900, now);
    const theirs = new AccessTokens('b'.repeat(64), 900, now);
    await ours.verify(await ours.sign({ userId: 7, pool: 'regular' }), 'regular');
    const forged = await theirs.sign({ userId: 7, pool: 'regular' });
    await expect(ours.verify(forged, 'regular')).rejects.toThrow('Please sign in again.');
  });
});
