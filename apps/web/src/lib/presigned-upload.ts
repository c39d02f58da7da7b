import {
  uploadWithProgress,
  type UploadProgress,
  type UploadRequest,
} from './upload-with-progress';

/** Where the presign said to put the file: the signed PUT URL and the key to confirm. */
export interface PresignedTarget {
  url: string;
  key: string;
}

export interface PresignedUploadOptions<T> {
  /** Step 1: asks the API for a signed PUT URL and the key the file will have. */
  presign: (signal?: AbortSignal) => Promise<PresignedTarget>;
  file: Blob;
  /** The Content-Type the URL was signed for (the file's own type when absent). */
  contentType?: string;
  /** Step 3: tells the API the file is in the store; answers what the API answered. */
  confirm: (key: string) => Promise<T>;
  /** The file is going to the store (the presign answered). */
  onUploadStart?: () => void;
  /** The PUT's own progress events, then 100 % once the store answered. */
  onProgress?: (progress: UploadProgress) => void;
  /** The file is in the store; the server is checking it (the confirm). */
  onConfirming?: () => void;
  /** Cancels the presign or the PUT; the confirm, once started, runs to its end. */
  signal?: AbortSignal;
  /** The error's message when the store refuses the file (or the presign answers no URL). */
  fallbackMessage?: string;
  /** Makes the PUT's request (tests); a real XMLHttpRequest by default. */
  createRequest?: () => UploadRequest;
}

/**
 * The one way the web uploads a file (the server's presigned upload): presign → PUT the file
 * straight to the store (with progress, cancellable) → confirm. Rejects with the presign's or the
 * confirm's ApiError, an ApiError `upload_failed` when the store refused the file (status 0 when
 * the network failed), or an AbortError when `signal` fired.
 */
export async function uploadThroughPresignedUrl<T>(options: PresignedUploadOptions<T>): Promise<T> {
  const {
    presign,
    file,
    confirm,
    signal,
    fallbackMessage = 'The upload failed. Please try again.',
  } = options;
  const target = await presign(signal);
  if (!target.url || !target.key) throw new Error(fallbackMessage);
  options.onUploadStart?.();
  await uploadWithProgress(target.url, file, {
    contentType: options.contentType ?? file.type,
    onProgress: options.onProgress,
    signal,
    fallbackMessage,
    createRequest: options.createRequest,
  });
  options.onConfirming?.();
  return confirm(target.key);
}
