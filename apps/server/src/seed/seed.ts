import { and, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { Database } from '../db/client.js';
import { organizationInvitations, organizationMembers, organizations } from '../db/schema.js';
import { createStorage } from '../modules/storage/create-storage.js';
import type { ObjectStorage } from '../modules/storage/storage.js';
import type { UsersRepository } from '../modules/users/users.repository.js';
import { DEMO_BOOTHS, ensureDemoBooth } from './demo-booth.js';
import { ensureDemoTemplates } from './demo-templates.js';

/** The demo staff administrator's phone, printed at start so a newcomer can sign in at once. */
export const DEMO_ADMIN_PHONE = '+919000000001';
export const DEMO_ORGANIZATION_NAME = 'Flashbooth Demo Café';
/** The demo organization's second staff member, its admin (no super user flags). */
export const DEMO_ORG_ADMIN_PHONE = '+919000000002';
/** A phone with a pending invitation to the demo organization (no account until it signs up). */
export const DEMO_INVITEE_PHONE = '+919000000003';

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
    // A second staff member, the venue's own admin, so every role can be tried at once.
    const staffUsers = users.with(tx);
    const manager =
      (await staffUsers.create({
        pool: 'enterprise',
        phone: DEMO_ORG_ADMIN_PHONE,
        name: 'Demo Venue Manager',
      })) ?? (await staffUsers.findByPhone('enterprise', DEMO_ORG_ADMIN_PHONE))!;
    await tx
      .insert(organizationMembers)
      .values({ orgId, userId: manager.id, role: 'admin' })
      .onConflictDoNothing();
    // A pending invitation, made once: answered or cancelled, it stays so on later starts.
    const [invited] = await tx
      .select({ id: organizationInvitations.id })
      .from(organizationInvitations)
      .where(
        and(
          eq(organizationInvitations.orgId, orgId),
          eq(organizationInvitations.inviteePhone, DEMO_INVITEE_PHONE),
        ),
      );
    if (!invited) {
      await tx.insert(organizationInvitations).values({
        orgId,
        inviteePhone: DEMO_INVITEE_PHONE,
        role: 'member',
        invitedBy: admin.id,
      });
    }
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
    {
      phone: DEMO_ADMIN_PHONE,
      orgAdminPhone: DEMO_ORG_ADMIN_PHONE,
      inviteePhone: DEMO_INVITEE_PHONE,
      outbox: '/api/dev/sms?phone=%2B919000000001',
    },
    `demo data ready: sign in at /enterprise/login as ${DEMO_ADMIN_PHONE} (country code +91, number 9000000001; super user); read the code from the dev SMS outbox. Also: ${DEMO_ORG_ADMIN_PHONE}, the demo organization's admin, and ${DEMO_INVITEE_PHONE}, invited to it (sign up to accept)`,
  );
}
