import { randomBytes } from 'node:crypto';
import { SOFTWARE_MESSAGES } from '@flashbooth/contracts';
import { describe, expect, it } from 'vitest';
import { databaseTargets } from '../databases.js';
import { expectError, type ReleaseBody, sha256, useSoftwareSuite } from './software-suite.js';

describe.each(databaseTargets)('software releases on $name', ({ open }) => {
  const s = useSoftwareSuite(open);
  const { call, createChannel, createRelease, put, uploadFile, confirm, uploadedRelease } = s;

  it('creates, lists, changes and deletes releases; versions are unique in any case', async () => {
    const release = await createRelease(`2.0.0-RC1-${s.tag}`, '  Faster printing  ');
    expect(release).toEqual({
      id: expect.any(Number),
      version: `2.0.0-RC1-${s.tag}`,
      release_notes: 'Faster printing',
      is_uploaded: false,
      s3_key: null,
      s3_url: null,
      s3_url_expiry: null,
      sha256: null,
      size_bytes: null,
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/),
      created_by: s.superId,
      created_by_name: 'Asha Super',
    });
    expectError(
      await call('POST', 'software/releases', s.superToken, { version: `2.0.0-rc1-${s.tag}` }),
      409,
      SOFTWARE_MESSAGES.versionTaken,
    );
    const other = await createRelease(`2.0.1-${s.tag}`);
    expectError(
      await call('PATCH', `software/releases/${other.id}`, s.superToken, {
        version: `2.0.0-rc1-${s.tag}`,
      }),
      409,
      SOFTWARE_MESSAGES.versionTaken,
    );

    const changed = await call('PATCH', `software/releases/${other.id}`, s.superToken, {
      version: `2.0.2-${s.tag}`,
      release_notes: '',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({ version: `2.0.2-${s.tag}`, release_notes: null });
    expect(
      (
        await call('PATCH', `software/releases/${other.id}`, s.superToken, {
          release_notes: 'Notes only',
        })
      ).json(),
    ).toMatchObject({ version: `2.0.2-${s.tag}`, release_notes: 'Notes only' });

    const list = await call('GET', `software/releases?search=${s.tag}`, s.superToken);
    const body = list.json<{ items: ReleaseBody[]; total_count: number }>();
    expect(body.items.length).toBeLessThanOrEqual(9);
    expect(body.items.slice(0, 2).map((item) => item.id)).toEqual([other.id, release.id]);
    const byNotes = await call('GET', 'software/releases?search=faster%20PRINTING', s.superToken);
    expect(byNotes.json<{ items: ReleaseBody[] }>().items.map((item) => item.id)).toContain(
      release.id,
    );

    expect((await call('DELETE', `software/releases/${other.id}`, s.superToken)).statusCode).toBe(
      204,
    );
    expectError(
      await call('GET', `software/releases/${other.id}`, s.superToken),
      404,
      SOFTWARE_MESSAGES.releaseNotFound,
    );
    expectError(
      await call('DELETE', `software/releases/${other.id}`, s.superToken),
      404,
      SOFTWARE_MESSAGES.releaseNotFound,
    );
  });

  it('uploads a release file to a random key and computes its SHA-256 and size on confirm', async () => {
    const release = await createRelease();
    const presigned = await call(
      'POST',
      `software/releases/${release.id}/file/presigned_upload`,
      s.superToken,
      { filename: '../../etc/passwd' },
    );
    expect(presigned.statusCode, presigned.body).toBe(200);
    const { upload_url, s3_key } = presigned.json<{ upload_url: string; s3_key: string }>();
    expect(Object.keys(presigned.json()).sort()).toEqual(['s3_key', 'upload_url']);
    // The content type defaults to a raw binary; the client's file name is never used.
    expect(s3_key).toMatch(new RegExp(`^software/releases/${release.id}/[0-9a-f-]{36}\\.bin$`));
    expect(upload_url).toContain(s3_key);
    expect(upload_url).not.toContain('passwd');

    // The type is signed into the URL.
    const body = randomBytes(300 * 1024);
    expect((await put(upload_url, body, 'application/zip')).statusCode).toBe(400);
    // Not uploaded yet.
    expectError(await confirm(release.id, s3_key), 400, SOFTWARE_MESSAGES.uploadNotFound);
    expect((await put(upload_url, body, 'application/octet-stream')).statusCode).toBe(204);
    expect((await confirm(release.id, s3_key, s.orgAdmin)).statusCode).toBe(403);

    const before = s.clock.now().getTime();
    const confirmed = await confirm(release.id, s3_key);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const uploaded = confirmed.json<ReleaseBody>();
    expect(uploaded).toMatchObject({
      id: release.id,
      version: release.version,
      is_uploaded: true,
      s3_key,
      sha256: sha256(body),
      size_bytes: body.length,
    });
    // s3_url_expiry says when the one-hour download link stops working.
    const expiry = Date.parse(`${uploaded.s3_url_expiry}Z`);
    expect(expiry).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 3600_000);
    expect(expiry).toBeLessThanOrEqual(s.clock.now().getTime() + 3600_000);

    // The download link serves exactly the uploaded bytes under a readable name.
    const download = await s.app.inject({ method: 'GET', url: uploaded.s3_url! });
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(body)).toBe(true);
    expect(download.headers['content-disposition']).toContain(`flashbooth-${release.version}.bin`);

    // Confirming again changes nothing; GET shows the same file.
    expect((await confirm(release.id, s3_key)).json()).toMatchObject({ sha256: sha256(body) });
    expect(
      (await call('GET', `software/releases/${release.id}`, s.superToken)).json(),
    ).toMatchObject({ is_uploaded: true, s3_key, sha256: sha256(body), size_bytes: body.length });
    // The list shows it uploaded too.
    const listed = (
      await call('GET', `software/releases?search=${release.version}`, s.superToken)
    ).json<{ items: ReleaseBody[] }>();
    expect(listed.items[0]).toMatchObject({ id: release.id, is_uploaded: true });
  });

  it('accepts only keys handed out for that release, and refuses empty files', async () => {
    const release = await createRelease();
    const other = await createRelease();
    const foreignKey = await uploadFile(other.id, randomBytes(1000));
    expectError(await confirm(release.id, foreignKey), 400, SOFTWARE_MESSAGES.uploadForeign);
    for (const key of [
      'media/abc.jpg',
      `software/releases/${release.id}/../${other.id}/x.bin`,
      `software/releases/${release.id}/not-a-uuid.bin`,
    ]) {
      expectError(await confirm(release.id, key), 400, SOFTWARE_MESSAGES.uploadForeign);
    }
    // The other release's file was not touched.
    expect(await s.storage.head(foreignKey)).not.toBeNull();

    const emptyKey = await uploadFile(release.id, Buffer.alloc(0));
    expectError(await confirm(release.id, emptyKey), 400, SOFTWARE_MESSAGES.fileEmpty);
    expect(await s.storage.head(emptyKey)).toBeNull();
    expect(
      (await call('GET', `software/releases/${release.id}`, s.superToken)).json(),
    ).toMatchObject({ is_uploaded: false, s3_key: null, sha256: null });
  });

  it('re-uploads a release file: new checksum, the old file deleted', async () => {
    const { release, body } = await uploadedRelease();
    const oldKey = release.s3_key!;
    const newBody = Buffer.concat([body, Buffer.from('patch')]);
    const newKey = await uploadFile(release.id, newBody, 'application/gzip');
    expect(newKey).toMatch(/\.tar\.gz$/);
    const confirmed = await confirm(release.id, newKey);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json()).toMatchObject({
      s3_key: newKey,
      sha256: sha256(newBody),
      size_bytes: newBody.length,
    });
    expect(await s.storage.head(oldKey)).toBeNull();
    expect(await s.storage.head(newKey)).toMatchObject({ size: newBody.length });
    // The old link now finds nothing.
    expect((await s.app.inject({ method: 'GET', url: release.s3_url! })).statusCode).toBe(404);
  });

  it('refuses to delete a release a channel links (409), and deletes its file otherwise', async () => {
    const { release } = await uploadedRelease();
    const channel = await createChannel({ name: `Pinned ${s.tag}`, release_id: release.id });
    const refused = await call('DELETE', `software/releases/${release.id}`, s.superToken);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      message: `This release is linked to the software channel "Pinned ${s.tag}". Link another release to the channel (or unlink it) first.`,
      code: 'conflict',
    });
    // Nothing was removed.
    expect(await s.storage.head(release.s3_key!)).not.toBeNull();
    expect((await call('GET', `software/releases/${release.id}`, s.superToken)).statusCode).toBe(
      200,
    );

    expect(
      (await call('PATCH', `software/channels/${channel.id}`, s.superToken, { release_id: null }))
        .statusCode,
    ).toBe(200);
    expect((await call('DELETE', `software/releases/${release.id}`, s.superToken)).statusCode).toBe(
      204,
    );
    expect(await s.storage.head(release.s3_key!)).toBeNull();
    expectError(
      await call('GET', `software/releases/${release.id}`, s.superToken),
      404,
      SOFTWARE_MESSAGES.releaseNotFound,
    );
  });
});
