import type { Guest, OrganizationUser, SentInvitation } from '@flashbooth/contracts';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { GuestCard } from './guest-card';
import { InvitationCard } from './invitation-card';
import { OrganizationCard } from './organization-card';
import { SentInvitationCard } from './sent-invitation-card';
import { UserCard } from './user-card';

const text = (html: string) =>
  html
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
const noop = () => undefined;

describe('OrganizationCard', () => {
  const organization = {
    id: 12,
    name: 'Demo Org',
    email: null,
    phone: null,
    address: null,
    created_at: '2025-05-14T09:05:59',
    logo_s3_url: null,
  };

  it('shows "No logo" and the name, and opens the detail', () => {
    const html = renderToStaticMarkup(
      <MemoryRouter>
        <OrganizationCard organization={organization} />
      </MemoryRouter>,
    );
    expect(html).toContain('href="/enterprise/organizations/12"');
    expect(text(html)).toContain('No logo Demo Org');
  });

  it('shows the logo when there is one', () => {
    const html = renderToStaticMarkup(
      <MemoryRouter>
        <OrganizationCard organization={{ ...organization, logo_s3_url: '/files/logo.png' }} />
      </MemoryRouter>,
    );
    expect(html).toContain('src="/files/logo.png"');
    expect(html).toContain('alt="Demo Org logo"');
    expect(html).not.toContain('No logo');
  });
});

describe('InvitationCard', () => {
  it('shows organization, inviter, role and time (dd/mm/yyyy hh:mm UTC) with Accept and Deny', () => {
    const html = renderToStaticMarkup(
      <InvitationCard
        invitation={{
          id: 3,
          org_id: 12,
          org_name: 'Demo Org',
          invited_by_name: 'Asha',
          role: 'admin',
          invited_at: '2025-05-14T21:05:09',
          expires_at: '2025-05-28T21:05:09',
        }}
        busy={false}
        onAccept={noop}
        onDeny={noop}
      />,
    );
    expect(text(html)).toBe(
      'Demo Org Invited by Asha Role Admin Invited at 14/05/2025 21:05 Expires 28/05/2025 21:05 Accept Deny',
    );
  });
});

describe('UserCard', () => {
  const user: OrganizationUser = {
    id: 4,
    name: 'Ravi',
    role: 'member',
    phone: '+919876543210',
    joined_at: '2025-06-01T08:00:00',
  };

  it('shows name, role, phone and joined time; Edit and Remove only for privileged staff', () => {
    const plain = renderToStaticMarkup(
      <UserCard
        user={user}
        canManage={false}
        isSelf={false}
        busy={false}
        onEdit={noop}
        onRemove={noop}
      />,
    );
    expect(text(plain)).toBe('Ravi Member Phone +919876543210 Joined 01/06/2025 08:00');
    const managed = renderToStaticMarkup(
      <UserCard user={user} canManage isSelf busy={false} onEdit={noop} onRemove={noop} />,
    );
    expect(text(managed)).toContain('Ravi (you)');
    expect(text(managed)).toMatch(/Edit Remove$/);
  });
});

describe('SentInvitationCard', () => {
  const invitation: SentInvitation = {
    PK: 'invite-9',
    id: 9,
    name: 'Demo Org',
    invitee_name: null,
    invitee_phone: '+919876543210',
    role: 'admin',
    invited_at: '2025-06-01T08:00:00',
    invited_by_name: 'Asha',
    expires_at: '2025-06-15T08:00:00',
  };

  it('shows "Unknown" until the invitee signs up, and Cancel Invite only for privileged staff', () => {
    const html = renderToStaticMarkup(
      <SentInvitationCard invitation={invitation} canCancel busy={false} onCancel={noop} />,
    );
    expect(text(html)).toBe(
      'Demo Org Unknown Pending Phone +919876543210 Role Admin Invited at 01/06/2025 08:00 Invited by Asha Expires 15/06/2025 08:00 Cancel Invite',
    );
    expect(
      text(
        renderToStaticMarkup(
          <SentInvitationCard
            invitation={{ ...invitation, invitee_name: 'Meera' }}
            canCancel={false}
            busy={false}
            onCancel={noop}
          />,
        ),
      ),
    ).not.toMatch(/Unknown|Cancel Invite/);
  });
});

describe('GuestCard', () => {
  it('falls back to N/A for each missing field', () => {
    const guest: Guest = { id: 1, name: 'Kiran', email: null, phone: null, last_visit: null };
    expect(text(renderToStaticMarkup(<GuestCard guest={guest} />))).toBe(
      'Kiran Email N/A Phone N/A Last Visit N/A',
    );
  });

  it('shows the last visit as dd/mm/yyyy hh:mm', () => {
    const guest: Guest = {
      id: 1,
      name: 'Kiran',
      email: 'k@example.com',
      phone: '+919000000123',
      last_visit: '2025-12-31T23:59:00',
    };
    expect(text(renderToStaticMarkup(<GuestCard guest={guest} />))).toBe(
      'Kiran Email k@example.com Phone +919000000123 Last Visit 31/12/2025 23:59',
    );
  });
});
