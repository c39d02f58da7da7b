import { ApiError } from './api-client';

/** How far an upload has come: bytes sent of the total, and the whole percentage (0–100). */
export interface UploadProgress {
  loaded: number;
  total: number;
  percent: number;
}

/** What an upload progress event carries. */
export interface UploadProgressEvent {
  loaded: number;
  total: number;
  lengthComputable: boolean;
}

/** The parts of XMLHttpRequest an upload uses (a test hands in a fake). */
export interface UploadRequest {
  open(method: string, url: string): void;
  setRequestHeader(name: string, value: string): void;
  send(body: Blob): void;
  abort(): void;
  readonly status: number;
  readonly upload: {
    onprogress: ((event: UploadProgressEvent) => void) | null;
  };
  onload: (() => void) | null;
  onerror: (() => void) | null;
  onabort: (() => void) | null;
  ontimeout: (() => void) | null;
}

export interface UploadOptions {
  /** The Content-Type the URL was signed for (the file's own type when absent). */
  contentType?: string;
  /** Called as the browser sends the body, and once with 100 % when the store has answered. */
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
  /** The error's message when the upload fails. */
  fallbackMessage?: string;
  /** Makes the request (tests); a real XMLHttpRequest by default. */
  createRequest?: () => UploadRequest;
}

/** The whole percentage of `loaded` over `total`, held within 0–100 (0 when nothing is known). */
export function uploadPercent(loaded: number, total: number): number {
  if (!(total > 0) || !(loaded > 0)) return 0;
  return Math.min(100, Math.max(0, Math.floor((loaded / total) * 100)));
}

/**
 * PUTs a file straight to a presigned upload URL (the object store, not the API), reporting the
 * upload's own progress events. fetch() has no upload progress, so this is XMLHttpRequest. No
 * Authorization header goes with it: the signature in the URL is the only credential. Resolves
 * once the store answered 2xx; rejects with an ApiError (status 0 when the network failed, the
 * store's status otherwise) or an AbortError.
 */
export function uploadWithProgress(
  url: string,
  file: Blob,
  options: UploadOptions = {},
): Promise<void> {
  const {
    contentType = file.type,
    onProgress,
    signal,
    fallbackMessage = 'The upload failed. Please try again.',
    createRequest = () => new XMLHttpRequest(),
  } = options;
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(new DOMException('The upload was cancelled.', 'AbortError'));
      return;
    }
    const request = createRequest();
    const total = file.size;
    const report = (loaded: number, of: number) =>
      onProgress?.({ loaded, total: of, percent: uploadPercent(loaded, of) });
    const stopListening = () => signal?.removeEventListener('abort', cancel);
    function cancel() {
      request.abort();
    }

    request.open('PUT', url);
    if (contentType) request.setRequestHeader('Content-Type', contentType);
    request.upload.onprogress = (event: UploadProgressEvent) =>
      report(event.loaded, event.lengthComputable ? event.total : total);
    request.onload = () => {
      stopListening();
      if (request.status >= 200 && request.status < 300) {
        onProgress?.({ loaded: total, total, percent: 100 });
        resolve();
      } else {
        reject(new ApiError(fallbackMessage, request.status, 'upload_failed'));
      }
    };
    request.onerror = () => {
      stopListening();
      reject(new ApiError(fallbackMessage, 0, 'upload_failed'));
    };
    request.ontimeout = request.onerror;
    request.onabort = () => {
      stopListening();
      reject(new DOMException('The upload was cancelled.', 'AbortError'));
    };
    signal?.addEventListener('abort', cancel, { once: true });
    report(0, total);
    request.send(file);
  });
}
