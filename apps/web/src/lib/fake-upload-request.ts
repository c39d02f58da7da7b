import type { UploadRequest } from './upload-with-progress';

/**
 * An XMLHttpRequest stand-in for upload tests: records what was sent and lets the test play the
 * store (progress, an answer, an abort). `sent` is called once the body is sent.
 */
export class FakeUploadRequest implements UploadRequest {
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: Blob | null = null;
  aborted = false;
  status = 0;
  upload: UploadRequest['upload'] = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;
  ontimeout: (() => void) | null = null;
  sent: () => void = () => undefined;

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }
  send(body: Blob) {
    this.body = body;
    this.sent();
  }
  abort() {
    this.aborted = true;
    this.onabort?.();
  }
  progress(loaded: number, total: number, lengthComputable = true) {
    this.upload.onprogress?.({ loaded, total, lengthComputable });
  }
  answer(status: number) {
    this.status = status;
    this.onload?.();
  }
}
