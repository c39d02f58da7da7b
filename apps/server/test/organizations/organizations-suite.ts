import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import type { DatabaseHandle } from '../../src/db/client.js';
import {
  organizationInvitations,
  organizationMembers,
  organizations,
} from '../../src/db/schema.js';
import type { SmsMessage, SmsSender } from '../../src/modules/sms/sms.sender.js';
import { OutboxSmsSender } from '../../src/modules/sms/sms.sender.js';
import { createStorage } from '../../src/modules/storage/create-storage.js';
import type { ObjectStorage } from '../../src/modules/storage/storage.js';
import type { DatabaseTarget } from '../databases.js';
import {
  apiCall,
  newPhone,
  signedIn,
  signedInProductAdmin,
  startApp,
  type TestClock,
} from '../harness.js';
import { ScriptedLink } from '../media-fixtures.js';

export { expectError, JPEG, PNG } from '../templates/templates-suite.js';

export interface Person {
  token: string;
  userId: number;
  phone: string;
}

/**
 * The SMS sender the app uses in these tests: the development outbox, which a test can make
 * fail (`failing`) to show that an invitation never depends on its SMS.
 */
export class SwitchableSms implements SmsSender {
  readonly kind = 'outbox' as const;
  failing = false;
  private outbox!: OutboxSmsSender;
  attach(database: DatabaseHandle) {
    this.outbox = new OutboxSmsSender(database.db);
  }
  async send(message: SmsMessage): Promise<void> {
    if (this.failing && message.code === undefined) throw new Error('SMS provider is down');
    await this.outbox.send(message);
  }
}

/**
 * One test file's app, on a scripted booth line and the development SMS outbox: a super user, a
 * product admin, organization A (Sunrise Mall) with an admin and a member, organization B
 * (Harbour Café) with its own admin (the outsider), a staff account with no organization, and a
 * visitor. Started before the file's tests, stopped after them.
 */
export function useOrganizationsSuite(
  open: DatabaseTarget['open'],
  env: Record<string, string> = {},
): OrganizationsSuite {
  const suite = new OrganizationsSuite();
  beforeAll(() => suite.start(open, env), 60_000);
  afterAll(() => suite.stop());
  return suite;
}

export class OrganizationsSuite {
  readonly superPhone = newPhone();
  readonly link = new ScriptedLink();
  readonly sms = new SwitchableSms();
  database!: DatabaseHandle;
  app!: FastifyInstance;
  clock!: TestClock;
  /** The same local store (folder, secret, clock) the app uses, to look at objects directly. */
  storage!: ObjectStorage;

  superUser!: Person;
  productAdmin!: Person;
  orgAdmin!: Person;
  member!: Person;
  outsider!: Person;
  /** A staff account that belongs to no organization. */
  loner!: Person;
  visitor!: Person;
  orgA!: number;
  orgB!: number;

  async start(open: DatabaseTarget['open'], env: Record<string, string>) {
    this.database = await open();
    this.sms.attach(this.database);
    const started = await startApp(
      this.database,
      {
        OTP_SEND_LIMIT_PER_IP: '1000',
        DEVICE_COMMAND_TIMEOUT_MS: '200',
        SUPER_USER_PHONES: this.superPhone,
        ...env,
      },
      { deviceLink: this.link, sms: this.sms },
    );
    this.app = started.app;
    this.clock = started.clock;
    this.storage = await createStorage(started.config, started.clock.now);
    this.superUser = await signedIn(this.app, 'enterprise', this.superPhone, 'Super User');
    this.productAdmin = await signedInProductAdmin(this.app, this.database);
    this.orgA = await this.organization('Sunrise Mall');
    this.orgB = await this.organization('Harbour Café');
    this.orgAdmin = await this.staff('Asha Admin', this.orgA, 'admin');
    this.member = await this.staff('Meera Member', this.orgA, 'member');
    this.outsider = await this.staff('Omar Outsider', this.orgB, 'admin');
    this.loner = await this.staff('Lata Loner');
    this.visitor = await signedIn(this.app, 'regular', newPhone(), 'Vikram Visitor');
  }

  async stop() {
    await this.app.close();
    await this.storage.close();
    await this.database.close();
  }

  /** A new staff account (with `role` in `orgId` when given), signed in. */
  async staff(name: string, orgId?: number, role?: 'admin' | 'member'): Promise<Person> {
    const person = await signedIn(this.app, 'enterprise', newPhone(), name);
    if (orgId !== undefined) await this.addMember(orgId, person.userId, role ?? 'member');
    return person;
  }

  async organization(name: string, values: { logoKey?: string } = {}): Promise<number> {
    const [row] = await this.database.db
      .insert(organizations)
      .values({ name, ...values })
      .returning({ id: organizations.id });
    return row!.id;
  }

  async addMember(orgId: number, userId: number, role: 'admin' | 'member') {
    await this.database.db.insert(organizationMembers).values({ orgId, userId, role });
  }

  /** A pending invitation straight in the database (no SMS). */
  async pendingInvitation(orgId: number, phone: string, role: 'admin' | 'member' = 'member') {
    const [row] = await this.database.db
      .insert(organizationInvitations)
      .values({ orgId, inviteePhone: phone, role, invitedBy: this.superUser.userId })
      .returning({ id: organizationInvitations.id });
    return row!.id;
  }

  call = (
    method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE',
    url: string,
    token: string | undefined,
    payload?: object,
  ) => apiCall(this.app, method, url, token, payload);

  /** The development outbox's messages to `phone`, newest first. */
  async smsTo(phone: string): Promise<{ text: string; code: string | null }[]> {
    const response = await this.app.inject({
      method: 'GET',
      url: '/api/dev/sms',
      query: { phone },
    });
    return response.json<{ items: { text: string; code: string | null }[] }>().items;
  }
}
