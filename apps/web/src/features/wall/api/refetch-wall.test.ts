import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { refetchWallAfter, WALL_PAGES_KEY } from './get-public-media';

/** A promise with its resolve, for answers the test gives when it chooses. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

describe('refetchWallAfter', () => {
  it('reads a page again after a like even while its first read is still in flight', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const key = [...WALL_PAGES_KEY, '', 1, true];
    const answers: ReturnType<typeof deferred<{ likes: number }>>[] = [];
    const observer = new QueryObserver(client, {
      queryKey: key,
      queryFn: () => {
        const answer = deferred<{ likes: number }>();
        answers.push(answer);
        return answer.promise;
      },
    });
    const unsubscribe = observer.subscribe(() => undefined);
    // The first read (before the like) is in flight when the like is done.
    expect(answers).toHaveLength(1);
    const refetched = refetchWallAfter(client);
    await Promise.resolve();
    answers[0]!.resolve({ likes: 0 });
    // A second read, after the like, decides what the card shows.
    await expect.poll(() => answers.length).toBe(2);
    answers[1]!.resolve({ likes: 1 });
    await refetched;
    expect(client.getQueryData(key)).toEqual({ likes: 1 });
    unsubscribe();
  });

  it('a plain invalidation would keep the read from before the like (why it cancels first)', async () => {
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    const key = [...WALL_PAGES_KEY, '', 1, true];
    let reads = 0;
    const first = deferred<{ likes: number }>();
    const observer = new QueryObserver(client, {
      queryKey: key,
      queryFn: () => (++reads === 1 ? first.promise : Promise.resolve({ likes: 1 })),
    });
    const unsubscribe = observer.subscribe(() => undefined);
    const invalidated = client.invalidateQueries({ queryKey: WALL_PAGES_KEY });
    first.resolve({ likes: 0 });
    await invalidated;
    expect(reads).toBe(1);
    expect(client.getQueryData(key)).toEqual({ likes: 0 });
    unsubscribe();
  });
});
