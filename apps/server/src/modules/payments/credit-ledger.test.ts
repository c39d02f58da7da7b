import { PAYMENT_MIN_PAISE } from '@flashbooth/contracts';
import { describe, expect, it } from 'vitest';
import type { Executor } from '../../db/client.js';
import { creditBalance, creditToHold, debitBalance } from './credit-ledger.js';

describe('how much credit a payment holds', () => {
  const price = 5000;

  it('holds nothing without credit, and asks nothing when the credit covers the price', () => {
    expect(creditToHold(price, 0)).toBe(0);
    expect(creditToHold(price, price)).toBeNull();
    expect(creditToHold(price, price + 1)).toBeNull();
  });

  it('holds all of a credit below the price, leaving the rest to pay', () => {
    expect(creditToHold(price, 3000)).toBe(3000);
    expect(creditToHold(price, price - PAYMENT_MIN_PAISE)).toBe(price - PAYMENT_MIN_PAISE);
  });

  it('never leaves less than ₹1 to pay (the provider refuses smaller orders)', () => {
    expect(PAYMENT_MIN_PAISE).toBe(100);
    expect(creditToHold(price, price - 1)).toBe(price - PAYMENT_MIN_PAISE);
    expect(creditToHold(price, price - 99)).toBe(price - PAYMENT_MIN_PAISE);
    // A price of ₹1 or less is paid in full: no credit can be held for it.
    expect(creditToHold(100, 50)).toBe(0);
    expect(creditToHold(150, 149)).toBe(50);
  });
});

describe('credit balance changes', () => {
  /** An executor any use of which fails the test: a refused amount must not reach the database. */
  const untouchable = new Proxy(
    {},
    {
      get: (_target, name) => {
        throw new Error(`the database was used (${String(name)})`);
      },
    },
  ) as Executor;

  it.each([0, -100, 12.5, Number.NaN, Number.MAX_SAFE_INTEGER + 1])(
    'refuses %d paise before touching the database',
    async (amountPaise) => {
      for (const change of [creditBalance, debitBalance]) {
        await expect(
          change(untouchable, { userId: 1, amountPaise, reason: 'grant' }),
        ).rejects.toThrow(/positive whole number of paise/);
      }
    },
  );
});
