import { randomUUID } from 'node:crypto';
import { LOGO_MAX_BYTES, ORGANIZATION_MESSAGES, type Organization } from '@flashbooth/contracts';
import { describe, expect, it } from 'vitest';
import { databaseTargets } from '../databases.js';
import { expectError, JPEG, PNG, useOrganizationsSuite } from './organizations-suite.js';

const M = ORGANIZATION_MESSAGES;

describe.each(databaseTargets)('organization logo upload on $name', ({ open }) => {
  const s = useOrganizationsSuite(open);

  const presign = (orgId: number, contentType: unknown, token = s.orgAdmin.token) =>
    s.call('POST', `organizations/${orgId}/logo/presigned_upload`, token, {
      filename: '../../Our Logo.png',
      contentType,
    });
  const put = (url: string, body: Buffer, contentType: string) =>
    s.app.inject({ method: 'PUT', url, payload: body, headers: { 'content-type': contentType } });
  const confirm = (orgId: number, key: string, token = s.orgAdmin.token) =>
    s.call('POST', `organizations/${orgId}/logo/confirm`, token, { logo_key: key });

  async function organizationWithAdmin(name: string) {
    const orgId = await s.organization(name);
    await s.addMember(orgId, s.orgAdmin.userId, 'admin');
    await s.addMember(orgId, s.member.userId, 'member');
    return orgId;
  }

  it('refuses what is not an image, or not a JPEG or PNG', async () => {
    const orgId = await organizationWithAdmin('Picky');
    expectError(await presign(orgId, 'text/plain'), 400, M.logoType);
    expectError(await presign(orgId, 'application/pdf'), 400, M.logoType);
    expectError(await presign(orgId, undefined), 400, M.logoType);
    expectError(await presign(orgId, 'image/gif'), 400, M.logoFormat);
    expectError(await presign(orgId, 'image/svg+xml'), 400, M.logoFormat);
    expectError(await presign(orgId, 'image/png', s.member.token), 403, M.onlyOrgAdmins);
  });

  it('uploads a logo by the three steps and serves it; a new one replaces and deletes the old', async () => {
    const orgId = await organizationWithAdmin('Logo Land');
    const response = await presign(orgId, 'IMAGE/PNG');
    expect(response.statusCode, response.body).toBe(200);
    const first = response.json<{ logo_key: string; upload_url: string }>();
    expect(first.logo_key).toMatch(
      new RegExp(`^organizations/logos/${orgId}/[0-9a-f-]{36}\\.png$`),
    );
    expect(first.logo_key).not.toMatch(/logo\.png|our/i);
    expect((await put(first.upload_url, PNG, 'image/jpeg')).statusCode).toBe(400);
    expect((await put(first.upload_url, PNG, 'image/png')).statusCode).toBe(204);

    const confirmed = await confirm(orgId, first.logo_key);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const organization = confirmed.json<Organization>();
    expect(organization.logo_s3_url).toMatch(/^\/api\/storage\/objects\/organizations\/logos\//);
    const download = await s.app.inject(organization.logo_s3_url!);
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(PNG)).toBe(true);
    // The list and a member's read carry it too.
    const read = await s.call('GET', `organizations/${orgId}`, s.member.token);
    expect(read.json<Organization>().logo_s3_url).toMatch(/organizations\/logos\//);
    // Confirming the same key again keeps it.
    expect((await confirm(orgId, first.logo_key)).statusCode).toBe(200);
    expect(await s.storage.head(first.logo_key)).not.toBeNull();

    const second = (await presign(orgId, 'image/jpeg')).json<{
      logo_key: string;
      upload_url: string;
    }>();
    expect((await put(second.upload_url, JPEG, 'image/jpeg')).statusCode).toBe(204);
    expect((await confirm(orgId, second.logo_key, s.superUser.token)).statusCode).toBe(200);
    expect(await s.storage.head(first.logo_key)).toBeNull();
    expect(await s.storage.head(second.logo_key)).not.toBeNull();
  });

  it('confirms only keys of this organization that were uploaded', async () => {
    const orgId = await organizationWithAdmin('Careful');
    const otherOrg = await organizationWithAdmin('Elsewhere');
    const foreign = `organizations/logos/${otherOrg}/${randomUUID()}.png`;
    await s.storage.put(foreign, PNG, 'image/png');
    expectError(await confirm(orgId, foreign), 400, M.logoForeign);
    expectError(
      await confirm(orgId, `templates/samples/1/${randomUUID()}.png`),
      400,
      M.logoForeign,
    );
    expectError(
      await confirm(orgId, `organizations/logos/${orgId}/${randomUUID()}.png`),
      400,
      M.logoNotUploaded,
    );
    expectError(
      await s.call('POST', `organizations/${orgId}/logo/confirm`, s.orgAdmin.token, {}),
      400,
      M.logoKeyRequired,
    );
    expect(await s.storage.head(foreign)).not.toBeNull();
  });

  it('deletes an upload that is too large or is not really a JPEG or PNG', async () => {
    const orgId = await organizationWithAdmin('Strict');
    const big = `organizations/logos/${orgId}/${randomUUID()}.png`;
    await s.storage.put(big, Buffer.concat([PNG, Buffer.alloc(LOGO_MAX_BYTES)]), 'image/png');
    expectError(await confirm(orgId, big), 413, M.logoTooLarge);
    expect(await s.storage.head(big)).toBeNull();

    const fake = `organizations/logos/${orgId}/${randomUUID()}.png`;
    await s.storage.put(
      fake,
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
      'image/png',
    );
    expectError(await confirm(orgId, fake), 400, M.logoFormat);
    expect(await s.storage.head(fake)).toBeNull();

    const mislabelled = `organizations/logos/${orgId}/${randomUUID()}.jpg`;
    await s.storage.put(mislabelled, PNG, 'image/jpeg');
    expectError(await confirm(orgId, mislabelled), 400, M.logoFormat);

    // The local store also refuses a PUT above the signed 5 MB.
    const presigned = (await presign(orgId, 'image/png')).json<{ upload_url: string }>();
    const tooBig = await put(
      presigned.upload_url,
      Buffer.concat([PNG, Buffer.alloc(LOGO_MAX_BYTES)]),
      'image/png',
    );
    expect(tooBig.statusCode).toBe(413);
    const org = (
      await s.call('GET', `organizations/${orgId}`, s.orgAdmin.token)
    ).json<Organization>();
    expect(org.logo_s3_url).toBeNull();
  });
});
