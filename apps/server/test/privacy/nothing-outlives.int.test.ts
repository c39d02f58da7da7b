import {
  ORGANIZATION_MESSAGES,
  type OrganizationInvitationList,
  type OrganizationUserList,
  type SentInvitation,
} from '@flashbooth/contracts';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { objectCleanup, organizationInvitations } from '../../src/db/schema.js';
import { databaseTargets } from '../databases.js';
import { newPhone, signedIn } from '../harness.js';
import { JPEG, PNG, useOrganizationsSuite } from '../organizations/organizations-suite.js';
import { foregroundPng } from '../templates/templates-suite.js';

const DAY = 24 * 3600;

describe.each(databaseTargets)('nothing outlives its use on $name', ({ open }) => {
  const s = useOrganizationsSuite(open);

  const put = (url: string, body: Buffer, contentType: string) =>
    s.app.inject({ method: 'PUT', url, payload: body, headers: { 'content-type': contentType } });
  const exists = async (key: string) => (await s.storage.head(key)) !== null;
  const cleanupRun = () => s.app.jobs.runNow('object-cleanup');

  it('expires an invitation after INVITE_TTL_DAYS, says so, and lets the phone be invited again', async () => {
    const orgId = await s.organization('Lakeside Club');
    const phone = newPhone();
    const sent = await s.call('POST', `organizations/${orgId}/invites`, s.superUser.token, {
      invitee_phone: phone,
      role: 'member',
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const invitation = sent.json<SentInvitation>();
    // Shown with its expiry: 14 days after it was sent.
    expect(Date.parse(`${invitation.expires_at}Z`) - Date.parse(`${invitation.invited_at}Z`)).toBe(
      14 * DAY * 1000,
    );
    const invitee = await signedIn(s.app, 'enterprise', phone, 'Ila Invitee');
    const mine = await s.call('GET', 'users/self/invites', invitee.token);
    expect(mine.json<OrganizationInvitationList>().items).toEqual([
      expect.objectContaining({ id: invitation.id, expires_at: invitation.expires_at }),
    ]);

    s.clock.advance(14 * DAY + 1);
    const late = await signedIn(s.app, 'enterprise', phone); // the old session expired meanwhile
    const accept = await s.call('POST', `organizations/${orgId}/invites/accept`, late.token, {
      invite_id: invitation.id,
    });
    expect(accept.statusCode).toBe(409);
    const when = invitation.expires_at.slice(0, 16).replace('T', ' ');
    const [date, time] = when.split(' ') as [string, string];
    const [year, month, day] = date.split('-');
    expect(accept.json()).toMatchObject({
      message: ORGANIZATION_MESSAGES.inviteExpired(
        'Lakeside Club',
        `${day}/${month}/${year} ${time}`,
      ),
    });
    const [row] = await s.database.db
      .select()
      .from(organizationInvitations)
      .where(eq(organizationInvitations.id, invitation.id));
    expect(row).toMatchObject({ status: 'expired', respondedAt: expect.any(Date) });
    // Gone from both lists, and no longer in the way of a new invitation.
    expect((await s.call('GET', 'users/self/invites', late.token)).json()).toEqual({ items: [] });
    const admin = await signedIn(s.app, 'enterprise', s.superPhone);
    const users = await s.call('GET', `organizations/${orgId}/users`, admin.token);
    expect(users.json<OrganizationUserList>().invites).toEqual([]);
    const again = await s.call('POST', `organizations/${orgId}/invites`, admin.token, {
      invitee_phone: phone,
      role: 'admin',
    });
    expect(again.statusCode, again.body).toBe(201);
    const accepted = await s.call('POST', `organizations/${orgId}/invites/accept`, late.token, {});
    expect(accepted.statusCode, accepted.body).toBe(200);
  });

  it('marks every stale invitation expired in the invitation-expiry job (a dry run only lists them)', async () => {
    const orgId = await s.organization('Harbour Hall');
    const [stale] = await s.database.db
      .insert(organizationInvitations)
      .values({
        orgId,
        inviteePhone: newPhone(),
        role: 'member',
        createdAt: new Date(s.clock.now().getTime() - (14 * DAY + 60) * 1000),
      })
      .returning();
    const dry = await s.app.jobs.runNow('invitation-expiry', { dryRun: true });
    expect(dry.plan).toContain(`invitation ${stale!.id}: unanswered too long; would expire`);
    const [still] = await s.database.db
      .select()
      .from(organizationInvitations)
      .where(eq(organizationInvitations.id, stale!.id));
    expect(still!.status).toBe('pending');
    expect((await s.app.jobs.runNow('invitation-expiry')).counts.expired).toBeGreaterThanOrEqual(1);
    const [after] = await s.database.db
      .select()
      .from(organizationInvitations)
      .where(eq(organizationInvitations.id, stale!.id));
    expect(after!.status).toBe('expired');
  });

  it('removes uploads never confirmed a day after they were handed out and keeps confirmed ones', async () => {
    const orgId = await s.organization('Upload Arcade');
    const admin = await signedIn(s.app, 'enterprise', s.superPhone);
    const presign = async () => {
      const response = await s.call(
        'POST',
        `organizations/${orgId}/logo/presigned_upload`,
        admin.token,
        { contentType: 'image/png' },
      );
      expect(response.statusCode, response.body).toBe(200);
      return response.json<{ logo_key: string; upload_url: string }>();
    };
    const confirmed = await presign();
    expect((await put(confirmed.upload_url, PNG, 'image/png')).statusCode).toBe(204);
    const confirm = await s.call('POST', `organizations/${orgId}/logo/confirm`, admin.token, {
      logo_key: confirmed.logo_key,
    });
    expect(confirm.statusCode, confirm.body).toBe(200);
    const abandoned = await presign();
    expect((await put(abandoned.upload_url, PNG, 'image/png')).statusCode).toBe(204);

    // Before the day is out, nothing is deleted.
    s.clock.advance(DAY - 60);
    await cleanupRun();
    expect(await exists(abandoned.logo_key)).toBe(true);
    s.clock.advance(120);
    const dry = await s.app.jobs.runNow('object-cleanup', { dryRun: true });
    expect(dry.plan).toContain(`delete object ${abandoned.logo_key} (unconfirmed_upload)`);
    expect(dry.plan).not.toContain(`delete object ${confirmed.logo_key} (unconfirmed_upload)`);
    await cleanupRun();
    expect(await exists(abandoned.logo_key)).toBe(false);
    expect(await exists(confirmed.logo_key)).toBe(true);
    expect(
      await s.database.db
        .select()
        .from(objectCleanup)
        .where(eq(objectCleanup.objectKey, abandoned.logo_key)),
    ).toEqual([]);
  });

  it('deleting an organization, a template or a release leaves no objects behind', async () => {
    const admin = await signedIn(s.app, 'enterprise', s.superPhone);
    const call = (method: 'POST' | 'DELETE', url: string, body?: object) =>
      s.call(method, url, admin.token, body);

    // An organization with a logo and a logo upload never confirmed.
    const orgId = await s.organization('Short-lived Venue');
    const logo = (
      await call('POST', `organizations/${orgId}/logo/presigned_upload`, {
        contentType: 'image/jpeg',
      })
    ).json<{ logo_key: string; upload_url: string }>();
    await put(logo.upload_url, JPEG, 'image/jpeg');
    await call('POST', `organizations/${orgId}/logo/confirm`, { logo_key: logo.logo_key });
    const stray = (
      await call('POST', `organizations/${orgId}/logo/presigned_upload`, {
        contentType: 'image/png',
      })
    ).json<{ logo_key: string; upload_url: string }>();
    await put(stray.upload_url, PNG, 'image/png');
    expect((await call('DELETE', `organizations/${orgId}`)).statusCode).toBe(204);
    expect(await exists(logo.logo_key)).toBe(false);
    expect(await exists(stray.logo_key)).toBe(false);

    // A template with a sample and a foreground.
    const template = await call('POST', 'templates', {
      name: 'Gone Soon',
      orientation: 'portrait',
    });
    expect(template.statusCode, template.body).toBe(201);
    const templateId = template.json<{ id: number }>().id;
    const keys: string[] = [];
    for (const kind of ['sample', 'foreground'] as const) {
      const presigned = (
        await call('POST', `templates/${templateId}/${kind}/presigned_upload`, {
          contentType: 'image/png',
        })
      ).json<Record<string, string>>();
      const key = presigned[`${kind}_key`]!;
      // A foreground follows the foreground rule: the canvas size (the template has no slots).
      const body = kind === 'foreground' ? await foregroundPng(2400, 3600) : PNG;
      await put(presigned.upload_url!, body, 'image/png');
      const confirmed = await call('POST', `templates/${templateId}/${kind}/confirm`, {
        [`${kind}_key`]: key,
      });
      expect(confirmed.statusCode, confirmed.body).toBe(200);
      keys.push(key);
    }
    expect((await call('DELETE', `templates/${templateId}`)).statusCode).toBe(204);
    for (const key of keys) expect(await exists(key), key).toBe(false);

    // A release with its file.
    const release = await call('POST', 'software/releases', { version: `9.${Date.now()}.0` });
    expect(release.statusCode, release.body).toBe(201);
    const releaseId = release.json<{ id: number }>().id;
    const file = (
      await call('POST', `software/releases/${releaseId}/file/presigned_upload`, {
        contentType: 'application/gzip',
      })
    ).json<{ upload_url: string; s3_key: string }>();
    expect(
      (await put(file.upload_url, Buffer.from('release bytes'), 'application/gzip')).statusCode,
    ).toBe(204);
    const confirmedFile = await call('POST', `software/releases/${releaseId}/file/confirm`, {
      s3_key: file.s3_key,
    });
    expect(confirmedFile.statusCode, confirmedFile.body).toBe(200);
    expect((await call('DELETE', `software/releases/${releaseId}`)).statusCode).toBe(204);
    expect(await exists(file.s3_key)).toBe(false);

    // Nothing is left waiting in the cleanup queue for any of them.
    const queued = (await s.database.db.select().from(objectCleanup)).map((row) => row.objectKey);
    for (const key of [logo.logo_key, stray.logo_key, ...keys, file.s3_key]) {
      expect(queued).not.toContain(key);
    }
  });
});
