import { describe, expect, it } from 'vitest';
import { DeviceReplyMessageSchema } from './devices.js';

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
