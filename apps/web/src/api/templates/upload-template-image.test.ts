import { afterEach, describe, expect, it, vi } from 'vitest';
import type * as apiClient from '@/lib/api-client';
import { apiRequest } from '@/lib/api-client';
import { uploadTemplateImage } from './upload-template-image';

vi.mock('@/lib/api-client', async (original) => ({
  ...(await original<typeof apiClient>()),
  apiRequest: vi.fn(),
}));

/** The store: answers every PUT with 200 once the body is sent. */
class FakeStore {
  static puts: { url: string; type: string | undefined; body: Blob }[] = [];
  status = 0;
  upload = { onprogress: null };
  onload: (() => void) | null = null;
  onerror = null;
  onabort = null;
  ontimeout = null;
  private url = '';
  private type: string | undefined;
  open(_method: string, url: string) {
    this.url = url;
  }
  setRequestHeader(_name: string, value: string) {
    this.type = value;
  }
  send(body: Blob) {
    FakeStore.puts.push({ url: this.url, type: this.type, body });
    this.status = 200;
    queueMicrotask(() => this.onload?.());
  }
  abort() {}
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.mocked(apiRequest).mockReset();
  FakeStore.puts = [];
});

describe('uploadTemplateImage', () => {
  it('presigns with the name and type, PUTs the file, then confirms {kind}_key', async () => {
    vi.stubGlobal('XMLHttpRequest', FakeStore);
    const template = { id: 4 };
    vi.mocked(apiRequest)
      .mockResolvedValueOnce({ foreground_key: 'templates/4/f.png', upload_url: '/put?sig=1' })
      .mockResolvedValueOnce(template);
    const png = new Blob([new Uint8Array(8)], { type: 'image/png' });

    await expect(
      uploadTemplateImage(4, 'foreground', png, { filename: 'landscape-overlay.png' }),
    ).resolves.toBe(template);

    const fallbackMessage = 'Failed to upload foreground image. Please try again.';
    expect(vi.mocked(apiRequest).mock.calls).toEqual([
      [
        'enterprise',
        'templates/4/foreground/presigned_upload',
        {
          method: 'POST',
          body: { filename: 'landscape-overlay.png', contentType: 'image/png' },
          fallbackMessage,
          signal: undefined,
        },
      ],
      [
        'enterprise',
        'templates/4/foreground/confirm',
        { method: 'POST', body: { foreground_key: 'templates/4/f.png' }, fallbackMessage },
      ],
    ]);
    expect(FakeStore.puts).toEqual([{ url: '/put?sig=1', type: 'image/png', body: png }]);
  });

  it("fails with the kind's message, confirming nothing, when the presign answers no key", async () => {
    vi.mocked(apiRequest).mockResolvedValueOnce({ upload_url: '/put?sig=1' });
    const file = new File([new Uint8Array(8)], 'sample.jpg', { type: 'image/jpeg' });
    await expect(uploadTemplateImage(4, 'sample', file)).rejects.toThrow(
      'Failed to upload sample image. Please try again.',
    );
    expect(vi.mocked(apiRequest).mock.calls[0]?.[2]).toMatchObject({
      body: { filename: 'sample.jpg', contentType: 'image/jpeg' },
    });
    expect(apiRequest).toHaveBeenCalledTimes(1);
  });
});
