/**
 * Prints the figures the docs record (docs/benchmarks.md):
 *  1. sign-in API throughput and latency (send code, verify code) on PGlite and on PostgreSQL;
 *  2. the web app's initial JavaScript for the visitor routes (Brotli as served, raw, gzip);
 *  3. the script each visitor page loads before the first interaction, beside the 60 KB aim.
 * Bounded: a fixed number of requests per run against servers on 127.0.0.1 only.
 * Usage: npm run bench  (PostgreSQL from TEST_POSTGRES_URL, default postgres://postgres@127.0.0.1:5432/test)
 */
import os from 'node:os';
import type { DatabaseHandle } from '../apps/server/src/db/client.js';
import {
  benchConfig,
  benchOnEachDatabase,
  CONCURRENCY,
  listenOnLoopback,
  load,
  REQUESTS,
  type Result,
} from './bench-support.js';
import { SHARE_SCRIPT } from '../apps/server/src/modules/share/share-page.js';
import {
  FIRST_INTERACTION_AIM_BYTES,
  scriptBeforeFirstInteraction,
  webSizes,
} from './web-sizes.js';

async function benchSignIn(kind: string, database: DatabaseHandle): Promise<Result[]> {
  const config = benchConfig({
    OTP_SEND_LIMIT_PER_PHONE: '1000000',
    OTP_SEND_LIMIT_PER_IP: '1000000',
    // The installation-wide cap (1,000 codes an hour by default) would refuse the 1,001st sign-in.
    OTP_GLOBAL_HOURLY_LIMIT: '1000000',
    // Each simulated visitor comes from its own address, as at real booths.
    TRUST_PROXY: 'true',
  });
  const { app, base } = await listenOnLoopback(config, database);
  const post = (url: string, body: unknown, client = 0) =>
    fetch(`${base}${url}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-forwarded-for': `10.${(client >> 16) & 255}.${(client >> 8) & 255}.${client & 255}`,
      },
      body: JSON.stringify(body),
    });

  const phones = Array.from({ length: REQUESTS }, (_, i) => `+9160${String(i).padStart(8, '0')}`);
  // Accounts exist beforehand: the figure is the sign-in path, not sign-up.
  for (let i = 0; i < phones.length; i += 200) {
    await Promise.all(
      phones
        .slice(i, i + 200)
        .map((phone) =>
          post('/api/regular/auth/sign-up', { phone, name: 'Bench' }, Number(phone.slice(-6))),
        ),
    );
  }
  const signIn = await load(`${kind}: POST auth/sign-in`, REQUESTS, async (i) => {
    const response = await post('/api/regular/auth/sign-in', { phone: phones[i] }, i);
    await response.arrayBuffer();
    return response.status === 200;
  });
  const codes = new Map<string, string>();
  for (const phone of phones) {
    const response = await fetch(`${base}/api/dev/sms?phone=${encodeURIComponent(phone)}`);
    const body = (await response.json()) as { items: { code: string }[] };
    const sent = body.items[0];
    if (!sent) throw new Error(`${kind}: no code was sent to ${phone}: a sign-in was refused`);
    codes.set(phone, sent.code);
  }
  const verify = await load(`${kind}: POST auth/verify`, REQUESTS, async (i) => {
    const phone = phones[i]!;
    const response = await post('/api/regular/auth/verify', { phone, code: codes.get(phone) }, i);
    await response.arrayBuffer();
    return response.status === 200;
  });
  await app.close();
  return [signIn, verify];
}

console.log(
  `Sign-in API: ${REQUESTS} requests per figure, ${CONCURRENCY} in flight, one server process on ${os.cpus().length} cores`,
);
await benchOnEachDatabase(34, benchSignIn);

console.log(
  '\nWeb app initial JavaScript, on the wire (Brotli, as the server sends it; raw and gzip -9 beside), budget 150 KB for visitor routes:',
);
for (const { route, raw, gzip, brotli } of webSizes()) {
  console.log(
    `${route.padEnd(20)} ${(brotli / 1024).toFixed(1).padStart(7)} KB   (raw ${(raw / 1024).toFixed(1)} KB, gzip ${(gzip / 1024).toFixed(1)} KB)${brotli > 150 * 1024 ? '  OVER BUDGET' : ''}`,
  );
}

console.log(
  `\nScript before the first interaction (Brotli; aim ${FIRST_INTERACTION_AIM_BYTES / 1024} KB; the app itself loads on the first touch, key or field, or once the loaded page has been idle 3 s):`,
);
for (const { page, brotli, files } of scriptBeforeFirstInteraction(SHARE_SCRIPT)) {
  console.log(
    `${page.padEnd(26)} ${(brotli / 1024).toFixed(1).padStart(7)} KB  ${brotli > FIRST_INTERACTION_AIM_BYTES ? 'OVER the aim' : 'within the aim'}  (${files.length} file${files.length === 1 ? '' : 's'})`,
  );
}
