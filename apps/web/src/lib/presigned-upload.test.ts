import { describe, expect, it, vi } from 'vitest';
import { ApiError } from './api-client';
import { FakeUploadRequest } from './fake-upload-request';
import { uploadThroughPresignedUrl, type PresignedUploadOptions } from './presigned-upload';

const file = new Blob([new Uint8Array(200)], { type: 'image/png' });

function setup(overrides: Partial<PresignedUploadOptions<string>> = {}) {
  const request = new FakeUploadRequest();
  const events: string[] = [];
  const presign = vi.fn(async (signal?: AbortSignal) => {
    events.push(`presign${signal ? ' (signal)' : ''}`);
    return { url: '/api/storage/objects/logos/1/a.png?sig=1', key: 'logos/1/a.png' };
  });
  const confirm = vi.fn(async (key: string) => {
    events.push(`confirm ${key}`);
    return `confirmed ${key}`;
  });
  const options: PresignedUploadOptions<string> = {
    presign,
    file,
    confirm,
    onUploadStart: () => events.push('upload start'),
    onProgress: ({ percent }) => events.push(`${percent}%`),
    onConfirming: () => events.push('confirming'),
    createRequest: () => request,
    fallbackMessage: 'Failed to upload logo. Please try again.',
    ...overrides,
  };
  return { request, events, presign, confirm, options };
}

describe('uploadThroughPresignedUrl', () => {
  it('presigns, PUTs the file to the signed URL with progress, then confirms the key', async () => {
    const { request, events, options } = setup();
    request.sent = () => {
      request.progress(50, 200);
      request.answer(200);
    };
    await expect(uploadThroughPresignedUrl(options)).resolves.toBe('confirmed logos/1/a.png');
    expect(request.method).toBe('PUT');
    expect(request.url).toBe('/api/storage/objects/logos/1/a.png?sig=1');
    expect(request.headers).toEqual({ 'Content-Type': 'image/png' });
    expect(request.body).toBe(file);
    expect(events).toEqual([
      'presign',
      'upload start',
      '0%',
      '25%',
      '100%',
      'confirming',
      'confirm logos/1/a.png',
    ]);
  });

  it('PUTs with the type the URL was signed for when given', async () => {
    const { request, options } = setup({ contentType: 'application/octet-stream' });
    request.sent = () => request.answer(204);
    await uploadThroughPresignedUrl(options);
    expect(request.headers['Content-Type']).toBe('application/octet-stream');
  });

  it('does not confirm when the store refuses the file', async () => {
    const { request, confirm, options } = setup();
    request.sent = () => request.answer(403);
    await expect(uploadThroughPresignedUrl(options)).rejects.toEqual(
      new ApiError('Failed to upload logo. Please try again.', 403, 'upload_failed'),
    );
    expect(confirm).not.toHaveBeenCalled();
  });

  it("passes the presign's failure on, and fails when it answers no URL", async () => {
    const refused = new ApiError('Only PNG or JPEG.', 400, 'bad_request');
    const failing = setup({ presign: () => Promise.reject(refused) });
    await expect(uploadThroughPresignedUrl(failing.options)).rejects.toBe(refused);
    expect(failing.request.method).toBe('');

    const empty = setup({ presign: async () => ({ url: '', key: 'k' }) });
    await expect(uploadThroughPresignedUrl(empty.options)).rejects.toThrow(
      'Failed to upload logo. Please try again.',
    );
    expect(empty.confirm).not.toHaveBeenCalled();
  });

  it('cancels the PUT when the signal fires, and hands the signal to the presign', async () => {
    const controller = new AbortController();
    const { request, events, confirm, options } = setup({ signal: controller.signal });
    request.sent = () => controller.abort();
    await expect(uploadThroughPresignedUrl(options)).rejects.toMatchObject({ name: 'AbortError' });
    expect(request.aborted).toBe(true);
    expect(events[0]).toBe('presign (signal)');
    expect(confirm).not.toHaveBeenCalled();
  });
});
