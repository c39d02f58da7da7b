import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { Database } from '../db/client.js';
import { organizationMembers, organizations } from '../db/schema.js';
import { createStorage } from '../modules/storage/create-storage.js';
import type { ObjectStorage } from '../modules/storage/storage.js';
import type { UsersRepository } from '../modules/users/users.repository.js';
import { DEMO_BOOTHS, ensureDemoBooth } from './demo-booth.js';
import { ensureDemoTemplates } from './demo-templates.js';

/** The demo staff administrator's phone, printed at start so a newcomer can sign in at once. */
export const DEMO_ADMIN_PHONE = '+919000000001';
export const DEMO_ORGANIZATION_NAME = 'Flashbooth Demo Café';

interface SeedContext {
  db: Database;
  users: UsersRepository;
  config: Config;
  log: FastifyBaseLogger;
  /** Where the demo templates' pictures go; absent = the configured store, opened for the seed. */
  storage?: ObjectStorage;
  /** The app's clock (the date printed on the demo templates). */
  now?: () => Date;
}

/** Idempotent: safe on every start and with several instances starting together. */
export async function seed({
  db,
  users,
  config,
  log,
  storage,
  now = () => new Date(),
}: SeedContext): Promise<void> {
  for (const phone of config.superUserPhones) {
    await users.ensureSuperUser(phone, 'Administrator');
  }
  if (config.superUserPhones.length > 0) {
    log.info(
      { count: config.superUserPhones.length },
      'super users from SUPER_USER_PHONES ensured',
    );
  }
  if (!config.demoData) return;

  const admin = await users.ensureSuperUser(DEMO_ADMIN_PHONE, 'Demo Administrator');
  const orgId = await db.transaction(async (tx) => {
    const [existing] = await tx
      .select({ id: organizations.id })
      .from(organizations)
      .where(eq(organizations.name, DEMO_ORGANIZATION_NAME));
    const orgId =
      existing?.id ??
      (
        await tx
          .insert(organizations)
          .values({
            name: DEMO_ORGANIZATION_NAME,
            email: 'hello@democafe.example',
            phone: '+918040000000',
            address: '12 Church Street, Bengaluru, Karnataka 560001, India',
          })
          .returning({ id: organizations.id })
      )[0]!.id;
    await tx
      .insert(organizationMembers)
      .values({ orgId, userId: admin.id, role: 'admin' })
      .onConflictDoNothing();
    return orgId;
  });
  // Rendered only on the first start (about 3 s); later starts find them by name.
  const store = storage ?? (await createStorage(config, now));
  try {
    await ensureDemoTemplates({
      db,
      storage: store,
      orgId,
      venue: DEMO_ORGANIZATION_NAME,
      now,
      log,
    });
  } finally {
    if (!storage) await store.close();
  }
  // The simulated booths server.ts starts (startDemoBooths) log in as these devices; the free
  // one first, so it is device 1 on a fresh data folder.
  for (const booth of DEMO_BOOTHS) {
    await ensureDemoBooth({ db, dataDir: config.dataDir, orgId, log, booth });
  }
  log.info(
    { phone: DEMO_ADMIN_PHONE, outbox: '/api/dev/sms?phone=%2B919000000001' },
    `demo data ready: sign in at /enterprise/login as ${DEMO_ADMIN_PHONE} (country code +91, number 9000000001); read the code from the dev SMS outbox`,
  );
}
