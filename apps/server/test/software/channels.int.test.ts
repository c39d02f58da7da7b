import { SOFTWARE_MESSAGES } from '@flashbooth/contracts';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { devices } from '../../src/db/schema.js';
import { databaseTargets } from '../databases.js';
import { type ChannelBody, expectError, useSoftwareSuite } from './software-suite.js';

describe.each(databaseTargets)('software channels on $name', ({ open }) => {
  const s = useSoftwareSuite(open);
  const { call, createChannel, postChannel, createRelease, registerDevice, setChannel } = s;

  it('creates, reads, changes and deletes channels with the spec fields', async () => {
    const release = await createRelease(undefined, 'First build');
    const created = await createChannel({
      name: `  Stable ${s.tag} `,
      description: 'Booths in malls',
      release_id: release.id,
    });
    expect(created).toEqual({
      id: expect.any(Number),
      name: `Stable ${s.tag}`,
      description: 'Booths in malls',
      release_id: release.id,
      release_version: release.version,
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/),
      created_by: s.superId,
      created_by_name: 'Asha Super',
    });
    // Without a release (the create dialog's default) and with an empty description.
    const bare = await createChannel({ name: `Beta ${s.tag}`, description: '', release_id: null });
    expect(bare).toMatchObject({ description: null, release_id: null, release_version: null });
    // The picker's value may come as text.
    expect(
      await createChannel({ name: `Text ${s.tag}`, release_id: String(release.id) }),
    ).toMatchObject({ release_id: release.id });

    expect((await call('GET', `software/channels/${created.id}`, s.superToken)).json()).toEqual(
      created,
    );

    // The edit dialog: name and description.
    const edited = await call('PATCH', `software/channels/${created.id}`, s.superToken, {
      name: 'Stable (malls)',
      description: '',
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({
      name: 'Stable (malls)',
      description: null,
      release_id: release.id,
    });
    // The link dialog: release_id, and null to unlink.
    const other = await createRelease();
    expect(
      (
        await call('PATCH', `software/channels/${bare.id}`, s.superToken, { release_id: other.id })
      ).json(),
    ).toMatchObject({
      release_id: other.id,
      release_version: other.version,
      name: `Beta ${s.tag}`,
    });
    expect(
      (
        await call('PATCH', `software/channels/${bare.id}`, s.superToken, { release_id: null })
      ).json(),
    ).toMatchObject({ release_id: null, release_version: null });
    expectError(
      await call('PATCH', `software/channels/${bare.id}`, s.superToken, { release_id: 99_999_999 }),
      404,
      SOFTWARE_MESSAGES.releaseNotFound,
    );
    expectError(
      await postChannel({ name: 'Dangling', release_id: 99_999_999 }),
      404,
      SOFTWARE_MESSAGES.releaseNotFound,
    );

    const removed = await call('DELETE', `software/channels/${bare.id}`, s.superToken);
    expect(removed.statusCode).toBe(204);
    expectError(
      await call('GET', `software/channels/${bare.id}`, s.superToken),
      404,
      SOFTWARE_MESSAGES.channelNotFound,
    );
    expectError(
      await call('DELETE', `software/channels/${bare.id}`, s.superToken),
      404,
      SOFTWARE_MESSAGES.channelNotFound,
    );
    expectError(
      await call('PATCH', `software/channels/${bare.id}`, s.superToken, { name: 'x' }),
      404,
      SOFTWARE_MESSAGES.channelNotFound,
    );
  });

  it('lists channels newest first, 9 a page by default, searching name and description', async () => {
    const prefix = `page-${s.tag}`;
    const ids: number[] = [];
    for (let index = 0; index < 11; index += 1) {
      ids.push(
        (
          await createChannel({
            name: `${prefix} ${index}`,
            description: index === 4 ? `only here ${s.tag}_%` : null,
          })
        ).id,
      );
    }
    const first = await call('GET', `software/channels?search=${prefix}`, s.superToken);
    expect(first.statusCode).toBe(200);
    const page = first.json<{ items: ChannelBody[]; total_count: number }>();
    expect(page.total_count).toBe(11);
    expect(page.items.map((item) => item.id)).toEqual(ids.slice().reverse().slice(0, 9));

    const second = await call(
      'GET',
      `software/channels?search=${prefix}&limit=9&offset=9`,
      s.superToken,
    );
    expect(second.json<{ items: ChannelBody[] }>().items.map((item) => item.id)).toEqual([
      ids[1],
      ids[0],
    ]);
    // The device dialog's picker loads 200; more is refused.
    const picker = await call('GET', `software/channels?search=${prefix}&limit=200`, s.superToken);
    expect(picker.json<{ items: unknown[] }>().items).toHaveLength(11);
    expect((await call('GET', 'software/channels?limit=201', s.superToken)).statusCode).toBe(400);

    // Description search; the pattern characters are literal.
    const byDescription = await call(
      'GET',
      `software/channels?search=${encodeURIComponent(`${s.tag}_%`)}`,
      s.superToken,
    );
    expect(byDescription.json<{ items: ChannelBody[] }>().items.map((item) => item.id)).toEqual([
      ids[4],
    ]);
    expect(
      (await call('GET', `software/channels?search=${prefix}%25`, s.superToken)).json(),
    ).toEqual({ items: [], total_count: 0 });
  });

  it("links devices to channels, refuses an unknown channel, and clears a deleted channel's devices", async () => {
    const channel = await createChannel({ name: `Fleet ${s.tag}` });
    const booth = await registerDevice();
    const linked = await setChannel(booth.id, channel.id);
    expect(linked.statusCode, linked.body).toBe(200);
    expect(linked.json()).toMatchObject({ software_channel_id: channel.id });

    expectError(await setChannel(booth.id, 99_999_999), 404, SOFTWARE_MESSAGES.channelNotFound);
    // The refused change left the device as it was.
    expect((await call('GET', `devices/${booth.id}`, s.superToken)).json()).toMatchObject({
      software_channel_id: channel.id,
    });

    expect((await call('DELETE', `software/channels/${channel.id}`, s.superToken)).statusCode).toBe(
      204,
    );
    const [row] = await s.database.db.select().from(devices).where(eq(devices.id, booth.id));
    expect(row!.softwareChannelId).toBeNull();
    expect((await call('GET', `devices/${booth.id}`, s.superToken)).json()).toMatchObject({
      software_channel_id: null,
    });
  });
});
