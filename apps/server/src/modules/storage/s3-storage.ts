import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { toApiTimestamp } from '../../lib/time.js';
import {
  assertContentType,
  assertUrlLifetime,
  DownloadLinkMemo,
  downloadWindow,
  assertValidObjectKey,
  attachmentDisposition,
  type ObjectInfo,
  type ObjectStorage,
  type OpenedObject,
  type PresignedUpload,
  type StoredObject,
} from './storage.js';

export interface S3StorageOptions {
  bucket: string;
  region: string;
  /** MinIO, R2, s3rver…; absent = AWS S3. */
  endpoint?: string | undefined;
  /** Bucket in the path instead of the host name (MinIO and most local S3 servers need it). */
  forcePathStyle?: boolean;
  /** Absent = the SDK's default chain (environment, profile, instance or task role). */
  credentials?: S3ClientConfig['credentials'];
  now?: () => Date;
}

/** Objects in an S3-compatible bucket; clients upload and download directly with presigned URLs. */
export class S3Storage implements ObjectStorage {
  readonly kind = 's3';
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly now: () => Date;
  private readonly downloadLinks = new DownloadLinkMemo();

  constructor(options: S3StorageOptions) {
    this.bucket = options.bucket;
    this.now = options.now ?? (() => new Date());
    this.client = new S3Client({
      region: options.region,
      endpoint: options.endpoint,
      forcePathStyle: options.forcePathStyle ?? false,
      ...(options.credentials ? { credentials: options.credentials } : {}),
      // The SDK otherwise adds CRC32 checksums to every PUT; a presigned URL would then carry the
      // checksum of an empty body, and several S3-compatible servers reject the extra headers.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  /**
   * The Content-Type header is signed, so S3 refuses an upload with any other type. A presigned
   * PUT cannot cap the size (only a POST policy can), so `maxBytes` is not enforced here: the step
   * that confirms an upload must compare `head(key).size` and delete what is too large.
   */
  async presignUpload(
    key: string,
    contentType: string,
    expiresInSeconds: number,
    _maxBytes?: number,
  ): Promise<PresignedUpload> {
    assertValidObjectKey(key);
    assertContentType(contentType);
    assertUrlLifetime(expiresInSeconds);
    const signingDate = this.now();
    const url = await getSignedUrl(
      this.client,
      new PutObjectCommand({ Bucket: this.bucket, Key: key, ContentType: contentType }),
      // The presigner leaves content-type unsigned by default; naming it makes it binding.
      { expiresIn: expiresInSeconds, signingDate, signableHeaders: new Set(['content-type']) },
    );
    return {
      url,
      method: 'PUT',
      headers: { 'Content-Type': contentType },
      expires_at: toApiTimestamp(new Date(signingDate.getTime() + expiresInSeconds * 1000)),
    };
  }

  async presignDownload(
    key: string,
    expiresInSeconds: number,
    downloadFileName?: string,
  ): Promise<string> {
    assertValidObjectKey(key);
    assertUrlLifetime(expiresInSeconds);
    const nowSeconds = Math.floor(this.now().getTime() / 1000);
    const { signedAt, expires } = downloadWindow(nowSeconds, expiresInSeconds);
    return this.downloadLinks.get({ key, signedAt, expires, fileName: downloadFileName }, () =>
      getSignedUrl(
        this.client,
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: key,
          ...(downloadFileName !== undefined
            ? { ResponseContentDisposition: attachmentDisposition(downloadFileName) }
            : {}),
        }),
        { expiresIn: expires - signedAt, signingDate: new Date(signedAt * 1000) },
      ),
    );
  }

  async put(key: string, body: Buffer, contentType: string): Promise<void> {
    assertValidObjectKey(key);
    assertContentType(contentType);
    await this.client.send(
      new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: body, ContentType: contentType }),
    );
  }

  /** One streamed PUT with the file's length (S3 needs it for a stream body). */
  async putFile(key: string, filePath: string, contentType: string): Promise<void> {
    assertValidObjectKey(key);
    assertContentType(contentType);
    const { size } = await stat(filePath);
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Body: createReadStream(filePath),
        ContentLength: size,
        ContentType: contentType,
      }),
    );
  }

  async get(key: string): Promise<StoredObject | null> {
    assertValidObjectKey(key);
    try {
      const output = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: key }),
      );
      if (!output.Body) return null;
      return {
        body: Buffer.from(await output.Body.transformToByteArray()),
        contentType: output.ContentType ?? 'application/octet-stream',
      };
    } catch (error) {
      return missingAsNull(error);
    }
  }

  async head(key: string): Promise<ObjectInfo | null> {
    assertValidObjectKey(key);
    try {
      const output = await this.client.send(
        new HeadObjectCommand({ Bucket: this.bucket, Key: key }),
      );
      return {
        size: output.ContentLength ?? 0,
        contentType: output.ContentType ?? 'application/octet-stream',
      };
    } catch (error) {
      return missingAsNull(error);
    }
  }

  /** The GET's body as a stream (the SDK gives a Node Readable); nothing is buffered here. */
  async open(key: string): Promise<OpenedObject | null> {
    assertValidObjectKey(key);
    try {
      const output = await this.client.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: key }),
      );
      if (!(output.Body instanceof Readable)) return null;
      return {
        stream: output.Body,
        size: output.ContentLength ?? 0,
        contentType: output.ContentType ?? 'application/octet-stream',
      };
    } catch (error) {
      return missingAsNull(error);
    }
  }

  async delete(key: string): Promise<void> {
    assertValidObjectKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  /** The bucket exists and these credentials may use it (`abortSignal`: give up then). */
  async ping(options: { abortSignal?: AbortSignal } = {}): Promise<void> {
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket }), options);
  }

  async close(): Promise<void> {
    this.client.destroy();
  }
}

/** NoSuchKey (GET) and NotFound (HEAD, which has no body to name the error) both mean missing. */
function missingAsNull(error: unknown): null {
  if (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404) return null;
  throw error;
}
