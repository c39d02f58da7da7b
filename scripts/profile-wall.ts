/**
 * Where a GET media/public request spends its time (issue 13): seeds a temporary PostgreSQL
 * database like bench-wall.ts (PROFILE_MEDIA, default 100,000 media), then times each step of a
 * request on its own (PROFILE_RUNS, default 300, one after another): the wall's queries as they
 * were before migration 0014 ("before:", raw SQL; with PROFILE_EXPLAIN=1 also their EXPLAIN
 * ANALYZE), WallRepository.listPublic as it is now, presigning, token check, the zod serializer,
 * JSON, Brotli, then whole HTTP requests. PROFILE_KEEP=1 keeps the database for psql.
 * Usage: node --import tsx scripts/profile-wall.ts
 */
import { WallPageSchema } from '@flashbooth/contracts';
import { rowsOf } from '../apps/server/src/db/client.js';
import { sql } from '../apps/server/node_modules/drizzle-orm/index.js';
import { deriveKey } from '../apps/server/src/security/keys.js';
import { AccessTokens } from '../apps/server/src/security/access-tokens.js';
import { LocalStorage } from '../apps/server/src/modules/storage/local-storage.js';
import { WallRepository } from '../apps/server/src/modules/wall/wall.repository.js';
import { openTemporaryPostgres } from '../apps/server/test/temporary-postgres.js';
import { benchConfig, listenOnLoopback, POSTGRES_URL } from './bench-support.js';
import { seed } from './bench-wall.js';

const MEDIA = Number(process.env.PROFILE_MEDIA ?? 100_000);
const N = Number(process.env.PROFILE_RUNS ?? 300);

async function time(label: string, step: () => unknown): Promise<void> {
  for (let i = 0; i < 20; i += 1) await step();
  const started = performance.now();
  for (let i = 0; i < N; i += 1) await step();
  const us = ((performance.now() - started) / N) * 1000;
  console.log(`${label.padEnd(58)} ${us.toFixed(0).padStart(7)} µs`);
}

const database = await openTemporaryPostgres(POSTGRES_URL, 'flashbooth_bench');
try {
  const config = benchConfig({});
  const { app, base } = await listenOnLoopback(config, database);
  const first = await seed(database, MEDIA);
  const caller = first + 7;
  const db = database.db;
  const wallWhere = sql`m.is_public and m.is_uploaded and m.hidden_from_wall_at is null`;
  const list = (offset: number, search?: string) => sql`
    select m.*, o.name, d.name, u.name,
      exists (select 1 from media_likes l where l.media_id = m.id and l.user_id = ${caller}) liked
    from media m join users u on u.id = m.user_id
      left join organizations o on o.id = m.org_id left join devices d on d.id = m.device_id
    where ${wallWhere} ${search ? sql`and (m.caption ilike ${search} or u.name ilike ${search} or o.name ilike ${search} or d.name ilike ${search})` : sql``}
    order by m.created_at desc, m.id desc limit 10 offset ${offset}`;
  const countAll = sql`select count(*) from media m where ${wallWhere}`;
  const countSearch = (search: string) => sql`
    select count(*) from media m join users u on u.id = m.user_id
      left join organizations o on o.id = m.org_id left join devices d on d.id = m.device_id
    where ${wallWhere} and (m.caption ilike ${search} or u.name ilike ${search} or o.name ilike ${search} or d.name ilike ${search})`;
  const explain = async (label: string, query: ReturnType<typeof sql>) => {
    const rows = rowsOf<{ 'QUERY PLAN': string }>(
      await db.execute(sql`explain (analyze, buffers) ${query}`),
    );
    console.log(`--- ${label}\n${rows.map((r) => r['QUERY PLAN']).join('\n')}`);
  };
  const pattern = '%caption 12%';
  if (process.env.PROFILE_EXPLAIN) {
    await explain('first page', list(0));
    await explain('offset 5000', list(5000));
    await explain('count (no search)', countAll);
    await explain('search page', list(0, pattern));
    await explain('search count', countSearch(pattern));
  }

  const repo = new WallRepository(db);
  await time('before: join-then-page query, first page', () => db.execute(list(0)));
  await time('before: join-then-page query, offset 5000', () => db.execute(list(5000)));
  await time('before: count(*) over the wall', () => db.execute(countAll));
  await time('before: search page (join + OR of ILIKEs)', () => db.execute(list(0, pattern)));
  await time('before: search count', () => db.execute(countSearch(pattern)));
  await time('before: caller lookup (users by id)', () =>
    db.execute(sql`select * from users where id = ${caller}`),
  );
  await time('repo.listPublic (first page, caller)', () =>
    repo.listPublic({ id: caller, pool: 'regular' }, { limit: 10, offset: 0 }),
  );
  await time('repo.listPublic (offset 5000, caller)', () =>
    repo.listPublic({ id: caller, pool: 'regular' }, { limit: 10, offset: 5000 }),
  );
  await time('repo.listPublic (search "caption 12", caller)', () =>
    repo.listPublic(
      { id: caller, pool: 'regular' },
      { limit: 10, offset: 0, search: 'caption 12' },
    ),
  );
  await time('repo.listPublic (search "visitor 12", caller)', () =>
    repo.listPublic(
      { id: caller, pool: 'regular' },
      { limit: 10, offset: 0, search: 'visitor 12' },
    ),
  );
  const storage = new LocalStorage({
    root: config.storage.localDir,
    signingKey: deriveKey(config.authSecret, 'storage'),
    publicUrl: '',
    now: () => new Date(),
  });
  await time('presign 20 URLs', async () => {
    for (let i = 0; i < 20; i += 1) await storage.presignDownload(`media/${i}.jpg`, 3600);
  });
  const tokens = new AccessTokens(config.authSecret, 3600, () => new Date());
  const token = await tokens.sign({ userId: caller, pool: 'regular' });
  await time('verify access token', () => tokens.verify(token, 'regular'));
  const url = `${base}/api/regular/media/public`;
  const body = (await (
    await fetch(url, { headers: { authorization: `Bearer ${token}` } })
  ).json()) as unknown;
  const text = JSON.stringify(body);
  console.log(`body ${text.length} bytes`);
  await time('zod parse of the page (serializer)', () => WallPageSchema.parse(body));
  await time('JSON.stringify of the page', () => JSON.stringify(body));
  const { brotliCompressSync, constants } = await import('node:zlib');
  await time('brotli q4 of the body (@fastify/compress)', () =>
    brotliCompressSync(text, { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } }),
  );
  const get =
    (headers: Record<string, string>, path = '') =>
    async () => {
      const res = await fetch(url + path, { headers });
      await res.arrayBuffer();
    };
  const auth = { authorization: `Bearer ${token}` };
  await time('HTTP first page, session (fetch default encodings)', get(auth));
  await time('HTTP first page, session, identity', get({ ...auth, 'accept-encoding': 'identity' }));
  await time('HTTP first page, anonymous, identity', get({ 'accept-encoding': 'identity' }));
  await time(
    'HTTP offset 5000, identity',
    get({ ...auth, 'accept-encoding': 'identity' }, '?offset=5000'),
  );
  await time(
    'HTTP search, identity',
    get({ ...auth, 'accept-encoding': 'identity' }, '?search=caption%2012'),
  );
  await time('HTTP /api/health (baseline)', async () => {
    const res = await fetch(`${base}/api/health`);
    await res.arrayBuffer();
  });
  await app.close();
  if (process.env.PROFILE_KEEP) {
    const [row] = rowsOf<{ name: string }>(await db.execute(sql`select current_database() name`));
    console.log(`kept database ${row?.name} (drop it yourself)`);
    process.exit(0);
  }
} finally {
  await database.close();
}
