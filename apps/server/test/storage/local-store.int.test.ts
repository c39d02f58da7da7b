import { readdirSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Config } from '../../src/config.js';
import { type DatabaseHandle } from '../../src/db/client.js';
import { openPglite } from '../databases.js';
import { createStorage } from '../../src/modules/storage/create-storage.js';
import type { LocalStorage } from '../../src/modules/storage/local-storage.js';
import {
  extensionFor,
  newObjectKey,
  type ObjectStorage,
} from '../../src/modules/storage/storage.js';
import { startApp, testConfig, type TestClock } from '../harness.js';

const JPEG = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0xff, 0xd9]);

describe('local object store', () => {
  let database: DatabaseHandle;
  let app: FastifyInstance;
  let clock: TestClock;
  let config: Config;
  /** Seconds until a signed link's `expires`, by the app clock. */
  const secondsLeft = (url: string) =>
    Number(new URL(url, 'http://x').searchParams.get('expires')) -
    Math.floor(clock.now().getTime() / 1000);

  /** Signs with the same configuration (secret, folder, clock) as the app's own store. */
  let storage: LocalStorage;

  beforeAll(async () => {
    database = await openPglite();
    ({ app, clock, config } = await startApp(database));
    storage = (await createStorage(config, clock.now)) as LocalStorage;
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  const put = (url: string, body: Buffer | Readable, contentType: string) =>
    app.inject({ method: 'PUT', url, payload: body, headers: { 'content-type': contentType } });

  async function upload(body = JPEG, contentType = 'image/jpeg') {
    const key = newObjectKey('media', extensionFor(contentType));
    const presigned = await storage.presignUpload(key, contentType, 300, 1024);
    const response = await put(presigned.url, body, presigned.headers['Content-Type']);
    expect(response.statusCode, response.body).toBe(204);
    return key;
  }

  const tempFiles = () => readdirSync(path.join(config.storage.localDir, '.tmp'));

  it('uploads through a presigned PUT and serves it back through a presigned GET', async () => {
    const key = newObjectKey('media', 'jpg');
    const presigned = await storage.presignUpload(key, 'image/jpeg', 300, 1024);
    expect(presigned).toMatchObject({ method: 'PUT', headers: { 'Content-Type': 'image/jpeg' } });
    expect(presigned.url).toMatch(new RegExp(`^/api/storage/objects/${key}\\?expires=\\d+&`));
    expect(presigned.expires_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/);

    expect((await put(presigned.url, JPEG, 'image/jpeg')).statusCode).toBe(204);
    expect(await storage.head(key)).toEqual({ size: JPEG.length, contentType: 'image/jpeg' });

    const downloadUrl = await storage.presignDownload(key, 120);
    const download = await app.inject(downloadUrl);
    expect(download.statusCode).toBe(200);
    expect(download.rawPayload.equals(JPEG)).toBe(true);
    expect(download.headers['content-type']).toBe('image/jpeg');
    expect(download.headers['content-length']).toBe(String(JPEG.length));
    // Signed per 12 s window (storage.ts downloadWindow): 120 to 132 s left, as the link says.
    const lifetime = secondsLeft(downloadUrl);
    expect(lifetime).toBeGreaterThanOrEqual(120);
    expect(lifetime).toBeLessThanOrEqual(132);
    expect(download.headers['cache-control']).toBe(`private, max-age=${lifetime}`);
    expect(download.headers['content-disposition']).toBeUndefined();
    expect(tempFiles()).toEqual([]);
  });

  it('keeps uploads across a restart of the server', async () => {
    const key = await upload();
    const again = await startApp(database, { DATA_DIR: config.dataDir });
    const restarted = (await createStorage(again.config, again.clock.now)) as LocalStorage;
    const download = await again.app.inject(await restarted.presignDownload(key, 60));
    expect(download.rawPayload.equals(JPEG)).toBe(true);
    await again.app.close();
  });

  it('refuses a tampered or incomplete link with 403', async () => {
    const key = await upload();
    const url = new URL(await storage.presignDownload(key, 60), 'http://x');
    const sig = url.searchParams.get('sig')!;
    const variants = [
      { sig: `${sig[0] === 'A' ? 'B' : 'A'}${sig.slice(1)}` },
      { expires: String(Number(url.searchParams.get('expires')) + 3600) },
      { dl: 'other.jpg' },
      { sig: '' },
      { expires: 'soon' },
    ];
    for (const change of variants) {
      const forged = new URL(url);
      for (const [name, value] of Object.entries(change)) forged.searchParams.set(name, value);
      const response = await app.inject(`${forged.pathname}${forged.search}`);
      expect(response.statusCode, JSON.stringify(change)).toBe(403);
      expect(response.json()).toEqual({ message: 'This link is not valid.', code: 'forbidden' });
    }
    // A valid signature for one key opens no other key.
    const other = await upload();
    const moved = `${url.pathname.replace(key, other)}${url.search}`;
    expect((await app.inject(moved)).statusCode).toBe(403);

    // An upload link cannot be widened to another type or size, nor used to download.
    const presigned = await storage.presignUpload(
      newObjectKey('media', 'jpg'),
      'image/jpeg',
      60,
      8,
    );
    const widened = presigned.url.replace('max=8', 'max=1000');
    expect((await put(widened, JPEG, 'image/jpeg')).statusCode).toBe(403);
    const retyped = presigned.url.replace('ct=image%2Fjpeg', 'ct=image%2Fpng');
    expect((await put(retyped, JPEG, 'image/png')).statusCode).toBe(403);
    expect((await app.inject(presigned.url)).statusCode).toBe(403);
  });

  it('refuses an expired link with 403 (the app clock decides)', async () => {
    const key = await upload();
    const download = await storage.presignDownload(key, 60);
    const lifetime = secondsLeft(download);
    const presigned = await storage.presignUpload(newObjectKey('media', 'jpg'), 'image/jpeg', 60);
    clock.advance(30);
    const halfway = await app.inject(download);
    expect(halfway.statusCode).toBe(200);
    expect(halfway.headers['cache-control']).toBe(`private, max-age=${lifetime - 30}`);
    clock.advance(lifetime - 30 + 1);
    const late = await app.inject(download);
    expect(late.statusCode).toBe(403);
    expect(late.json()).toEqual({ message: 'This link has expired.', code: 'forbidden' });
    expect((await put(presigned.url, JPEG, 'image/jpeg')).statusCode).toBe(403);
  });

  it('refuses an upload with a different Content-Type than the one signed (400)', async () => {
    const key = newObjectKey('media', 'jpg');
    const presigned = await storage.presignUpload(key, 'image/jpeg', 60);
    const response = await put(presigned.url, JPEG, 'image/png');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      message: 'The upload must be sent as image/jpeg.',
      code: 'bad_request',
    });
    expect(await storage.head(key)).toBeNull();
  });

  it('refuses an upload over the signed size (413) and keeps nothing of it', async () => {
    const key = await upload();
    const presigned = await storage.presignUpload(key, 'image/jpeg', 60, JPEG.length);
    const bigger = Buffer.concat([JPEG, Buffer.from([0])]);

    const declared = await put(presigned.url, bigger, 'image/jpeg');
    expect(declared.statusCode).toBe(413);
    expect(declared.json()).toMatchObject({ code: 'payload_too_large' });

    // No Content-Length up front: the stream is cut off once it passes the limit.
    const streamed = await put(
      presigned.url,
      Readable.from([JPEG, Buffer.from([1, 2, 3])]),
      'image/jpeg',
    );
    expect(streamed.statusCode).toBe(413);

    // The object that was there is untouched, and no partial file is left anywhere.
    expect((await storage.get(key))?.body.equals(JPEG)).toBe(true);
    expect(tempFiles()).toEqual([]);
    expect((await put(presigned.url, JPEG, 'image/jpeg')).statusCode).toBe(204);
  });

  it('never leaves a partial object when an upload breaks off', async () => {
    const key = newObjectKey('media', 'jpg');
    const presigned = await storage.presignUpload(key, 'image/jpeg', 60);
    const broken = new Readable({
      read() {
        this.push(JPEG);
        this.destroy(new Error('connection reset'));
      },
    });
    await put(presigned.url, broken, 'image/jpeg').catch(() => undefined);
    // inject gives up as soon as its body fails; the server cleans up right after.
    await vi.waitFor(() => expect(tempFiles()).toEqual([]));
    expect(await storage.head(key)).toBeNull();
    // The same link can be used again: a half-finished upload is simply retried.
    expect((await put(presigned.url, JPEG, 'image/jpeg')).statusCode).toBe(204);
    expect(await storage.head(key)).toEqual({ size: JPEG.length, contentType: 'image/jpeg' });
  });

  it('refuses keys that leave the objects folder', async () => {
    await expect(storage.presignDownload('../auth-secret', 60)).rejects.toThrow('Invalid object');
    await expect(storage.get('media/../../auth-secret')).rejects.toThrow('Invalid object');
    const { search } = new URL(await storage.presignDownload('media/a.jpg', 60), 'http://x');
    // Over a real socket: inject (like fetch) would normalise the dots before the server saw them.
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as AddressInfo;
    for (const pathname of [
      '/api/storage/objects/../../auth-secret',
      '/api/storage/objects/%2e%2e/auth-secret',
      '/api/storage/objects/media/%2e%2e/%2e%2e/auth-secret',
      '/api/storage/objects/media%2f..%2f..%2fauth-secret',
      '/api/storage/objects/.tmp/x',
    ]) {
      const response = await rawGet(port, `${pathname}${search}`);
      expect(response, pathname).toEqual({
        status: 400,
        body: { message: 'Invalid object key.', code: 'bad_request' },
      });
    }
  });

  it('sends a download file name as an attachment', async () => {
    const key = await upload();
    const response = await app.inject(await storage.presignDownload(key, 60, 'Flashbooth 1.jpg'));
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toBe(
      `attachment; filename="Flashbooth 1.jpg"; filename*=UTF-8''Flashbooth%201.jpg`,
    );
  });

  it('answers 404 for a signed link to a missing object and reads, heads and deletes', async () => {
    const key = newObjectKey('logos', 'png');
    expect((await app.inject(await storage.presignDownload(key, 60))).statusCode).toBe(404);
    expect(await storage.get(key)).toBeNull();
    expect(await storage.head(key)).toBeNull();
    await storage.put(key, JPEG, 'image/png');
    expect(await storage.get(key)).toEqual({ body: JPEG, contentType: 'image/png' });
    await storage.delete(key);
    await storage.delete(key);
    expect(await storage.head(key)).toBeNull();
    // A key that is only a folder of other keys is not an object.
    expect(await storage.head('media')).toBeNull();
    expect(await storage.get('media')).toBeNull();
  });

  it('builds absolute URLs from PUBLIC_URL', async () => {
    const withBase = testConfig({ PUBLIC_URL: 'https://booths.example.com/' });
    const local = await createStorage(withBase, () => new Date());
    expect(await local.presignDownload('media/a.jpg', 60)).toMatch(
      /^https:\/\/booths\.example\.com\/api\/storage\/objects\/media\/a\.jpg\?/,
    );
    rmSync(withBase.dataDir, { recursive: true, force: true });
  });

  it('reports the object store in the health check', async () => {
    expect((await app.inject('/api/health')).json()).toEqual({ status: 'ok' });
    const broken: ObjectStorage = Object.assign(Object.create(storage) as LocalStorage, {
      ping: () => Promise.reject(new Error('disk gone')),
    });
    const sick = await startApp(database, {}, { storage: broken });
    const response = await sick.app.inject('/api/health');
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({
      message: 'The object store is not reachable.',
      code: 'service_unavailable',
    });
    await sick.app.close();
  });
});

/** GET with the path sent exactly as written (no URL normalisation on the way). */
function rawGet(port: number, rawPath: string): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: rawPath }, (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => (text += chunk.toString()));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body: JSON.parse(text) as unknown }),
        );
      })
      .on('error', reject);
  });
}
