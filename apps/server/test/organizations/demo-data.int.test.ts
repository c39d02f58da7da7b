import type { OrganizationInvitationList, User } from '@flashbooth/contracts';
import { describe, expect, it } from 'vitest';
import {
  DEMO_INVITEE_PHONE,
  DEMO_ORG_ADMIN_PHONE,
  DEMO_ORGANIZATION_NAME,
} from '../../src/seed/seed.js';
import { databaseTargets } from '../databases.js';
import { bearer, signedIn, startApp } from '../harness.js';

describe.each(databaseTargets)('demo organization people on $name', ({ open }) => {
  it('seeds an org admin and a pending invitation once, and leaves an answered one answered', async () => {
    const database = await open();
    try {
      const first = await startApp(database, { DEMO_DATA: 'true', OTP_SEND_LIMIT_PER_IP: '100' });
      const manager = await signedIn(first.app, 'enterprise', DEMO_ORG_ADMIN_PHONE);
      const self = (
        await first.app.inject({
          url: '/api/enterprise/users/self',
          headers: bearer(manager.token),
        })
      ).json<User>();
      expect(self).toMatchObject({
        name: 'Demo Venue Manager',
        is_super_user: false,
        is_flashbooth_admin: false,
        organizations: [{ role: 'admin' }],
      });
      const orgId = self.organizations![0]!.org_id;
      await first.app.close();

      // A second start adds nothing; the invitee signs up and finds one invitation.
      const again = await startApp(database, { DEMO_DATA: 'true', OTP_SEND_LIMIT_PER_IP: '100' });
      const invitee = await signedIn(again.app, 'enterprise', DEMO_INVITEE_PHONE, 'New Hire');
      const invites = (
        await again.app.inject({
          url: '/api/enterprise/users/self/invites',
          headers: bearer(invitee.token),
        })
      ).json<OrganizationInvitationList>();
      expect(invites.items).toEqual([
        expect.objectContaining({
          org_id: orgId,
          org_name: DEMO_ORGANIZATION_NAME,
          role: 'member',
          invited_by_name: 'Demo Administrator',
        }),
      ]);
      const denied = await again.app.inject({
        method: 'POST',
        url: `/api/enterprise/organizations/${orgId}/invites/deny`,
        headers: bearer(invitee.token),
      });
      expect(denied.statusCode, denied.body).toBe(200);
      await again.app.close();

      const third = await startApp(database, { DEMO_DATA: 'true', OTP_SEND_LIMIT_PER_IP: '100' });
      const after = await third.app.inject({
        url: '/api/enterprise/users/self/invites',
        headers: bearer(invitee.token),
      });
      expect(after.json()).toEqual({ items: [] });
      await third.app.close();
    } finally {
      await database.close();
    }
  }, 120_000);
});
