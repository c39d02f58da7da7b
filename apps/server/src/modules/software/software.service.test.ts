import { SOFTWARE_MESSAGES } from '@flashbooth/contracts';
import { describe, expect, it } from 'vitest';
import {
  FakeCleanup,
  FakeStorage,
  memoryLog,
  ORG,
  outcomeOf,
  people,
  type Role,
  STAFF_ROLES,
} from '../../../test/unit-fakes.js';
import type { AccessClaims } from '../../security/access-tokens.js';
import type { DevicesRepository, DeviceWithOrg } from '../devices/devices.repository.js';
import type { DeviceLink } from '../mqtt/device-link.js';
import type { SoftwareRepository } from './software.repository.js';
import { SoftwareService } from './software.service.js';

/** Thrown by the fake repository: the call got past the permission rule to the data. */
class ReachedData extends Error {}

/** A software repository that records and refuses every call: the tests look at the rule only. */
function recordingRepository() {
  const calls: string[] = [];
  const repository = new Proxy(
    {},
    {
      get: (_target, name) => () => {
        calls.push(String(name));
        return Promise.reject(new ReachedData(String(name)));
      },
    },
  ) as SoftwareRepository;
  return { calls, repository };
}

/** A device of ORG that follows no software channel. */
const device = { id: 7, orgId: ORG, softwareChannelId: null, thingName: 'fb-7' } as DeviceWithOrg;

function setUp() {
  const everyone = people();
  const { calls, repository } = recordingRepository();
  const sent: string[] = [];
  const service = new SoftwareService({
    software: repository,
    users: everyone.users,
    storage: new FakeStorage(),
    cleanup: new FakeCleanup(new FakeStorage()),
    devices: {
      findById: async (id: number) => (id === device.id ? device : undefined),
      update: async () => device,
    } as unknown as Pick<DevicesRepository, 'findById' | 'update'>,
    deviceDto: () => {
      throw new Error('not reached in these tests');
    },
    link: {
      request: async (thing: string) => {
        sent.push(thing);
        return { id: 'x', status: 'updated' };
      },
    } as unknown as DeviceLink,
    updateTimeoutMs: 1000,
    now: () => new Date('2025-09-30T10:00:00Z'),
    log: memoryLog(),
  });
  return { ...everyone, calls, sent, service };
}

/** Every software call of the staff console. */
const calls: Record<string, (service: SoftwareService, caller: AccessClaims) => Promise<unknown>> =
  {
    'create a channel': (s, c) => s.createChannel(c, { name: 'Stable', description: undefined }),
    'list channels': (s, c) => s.listChannels(c, { limit: 9, offset: 0 }),
    'read a channel': (s, c) => s.getChannel(c, 1),
    'change a channel': (s, c) =>
      s.patchChannel(c, 1, { name: 'Beta', description: undefined, release_id: undefined }),
    'delete a channel': (s, c) => s.removeChannel(c, 1),
    'create a release': (s, c) =>
      s.createRelease(c, { version: '1.2.3', release_notes: undefined }),
    'list releases': (s, c) => s.listReleases(c, { limit: 9, offset: 0 }),
    'read a release': (s, c) => s.getRelease(c, 1),
    'change a release': (s, c) =>
      s.patchRelease(c, 1, { version: undefined, release_notes: 'Faster' }),
    'delete a release': (s, c) => s.removeRelease(c, 1),
    'presign a release file upload': (s, c) =>
      s.presignUpload(c, 1, { filename: 'a.bin', contentType: 'application/octet-stream' }),
    'confirm a release file': (s, c) => s.confirmUpload(c, 1, 'software/releases/1/x.bin'),
  };

describe('software permissions (staff spec section 6: super users and product admins only)', () => {
  const roles: Role[] = [...STAFF_ROLES, 'visitor'];
  const cases = Object.keys(calls).flatMap((call) => roles.map((role) => ({ role, call })));

  it.each(cases)('a $role may $call only when privileged', async ({ role, call }) => {
    const { service, claims, calls: reached } = setUp();
    const privileged = role === 'super user' || role === 'product admin';
    const attempt = calls[call]!(service, claims[role]);
    if (privileged) {
      await expect(attempt).rejects.toBeInstanceOf(ReachedData);
      expect(reached.length).toBeGreaterThan(0);
    } else {
      await expect(attempt).rejects.toMatchObject({
        code: 'forbidden',
        message: SOFTWARE_MESSAGES.onlyAdmins,
      });
      // Refused before any data is read or written.
      expect(reached).toEqual([]);
    }
  });

  it.each([
    ['super user', 'conflict'],
    ['product admin', 'conflict'],
    ['org admin', 'forbidden'],
    ['member', 'forbidden'],
    ['outsider', 'not_found'],
    ['visitor', 'not_found'],
  ] as const)(
    "a %s updating a booth's software: %s (members 403, others 404, like the device calls)",
    async (role, expected) => {
      const { service, claims, sent } = setUp();
      // Privileged staff get past the rule to the channel check: this booth follows none.
      expect(await outcomeOf(() => service.updateDevice(claims[role], device.id))).toBe(expected);
      expect(sent).toEqual([]);
    },
  );

  it('answers 404 for an unknown booth whoever asks', async () => {
    const { service, claims } = setUp();
    for (const role of STAFF_ROLES) {
      expect(await outcomeOf(() => service.updateDevice(claims[role], 999))).toBe('not_found');
    }
  });
});
