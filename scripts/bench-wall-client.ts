/**
 * bench-wall.ts's load generator, in a process of its own as real clients are: it would
 * otherwise share the server's event loop and core, and its own cost (about as much as a small
 * route's) would count as the server's. Started with `fork`; it gets one `WallLoadJob` message,
 * warms up, runs the fixed rate, says 'max' and runs full speed, answers with both results and
 * exits.
 */
import { atRate, load, type Result } from './load.js';

export interface WallLoadJob {
  label: string;
  url: string;
  /** The request's headers; a list: each request the next (a crowd of callers). */
  headers: Record<string, string> | Record<string, string>[];
  rate: number;
  rateSeconds: number;
  maxRequests: number;
}

export type WallLoadResults = [atRate: Result, max: Result];

process.once('message', (job: WallLoadJob) => {
  void run(job).then((results) => process.send!(results, () => process.exit(0)));
});

async function run(job: WallLoadJob): Promise<WallLoadResults> {
  const crowd = Array.isArray(job.headers) ? job.headers : [job.headers];
  let next = 0;
  const call = async () => {
    const headers = crowd[next++ % crowd.length]!;
    const response = await fetch(job.url, { headers });
    await response.arrayBuffer();
    return response.status === 200;
  };
  for (let i = 0; i < 100; i += 1) await call(); // warm up (connections, the server's JIT)
  const steady = await atRate(`${job.label} @${job.rate}/s`, job.rate, job.rateSeconds, call);
  process.send!('max');
  const max = await load(`${job.label} max`, job.maxRequests, call);
  return [steady, max];
}
