import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable, whileDatabaseAway } from './postgres-errors.js';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it('knows a restart, a failover and a refused or dropped connection', () => {
    for (const error of [
      withCode('57P01', 'terminating connection due to administrator command'),
      withCode('57P03', 'the database system is starting up'),
      withCode('08006'),
      withCode('ECONNREFUSED'),
      new Error('Connection terminated unexpectedly'),
      // Drizzle wraps the driver's error.
      new Error('Failed query: update captures …', { cause: withCode('57P01') }),
    ]) {
      expect(isDatabaseUnavailable(error)).toBe(true);
    }
  });

  it('leaves every other error alone', () => {
    for (const error of [
      withCode('23505', 'duplicate key value'),
      withCode('40001', 'could not serialize access'),
      new Error('boom'),
      'not an error',
      undefined,
    ]) {
      expect(isDatabaseUnavailable(error)).toBe(false);
    }
  });
});

describe('whileDatabaseAway', () => {
  const clock = () => {
    let at = 0;
    const pauses: number[] = [];
    return {
      pauses,
      now: () => at,
      sleep: async (ms: number) => {
        pauses.push(ms);
        at += ms;
      },
    };
  };

  it('tries again with growing pauses while the database is away, then answers', async () => {
    const c = clock();
    let calls = 0;
    const result = await whileDatabaseAway(
      async () => {
        calls += 1;
        if (calls < 4) throw withCode('57P01');
        return 'done';
      },
      5000,
      c.sleep,
      c.now,
    );
    expect(result).toBe('done');
    expect(c.pauses).toEqual([200, 400, 800]);
  });

  it('gives up after its time with the last failure, and throws any other error at once', async () => {
    const c = clock();
    const away = withCode('08006');
    await expect(whileDatabaseAway(() => Promise.reject(away), 2000, c.sleep, c.now)).rejects.toBe(
      away,
    );
    expect(c.pauses).toEqual([200, 400, 800]);
    const other = withCode('23505');
    const d = clock();
    await expect(whileDatabaseAway(() => Promise.reject(other), 2000, d.sleep, d.now)).rejects.toBe(
      other,
    );
    expect(d.pauses).toEqual([]);
  });
});
