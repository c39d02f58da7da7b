import { describe, expect, it } from 'vitest';
import { ApiError } from './api-client';
import { FakeUploadRequest } from './fake-upload-request';
import { uploadPercent, uploadWithProgress, type UploadProgress } from './upload-with-progress';

const file = (bytes: number, type = 'application/octet-stream') =>
  new Blob([new Uint8Array(bytes)], { type });

function start(blob: Blob, options: Parameters<typeof uploadWithProgress>[2] = {}) {
  const request = new FakeUploadRequest();
  const seen: UploadProgress[] = [];
  const done = uploadWithProgress('/api/storage/objects/a.bin?sig=1', blob, {
    onProgress: (progress) => seen.push(progress),
    createRequest: () => request,
    ...options,
  });
  return { request, seen, done };
}

describe('uploadPercent', () => {
  it('is the whole percentage, within 0 and 100', () => {
    expect(uploadPercent(0, 200)).toBe(0);
    expect(uploadPercent(1, 200)).toBe(0);
    expect(uploadPercent(99, 200)).toBe(49);
    expect(uploadPercent(200, 200)).toBe(100);
    expect(uploadPercent(300, 200)).toBe(100);
    expect(uploadPercent(10, 0)).toBe(0);
    expect(uploadPercent(Number.NaN, 10)).toBe(0);
  });
});

describe('uploadWithProgress', () => {
  it('PUTs the file with the signed type and reports the upload events, then 100 %', async () => {
    const blob = file(1000);
    const { request, seen, done } = start(blob, { contentType: 'application/zip' });
    expect(request.method).toBe('PUT');
    expect(request.url).toBe('/api/storage/objects/a.bin?sig=1');
    expect(request.headers).toEqual({ 'Content-Type': 'application/zip' });
    expect(request.body).toBe(blob);
    request.progress(250, 1000);
    request.progress(900, 1000);
    request.answer(204);
    await done;
    expect(seen.map((progress) => progress.percent)).toEqual([0, 25, 90, 100]);
    expect(seen.at(-1)).toEqual({ loaded: 1000, total: 1000, percent: 100 });
  });

  it("uses the file's own type by default and its size when the event knows no total", async () => {
    const { request, seen, done } = start(file(400, 'application/gzip'));
    expect(request.headers['Content-Type']).toBe('application/gzip');
    request.progress(100, 0, false);
    request.answer(200);
    await done;
    expect(seen[1]).toEqual({ loaded: 100, total: 400, percent: 25 });
  });

  it("fails with the store's status, or 0 when the network failed", async () => {
    const refused = start(file(10), { fallbackMessage: 'File upload process failed.' });
    refused.request.answer(403);
    await expect(refused.done).rejects.toEqual(
      new ApiError('File upload process failed.', 403, 'upload_failed'),
    );
    expect(refused.seen.map((progress) => progress.percent)).toEqual([0]);

    const offline = start(file(10));
    offline.request.onerror?.();
    await expect(offline.done).rejects.toMatchObject({ status: 0, code: 'upload_failed' });
  });

  it('aborts the request when the signal fires, and never starts one already aborted', async () => {
    const controller = new AbortController();
    const { request, done } = start(file(10), { signal: controller.signal });
    controller.abort();
    await expect(done).rejects.toMatchObject({ name: 'AbortError' });
    expect(request.aborted).toBe(true);

    const late = start(file(10), { signal: AbortSignal.abort() });
    await expect(late.done).rejects.toMatchObject({ name: 'AbortError' });
    expect(late.request.method).toBe('');
  });
});
