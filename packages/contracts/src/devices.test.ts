import { describe, expect, it } from 'vitest';
import { CaptureCommandPayloadSchema, DeviceReplyMessageSchema } from './devices.js';

describe('DeviceReplyMessageSchema', () => {
  it("carries a ping reply's applied settings revision", () => {
    const reply = DeviceReplyMessageSchema.parse({
      id: 'c1',
      status: 'idle',
      settings_revision: 3,
    });
    expect(reply.settings_revision).toBe(3);
  });

  it.each([-1, 1.5, '3'])('treats settings_revision %j as absent and keeps the reply', (value) => {
    const reply = DeviceReplyMessageSchema.parse({
      id: 'c1',
      status: 'idle',
      settings_revision: value,
    });
    expect(reply).toMatchObject({ id: 'c1', status: 'idle' });
    expect(reply.settings_revision).toBeUndefined();
  });
});

describe('CaptureCommandPayloadSchema', () => {
  const photo = {
    capture_id: '6f1c2b9e-3d4a-4e5f-8a7b-9c0d1e2f3a4b',
    template: {
      id: 1,
      name: 'Strips',
      orientation: 'portrait',
      is_cut: true,
      is_duplicated: false,
      images: [{ x: 61, y: 555, w: 1080, h: 720, filter: 'none' }],
      foreground_url: null,
    },
    total_captures: 1,
    uploads: [{ media_id: 7, upload_url: '/up/7', content_type: 'image/jpeg' }],
  };

  it('reads a payload from before motion as a photo capture', () => {
    const payload = CaptureCommandPayloadSchema.parse(photo);
    expect(payload.template.capture_kind).toBe('photo');
    expect(payload.template.motion).toBeNull();
  });

  it('carries a motion item with its poster, preview and gif links, then the print', () => {
    const payload = CaptureCommandPayloadSchema.parse({
      ...photo,
      template: {
        ...photo.template,
        capture_kind: 'gif',
        motion: { frames: 4, seconds: 5, speed: 1.5, print: true },
      },
      uploads: [
        {
          media_id: 8,
          upload_url: '/up/8.mp4',
          content_type: 'video/mp4',
          poster_upload_url: '/up/8.jpg',
          preview_upload_url: '/up/8.webp',
          gif_upload_url: '/up/8.gif',
        },
        ...photo.uploads,
      ],
    });
    expect(payload.uploads[0]).toMatchObject({
      content_type: 'video/mp4',
      gif_upload_url: '/up/8.gif',
    });
    expect(payload.uploads[1]).toEqual(photo.uploads[0]);
  });

  it('refuses a video upload without its poster and preview links', () => {
    const result = CaptureCommandPayloadSchema.safeParse({
      ...photo,
      uploads: [{ media_id: 8, upload_url: '/up/8.mp4', content_type: 'video/mp4' }],
    });
    expect(result.success).toBe(false);
  });
});
