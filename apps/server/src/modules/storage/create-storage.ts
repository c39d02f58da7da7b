import type { Config } from '../../config.js';
import { deriveKey } from '../../security/keys.js';
import { LocalStorage } from './local-storage.js';
import { S3Storage } from './s3-storage.js';
import type { ObjectStorage } from './storage.js';

/** The configured object store: local disk under DATA_DIR/objects, or an S3-compatible bucket. */
export async function createStorage(config: Config, now: () => Date): Promise<ObjectStorage> {
  if (config.storage.driver === 's3') {
    return new S3Storage({
      bucket: config.storage.s3.bucket,
      region: config.storage.s3.region,
      endpoint: config.storage.s3.endpoint,
      forcePathStyle: config.storage.s3.forcePathStyle,
      ...(config.storage.s3.credentials ? { credentials: config.storage.s3.credentials } : {}),
      now,
    });
  }
  const local = new LocalStorage({
    root: config.storage.localDir,
    signingKey: deriveKey(config.authSecret, 'storage'),
    publicUrl: config.publicUrl ?? '',
    now,
  });
  await local.init();
  return local;
}
