import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { S3Storage } from '../src/modules/storage/s3-storage.js';

/** s3rver ships no types; this is the part of its API the tests use. */
interface S3rverServer {
  run(): Promise<AddressInfo>;
  close(): Promise<void>;
}
type S3rverClass = new (options: {
  address: string;
  port: number;
  directory: string;
  silent: boolean;
  configureBuckets: { name: string }[];
}) => S3rverServer;
const S3rver = createRequire(import.meta.url)('s3rver') as S3rverClass;

/** s3rver accepts any credentials; these are the ones the tests sign with. */
export const S3RVER_CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

export interface S3rverFixture {
  endpoint: string;
  /** The S3 driver on `bucket`. */
  storage: S3Storage;
  /** The S3 driver on another bucket of the same server. */
  storageFor: (bucket: string) => S3Storage;
  /** Closes the driver and the server and deletes the server's files. */
  close: () => Promise<void>;
}

/** An S3 API server (s3rver, from npm) on a free port of 127.0.0.1 with one empty bucket. */
export async function startS3rver(bucket: string, directoryPrefix: string): Promise<S3rverFixture> {
  const directory = mkdtempSync(path.join(os.tmpdir(), directoryPrefix));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    directory,
    silent: true,
    configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const storageFor = (name: string) =>
    new S3Storage({
      bucket: name,
      region: 'ap-south-1',
      endpoint,
      forcePathStyle: true,
      credentials: S3RVER_CREDENTIALS,
    });
  const storage = storageFor(bucket);
  return {
    endpoint,
    storage,
    storageFor,
    close: async () => {
      await storage.close();
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/**
 * Puts s3rver's credentials where the SDK's default chain finds them (the app takes its
 * credentials from there, as in production); the returned function puts the old values back.
 */
export function useS3rverCredentials(): () => void {
  const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
  process.env.AWS_ACCESS_KEY_ID = S3RVER_CREDENTIALS.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY = S3RVER_CREDENTIALS.secretAccessKey;
  return () => {
    restoreEnv('AWS_ACCESS_KEY_ID', saved.id);
    restoreEnv('AWS_SECRET_ACCESS_KEY', saved.secret);
  };
}

function restoreEnv(name: string, value: string | undefined) {
  if (value === undefined) delete process.env[name];
  else process.env[name] = value;
}
