import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPglite } from '../databases.js';
import type { S3Storage } from '../../src/modules/storage/s3-storage.js';
import { extensionFor, newObjectKey } from '../../src/modules/storage/storage.js';
import { startApp } from '../harness.js';
import { type S3rverFixture, startS3rver, useS3rverCredentials } from '../s3rver.js';

const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0xff, 0xd9]);

/*
 * Against a real S3 API server (s3rver, from npm). s3rver does not check V4 signatures, so these
 * tests prove the requests and URLs work end to end; that the Content-Type is bound by the
 * signature is checked on the URL itself (X-Amz-SignedHeaders), which is what AWS S3 enforces.
 */
describe('S3 object store (s3rver)', () => {
  const bucket = 'flashbooth-test';
  let s3: S3rverFixture;
  let endpoint: string;
  let storage: S3Storage;

  beforeAll(async () => {
    s3 = await startS3rver(bucket, 'flashbooth-s3-');
    ({ endpoint, storage } = s3);
  });
  afterAll(async () => {
    await s3.close();
  });

  it('uploads with a presigned PUT and downloads with a presigned GET', async () => {
    const key = newObjectKey('media', 'jpg');
    const presigned = await storage.presignUpload(key, 'image/jpeg', 300, 1024);
    const url = new URL(presigned.url);
    expect(url.origin).toBe(endpoint);
    expect(url.pathname).toBe(`/${bucket}/${key}`);
    expect(url.searchParams.get('X-Amz-SignedHeaders')).toBe('content-type;host');
    expect(url.searchParams.get('X-Amz-Expires')).toBe('300');
    expect([...url.searchParams.keys()].some((name) => /checksum/i.test(name))).toBe(false);
    expect(presigned.headers).toEqual({ 'Content-Type': 'image/jpeg' });

    const uploaded = await fetch(presigned.url, {
      method: 'PUT',
      headers: presigned.headers,
      body: JPEG,
    });
    expect(uploaded.status).toBe(200);

    const downloaded = await fetch(await storage.presignDownload(key, 60));
    expect(downloaded.status).toBe(200);
    expect(downloaded.headers.get('content-type')).toBe('image/jpeg');
    expect(downloaded.headers.get('content-disposition')).toBeNull();
    expect(Buffer.from(await downloaded.arrayBuffer()).equals(JPEG)).toBe(true);
  });

  it('puts, gets, heads and deletes', async () => {
    const key = newObjectKey('releases', extensionFor('application/gzip'));
    const body = Buffer.from('release bytes');
    expect(await storage.get(key)).toBeNull();
    expect(await storage.head(key)).toBeNull();
    await storage.put(key, body, 'application/gzip');
    expect(await storage.head(key)).toEqual({ size: body.length, contentType: 'application/gzip' });
    expect(await storage.get(key)).toEqual({ body, contentType: 'application/gzip' });
    await storage.delete(key);
    await storage.delete(key);
    expect(await storage.head(key)).toBeNull();
  });

  it('names the download file through Content-Disposition', async () => {
    const key = newObjectKey('media', 'mp4');
    await storage.put(key, Buffer.from('video'), 'video/mp4');
    const response = await fetch(await storage.presignDownload(key, 60, 'Flashbooth 1.mp4'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toBe(
      `attachment; filename="Flashbooth 1.mp4"; filename*=UTF-8''Flashbooth%201.mp4`,
    );
  });

  it('pings the bucket, and fails the ping for a missing one', async () => {
    await expect(storage.ping()).resolves.toBeUndefined();
    const missing = s3.storageFor('no-such-bucket');
    await expect(missing.ping()).rejects.toThrow();
    await missing.close();
  });

  it('is chosen by configuration, checked by the health check, and serves no local routes', async () => {
    const restoreCredentials = useS3rverCredentials();
    const database = await openPglite();
    try {
      const { app } = await startApp(database, {
        STORAGE_DRIVER: 's3',
        S3_BUCKET: bucket,
        S3_ENDPOINT: endpoint,
        S3_FORCE_PATH_STYLE: 'true',
      });
      expect((await app.inject('/api/health')).json()).toEqual({ status: 'ok' });
      expect((await app.inject('/api/storage/objects/media/a.jpg')).statusCode).toBe(404);
      // Pages may show, play and upload to the bucket's presigned URLs.
      const policy = String((await app.inject('/api/health')).headers['content-security-policy']);
      const store = new URL(endpoint).origin;
      for (const directive of ['img-src', 'media-src', 'connect-src']) {
        expect(policy).toMatch(new RegExp(`${directive} [^;]*${store.replace(/[.]/g, '\\.')}`));
      }
      await app.close();
    } finally {
      await database.close();
      restoreCredentials();
    }
  });
});
