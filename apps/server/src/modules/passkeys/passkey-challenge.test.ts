import { describe, expect, it } from 'vitest';
import { CHALLENGE_LENGTH, challengeOfClientData, PasskeyChallenges } from './passkey-challenge.js';

const key = Buffer.alloc(32, 7);
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64url');

function clock(start = Date.UTC(2025, 0, 1)) {
  let at = start;
  return { now: () => new Date(at), advance: (ms: number) => (at += ms) };
}

describe('passkey challenges', () => {
  it('says what it was issued for, until it expires', () => {
    const time = clock();
    const challenges = new PasskeyChallenges(key, 300_000, time.now);
    const challenge = b64(challenges.issue('register', 'enterprise', 42));
    expect(Buffer.from(challenge, 'base64url')).toHaveLength(CHALLENGE_LENGTH);
    expect(challenges.open(challenge)).toEqual({
      purpose: 'register',
      pool: 'enterprise',
      userId: 42,
      expiresAt: new Date(time.now().getTime() + 300_000),
    });
    time.advance(299_999);
    expect(challenges.open(challenge)?.purpose).toBe('register');
    time.advance(1);
    expect(challenges.open(challenge)).toBeNull();
  });

  it('is different every time', () => {
    const challenges = new PasskeyChallenges(key, 300_000, clock().now);
    const seen = new Set(
      Array.from({ length: 50 }, () => b64(challenges.issue('sign-in', 'regular'))),
    );
    expect(seen.size).toBe(50);
  });

  it('refuses a changed byte, another key, and text that is no challenge', () => {
    const time = clock();
    const challenges = new PasskeyChallenges(key, 300_000, time.now);
    const bytes = Buffer.from(challenges.issue('sign-in', 'regular'));
    for (const index of [1, 2, 5, 10, 20, 40]) {
      const changed = Buffer.from(bytes);
      changed[index] = changed[index]! ^ 1;
      expect(challenges.open(b64(changed)), `byte ${index}`).toBeNull();
    }
    const other = new PasskeyChallenges(Buffer.alloc(32, 8), 300_000, time.now);
    expect(other.open(b64(bytes))).toBeNull();
    expect(challenges.open('')).toBeNull();
    expect(challenges.open('not a challenge!')).toBeNull();
    expect(challenges.open(b64(bytes.subarray(0, 30)))).toBeNull();
  });

  it('reads the challenge out of client data, and nothing out of junk', () => {
    const data = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    expect(challengeOfClientData(data({ type: 'webauthn.get', challenge: 'abc' }))).toBe('abc');
    expect(challengeOfClientData(data({ challenge: 5 }))).toBeNull();
    expect(challengeOfClientData(data('text'))).toBeNull();
    expect(challengeOfClientData('%%%')).toBeNull();
  });
});
