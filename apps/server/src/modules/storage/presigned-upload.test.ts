import { describe, expect, it } from 'vitest';
import { FakeCleanup, FakeStorage } from '../../../test/unit-fakes.js';
import { AppError } from '../../errors.js';
import {
  confirmObjectUpload,
  imageInspection,
  presignObjectUpload,
  type UploadAcceptance,
} from './presigned-upload.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

function setup() {
  const storage = new FakeStorage();
  const cleanup = new FakeCleanup(storage);
  return { storage, cleanup, store: { storage, cleanup } };
}

function acceptance(
  storage: FakeStorage,
  key: string,
  record: { current: string | null } | null,
  previousDeleted: string[],
): UploadAcceptance<void> {
  return {
    maxBytes: 64,
    notUploaded: 'Not uploaded yet.',
    tooLarge: 'Too large.',
    inspect: imageInspection(storage, key, 'Must be a JPEG or PNG.'),
    swap: async () => {
      if (!record) return null;
      const previous = record.current;
      record.current = key;
      return { previous };
    },
    recordGone: () => new AppError('not_found', 'Gone.'),
    deletePrevious: async (previous) => {
      previousDeleted.push(previous);
    },
  };
}

async function refusal(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
}

describe('presigned uploads', () => {
  it('hands out a fresh key in the folder and queues it for cleanup', async () => {
    const { cleanup, store } = setup();
    const first = await presignObjectUpload(store, {
      folder: 'logos/7',
      extension: 'png',
      contentType: 'image/png',
      urlSeconds: 900,
      maxBytes: 64,
    });
    const second = await presignObjectUpload(store, {
      folder: 'logos/7',
      extension: 'png',
      contentType: 'image/png',
      urlSeconds: 900,
      maxBytes: 64,
    });
    expect(first.key).toMatch(/^logos\/7\/.+\.png$/);
    expect(second.key).not.toBe(first.key);
    expect([...cleanup.started]).toEqual([first.key, second.key]);
  });

  it('accepts a real image: the record points at it, cleanup forgets it, the previous file goes', async () => {
    const { storage, cleanup, store } = setup();
    const key = 'logos/7/new.png';
    await storage.put(key, PNG, 'image/png');
    const record = { current: 'logos/7/old.png' };
    const previousDeleted: string[] = [];
    await confirmObjectUpload(store, key, acceptance(storage, key, record, previousDeleted));
    expect(record.current).toBe(key);
    expect(cleanup.confirmed.has(key)).toBe(true);
    expect(previousDeleted).toEqual(['logos/7/old.png']);
    expect(storage.deleted).toEqual([]);
  });

  it('refuses a missing file without deleting anything', async () => {
    const { storage, store } = setup();
    const error = await refusal(
      confirmObjectUpload(
        store,
        'logos/7/none.png',
        acceptance(storage, 'logos/7/none.png', { current: null }, []),
      ),
    );
    expect([error.code, error.message]).toEqual(['bad_request', 'Not uploaded yet.']);
    expect(storage.deleted).toEqual([]);
  });

  it('deletes and refuses a file over the size cap (413)', async () => {
    const { storage, store } = setup();
    const key = 'logos/7/big.png';
    await storage.put(key, Buffer.concat([PNG, Buffer.alloc(100)]), 'image/png');
    const error = await refusal(
      confirmObjectUpload(store, key, acceptance(storage, key, { current: null }, [])),
    );
    expect([error.code, error.message]).toEqual(['payload_too_large', 'Too large.']);
    expect(storage.deleted).toEqual([key]);
  });

  it('deletes and refuses a file whose bytes are not the declared image type', async () => {
    const { storage, store } = setup();
    const key = 'logos/7/fake.png';
    await storage.put(key, Buffer.from('not a picture'), 'image/png');
    const error = await refusal(
      confirmObjectUpload(store, key, acceptance(storage, key, { current: null }, [])),
    );
    expect([error.code, error.message]).toEqual(['bad_request', 'Must be a JPEG or PNG.']);
    expect(storage.deleted).toEqual([key]);
  });

  it('deletes the upload when its record is gone', async () => {
    const { storage, cleanup, store } = setup();
    const key = 'logos/7/orphan.png';
    await storage.put(key, PNG, 'image/png');
    const error = await refusal(
      confirmObjectUpload(store, key, acceptance(storage, key, null, [])),
    );
    expect([error.code, error.message]).toEqual(['not_found', 'Gone.']);
    expect(storage.deleted).toEqual([key]);
    expect(cleanup.confirmed.has(key)).toBe(false);
  });

  it('keeps the file when the record already points at it (a repeated confirmation)', async () => {
    const { storage, store } = setup();
    const key = 'logos/7/same.png';
    await storage.put(key, PNG, 'image/png');
    const previousDeleted: string[] = [];
    await confirmObjectUpload(
      store,
      key,
      acceptance(storage, key, { current: key }, previousDeleted),
    );
    expect(previousDeleted).toEqual([]);
    expect(storage.deleted).toEqual([]);
  });
});
