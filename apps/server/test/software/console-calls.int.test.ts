import { randomBytes } from 'node:crypto';
import { SOFTWARE_MESSAGES } from '@flashbooth/contracts';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../../src/db/schema.js';
import { signedIn } from '../harness.js';
import { databaseTargets } from '../databases.js';
import {
  type ChannelBody,
  expectError,
  type ReleaseBody,
  sha256,
  useSoftwareSuite,
} from './software-suite.js';

/*
 * The calls exactly as the staff console's software screens send them (apps/web/src/features/
 * software): explicit nulls from the create dialog, '' to clear a description, the release
 * picker's limit of 200, the upload dialog's type for a file the browser has no archive type
 * for, and the permission read afresh from the account on every call.
 */
describe.each(databaseTargets)('software calls of the staff console on $name', ({ open }) => {
  const s = useSoftwareSuite(open);
  const { call, createRelease, put, confirm } = s;

  it("creates a channel from the dialog's body and keeps the detail's Linked Release current", async () => {
    const created = await call('POST', 'software/channels', s.superToken, {
      name: `  Console ${s.tag}  `,
      description: null,
      release_id: null,
    });
    expect(created.statusCode, created.body).toBe(201);
    const channel = created.json<ChannelBody>();
    expect(channel).toMatchObject({
      name: `Console ${s.tag}`,
      description: null,
      release_id: null,
      release_version: null,
      created_by: s.superId,
      created_by_name: 'Asha Super',
    });

    // Edit Channel sends only what changed; '' clears the description.
    const described = await call('PATCH', `software/channels/${channel.id}`, s.superToken, {
      description: 'Venues in production',
    });
    expect(described.json()).toMatchObject({ description: 'Venues in production' });
    const cleared = await call('PATCH', `software/channels/${channel.id}`, s.superToken, {
      description: '',
    });
    expect(cleared.json()).toMatchObject({ name: `Console ${s.tag}`, description: null });

    // Link Release, then the release's version changes: the channel names the new version.
    const release = await createRelease();
    const linked = await call('PATCH', `software/channels/${channel.id}`, s.superToken, {
      release_id: release.id,
    });
    expect(linked.json()).toMatchObject({
      release_id: release.id,
      release_version: release.version,
    });
    const renamed = `${release.version}-final`;
    expect(
      (
        await call('PATCH', `software/releases/${release.id}`, s.superToken, {
          version: renamed,
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (await call('GET', `software/channels/${channel.id}`, s.superToken)).json(),
    ).toMatchObject({ release_id: release.id, release_version: renamed });
    const listed = (
      await call(
        'GET',
        `software/channels?search=${encodeURIComponent(`Console ${s.tag}`)}`,
        s.superToken,
      )
    ).json<{ items: ChannelBody[]; total_count: number }>();
    expect(listed).toMatchObject({
      total_count: 1,
      items: [{ id: channel.id, release_version: renamed }],
    });

    // "(None - Unlink)" sends null; an unknown release is refused and changes nothing.
    expectError(
      await call('PATCH', `software/channels/${channel.id}`, s.superToken, {
        release_id: 2147483647,
      }),
      404,
      SOFTWARE_MESSAGES.releaseNotFound,
    );
    const unlinked = await call('PATCH', `software/channels/${channel.id}`, s.superToken, {
      release_id: null,
    });
    expect(unlinked.json()).toMatchObject({ release_id: null, release_version: null });
  });

  it('loads up to 200 releases for the picker and refuses more', async () => {
    const picker = await call('GET', 'software/releases?limit=200&offset=0', s.superToken);
    expect(picker.statusCode, picker.body).toBe(200);
    expect(picker.json<{ items: ReleaseBody[] }>().items.length).toBeLessThanOrEqual(200);
    expect((await call('GET', 'software/releases?limit=201', s.superToken)).statusCode).toBe(400);
    // The list screen's default page is 9.
    for (let index = 0; index < 10; index += 1) await createRelease();
    const page = await call('GET', 'software/releases', s.superToken);
    expect(page.json<{ items: ReleaseBody[]; total_count: number }>().items).toHaveLength(9);
  });

  it('uploads a file the browser has no archive type for as application/octet-stream', async () => {
    const release = await createRelease();
    // The upload dialog sends the browser's type only for archives; anything else as a binary.
    const presigned = await call(
      'POST',
      `software/releases/${release.id}/file/presigned_upload`,
      s.superToken,
      { filename: 'flashbooth-agent_2.1.0_arm64.deb', contentType: 'application/octet-stream' },
    );
    expect(presigned.statusCode, presigned.body).toBe(200);
    const { upload_url, s3_key } = presigned.json<{ upload_url: string; s3_key: string }>();
    expect(s3_key).toMatch(/\.bin$/);
    // The type the browser itself would claim for such a file is refused before any upload.
    expectError(
      await call('POST', `software/releases/${release.id}/file/presigned_upload`, s.superToken, {
        filename: 'flashbooth-agent_2.1.0_arm64.deb',
        contentType: 'application/vnd.debian.binary-package',
      }),
      400,
      SOFTWARE_MESSAGES.contentType,
    );

    const body = randomBytes(96 * 1024);
    expect((await put(upload_url, body, 'application/octet-stream')).statusCode).toBe(204);
    const confirmed = await confirm(release.id, s3_key);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    // What the reloaded release shows: the key, a download link whose path is the key, the expiry.
    const reloaded = (
      await call('GET', `software/releases/${release.id}`, s.superToken)
    ).json<ReleaseBody>();
    expect(reloaded).toMatchObject({ is_uploaded: true, s3_key, sha256: sha256(body) });
    const url = new URL(reloaded.s3_url!, 'http://localhost');
    expect(url.pathname.endsWith(s3_key)).toBe(true);
    expect(url.search).not.toBe('');
    expect(reloaded.s3_url_expiry).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
  });

  it('reads the permission from the account on every call, not from the token', async () => {
    const staff = await signedIn(s.app, 'enterprise');
    expectError(
      await call('GET', 'software/channels', staff.token),
      403,
      SOFTWARE_MESSAGES.onlyAdmins,
    );
    await s.database.db
      .update(users)
      .set({ isFlashboothAdmin: true })
      .where(eq(users.id, staff.userId));
    expect((await call('GET', 'software/channels', staff.token)).statusCode).toBe(200);
    await s.database.db
      .update(users)
      .set({ isFlashboothAdmin: false })
      .where(eq(users.id, staff.userId));
    expectError(
      await call('POST', 'software/releases', staff.token, { version: `9.0.0-${s.tag}` }),
      403,
      SOFTWARE_MESSAGES.onlyAdmins,
    );
  });
});
