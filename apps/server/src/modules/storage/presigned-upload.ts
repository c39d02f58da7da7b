import { AppError } from '../../errors.js';
import { hasImageSignature } from '../../lib/image-signature.js';
import type { ObjectCleanup } from './object-cleanup.js';
import {
  extensionFor,
  newObjectKey,
  type ObjectExtension,
  type ObjectInfo,
  type ObjectStorage,
} from './storage.js';

/**
 * The one way a staff upload goes straight to the object store: `presignObjectUpload` hands out a PUT
 * to a fresh random key (deleted after a day unless confirmed); `confirmObjectUpload` accepts it.
 * A presigned PUT cannot cap a file's size on S3, and a client can PUT anything, so every
 * confirmation checks the same things in the same order, deleting what it refuses.
 */
export interface UploadStore {
  storage: ObjectStorage;
  cleanup: Pick<ObjectCleanup, 'uploadStarted' | 'uploadConfirmed'>;
}

export interface UploadTarget {
  /** The folder of the record's uploads, e.g. `logos/12`; the key is a random name inside it. */
  folder: string;
  extension: ObjectExtension;
  contentType: string;
  urlSeconds: number;
  maxBytes: number;
}

export async function presignObjectUpload(
  { storage, cleanup }: UploadStore,
  target: UploadTarget,
): Promise<{ key: string; url: string }> {
  const key = newObjectKey(target.folder, target.extension);
  const presigned = await storage.presignUpload(
    key,
    target.contentType,
    target.urlSeconds,
    target.maxBytes,
  );
  await cleanup.uploadStarted(key);
  return { key, url: presigned.url };
}

export interface UploadAcceptance<T> {
  maxBytes: number;
  /** "Not uploaded yet" (400): nothing at the key. */
  notUploaded: string;
  /** "Too large" (413): the file is deleted. */
  tooLarge: string;
  /**
   * Reads what the record keeps of the file (its checksum, say) or refuses it: a refusal must be
   * an AppError, and the file is deleted before it is thrown.
   */
  inspect: (info: ObjectInfo) => Promise<T>;
  /** Points the record at the new key; nothing when the record is gone (the file is deleted). */
  swap: (inspected: T) => Promise<{ previous: string | null } | null | undefined>;
  recordGone: () => AppError;
  /** Deletes the record's previous file once nothing points at it. */
  deletePrevious: (key: string) => Promise<void>;
}

/**
 * Accepts an upload whose key the caller has already checked belongs to the record: it must be
 * there, at most `maxBytes`, and pass `inspect`; then the record points at it, the cleanup queue
 * forgets it, and the previous file is deleted.
 */
export async function confirmObjectUpload<T>(
  { storage, cleanup }: UploadStore,
  key: string,
  acceptance: UploadAcceptance<T>,
): Promise<void> {
  const info = await storage.head(key);
  if (!info) throw new AppError('bad_request', acceptance.notUploaded);
  if (info.size > acceptance.maxBytes) {
    await storage.delete(key);
    throw new AppError('payload_too_large', acceptance.tooLarge);
  }
  let inspected: T;
  try {
    inspected = await acceptance.inspect(info);
  } catch (error) {
    if (error instanceof AppError) await storage.delete(key);
    throw error;
  }
  const swapped = await acceptance.swap(inspected);
  if (!swapped) {
    await storage.delete(key);
    throw acceptance.recordGone();
  }
  await cleanup.uploadConfirmed(key);
  if (swapped.previous && swapped.previous !== key)
    await acceptance.deletePrevious(swapped.previous);
}

/**
 * An `inspect` for JPEG and PNG uploads: the bytes must be the image type the upload declared,
 * under a key with that type's extension; else `message` (400).
 */
export function imageInspection(
  storage: ObjectStorage,
  key: string,
  message: string,
): (info: ObjectInfo) => Promise<void> {
  return async (info) => {
    const object = await storage.get(key);
    if (
      !object ||
      !hasImageSignature(info.contentType, object.body) ||
      !key.endsWith(`.${extensionFor(info.contentType)}`)
    ) {
      throw new AppError('bad_request', message);
    }
  };
}
