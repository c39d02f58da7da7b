import { createHash, randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle } from '../../src/db/client.js';
import { openPglite } from '../databases.js';
import { users } from '../../src/db/schema.js';
import { createStorage } from '../../src/modules/storage/create-storage.js';
import type { S3Storage } from '../../src/modules/storage/s3-storage.js';
import { newObjectKey, type ObjectStorage } from '../../src/modules/storage/storage.js';
import { bearer, signedIn, startApp, testConfig } from '../harness.js';
import { type S3rverFixture, startS3rver, useS3rverCredentials } from '../s3rver.js';

const sha256 = (body: Buffer) => createHash('sha256').update(body).digest('hex');

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** `open` streams an object on both drivers (the release confirmation hashes it that way). */
async function expectStreams(storage: ObjectStorage) {
  const key = newObjectKey('software/releases/1', 'bin');
  expect(await storage.open(key)).toBeNull();
  // Larger than one read chunk, so the stream really arrives in pieces.
  const body = randomBytes(256 * 1024 + 17);
  await storage.put(key, body, 'application/octet-stream');
  const opened = await storage.open(key);
  expect(opened).toMatchObject({ size: body.length, contentType: 'application/octet-stream' });
  expect((await readAll(opened!.stream)).equals(body)).toBe(true);
  await storage.delete(key);
  expect(await storage.open(key)).toBeNull();
}

describe('streaming objects (ObjectStorage.open)', () => {
  it('streams from the local store', async () => {
    const storage = await createStorage(testConfig(), () => new Date());
    try {
      await expectStreams(storage);
    } finally {
      await storage.close();
    }
  });
});

describe('software releases on the S3 driver (s3rver)', () => {
  const bucket = 'flashbooth-releases';
  const superPhone = '+919812300001';
  let s3: S3rverFixture;
  let endpoint: string;
  let storage: S3Storage;
  let database: DatabaseHandle;
  let app: FastifyInstance;
  let superToken: string;
  let restoreCredentials: (() => void) | undefined;

  beforeAll(async () => {
    s3 = await startS3rver(bucket, 'flashbooth-s3-software-');
    ({ endpoint, storage } = s3);
    restoreCredentials = useS3rverCredentials();
    database = await openPglite();
    ({ app } = await startApp(database, {
      STORAGE_DRIVER: 's3',
      S3_BUCKET: bucket,
      S3_ENDPOINT: endpoint,
      S3_FORCE_PATH_STYLE: 'true',
      SUPER_USER_PHONES: superPhone,
      OTP_SEND_LIMIT_PER_IP: '1000',
    }));
    const superUser = await signedIn(app, 'enterprise', superPhone);
    superToken = superUser.token;
    await database.db
      .update(users)
      .set({ name: 'Asha Super' })
      .where(eq(users.id, superUser.userId));
  });
  afterAll(async () => {
    restoreCredentials?.();
    await app?.close();
    await database?.close();
    await s3?.close();
  });

  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
    app.inject({
      method,
      url: `/api/enterprise/${url}`,
      headers: bearer(superToken),
      ...(payload ? { payload } : {}),
    });

  it('streams from the S3 store', async () => {
    await expectStreams(storage);
  });

  /** Presign, PUT straight to the bucket, confirm. */
  async function upload(releaseId: number, body: Buffer, contentType: string) {
    const presigned = await call('POST', `software/releases/${releaseId}/file/presigned_upload`, {
      filename: 'agent.zip',
      contentType,
    });
    expect(presigned.statusCode, presigned.body).toBe(200);
    const { upload_url, s3_key } = presigned.json<{ upload_url: string; s3_key: string }>();
    const url = new URL(upload_url);
    expect(url.origin).toBe(endpoint);
    expect(url.pathname).toBe(`/${bucket}/${s3_key}`);
    // The content type is bound by the signature (s3rver itself does not check signatures).
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('content-type;host');
    const uploaded = await fetch(upload_url, {
      method: 'PUT',
      headers: { 'Content-Type': contentType },
      body,
    });
    expect(uploaded.status).toBe(200);
    const confirmed = await call('POST', `software/releases/${releaseId}/file/confirm`, {
      s3_key,
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    return confirmed.json<{
      s3_key: string;
      s3_url: string;
      sha256: string;
      size_bytes: number;
      is_uploaded: boolean;
    }>();
  }

  it('uploads, checksums, replaces and deletes a release file in the bucket', async () => {
    const created = await call('POST', 'software/releases', { version: '3.1.0' });
    expect(created.statusCode, created.body).toBe(201);
    const { id } = created.json<{ id: number }>();

    const first = randomBytes(700 * 1024);
    const release = await upload(id, first, 'application/zip');
    expect(release).toMatchObject({
      is_uploaded: true,
      sha256: sha256(first),
      size_bytes: first.length,
    });
    expect(release.s3_key).toMatch(new RegExp(`^software/releases/${id}/[0-9a-f-]{36}\\.zip$`));
    const download = await fetch(release.s3_url);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-disposition')).toContain('flashbooth-3.1.0.zip');
    expect(Buffer.from(await download.arrayBuffer()).equals(first)).toBe(true);

    const second = randomBytes(1024);
    const replaced = await upload(id, second, 'application/octet-stream');
    expect(replaced).toMatchObject({ sha256: sha256(second), size_bytes: second.length });
    expect(await storage.head(release.s3_key)).toBeNull();

    expect((await call('DELETE', `software/releases/${id}`)).statusCode).toBe(204);
    expect(await storage.head(replaced.s3_key)).toBeNull();
  });
});
