import { SOFTWARE_MESSAGES } from '@flashbooth/contracts';
import { describe, expect, it } from 'vitest';
import { databaseTargets } from '../databases.js';
import { expectError, type Method, useSoftwareSuite } from './software-suite.js';

describe.each(databaseTargets)('software validation and permissions on $name', ({ open }) => {
  const s = useSoftwareSuite(open);
  const { call, createChannel, createRelease } = s;

  it('validates channels and releases with the spec messages', async () => {
    for (const body of [{}, { name: '' }, { name: '   ' }, { name: null }, { description: 'd' }]) {
      expectError(
        await call('POST', 'software/channels', s.superToken, body),
        400,
        SOFTWARE_MESSAGES.channelNameRequired,
      );
    }
    expectError(
      await call('POST', 'software/channels', s.superToken, { name: 'x'.repeat(101) }),
      400,
      SOFTWARE_MESSAGES.channelNameTooLong,
    );
    expectError(
      await call('POST', 'software/channels', s.superToken, { name: 'x', release_id: 'abc' }),
      400,
      SOFTWARE_MESSAGES.releaseIdInvalid,
    );
    const channel = await createChannel({ name: `Validation ${s.tag}` });
    expectError(
      await call('PATCH', `software/channels/${channel.id}`, s.superToken, {}),
      400,
      SOFTWARE_MESSAGES.noChanges,
    );
    expectError(
      await call('PATCH', `software/channels/${channel.id}`, s.superToken, { name: '  ' }),
      400,
      SOFTWARE_MESSAGES.channelNameRequired,
    );
    expect(
      (await call('PATCH', `software/channels/${channel.id}`, s.superToken, { colour: 'red' }))
        .statusCode,
    ).toBe(400);

    for (const body of [{}, { version: '' }, { version: '  ' }, { release_notes: 'n' }]) {
      expectError(
        await call('POST', 'software/releases', s.superToken, body),
        400,
        SOFTWARE_MESSAGES.versionRequired,
      );
    }
    for (const version of ['1.0 beta', '../1.0', '.hidden', '1.0/2']) {
      expectError(
        await call('POST', 'software/releases', s.superToken, { version }),
        400,
        SOFTWARE_MESSAGES.versionCharacters,
      );
    }
    const release = await createRelease();
    expectError(
      await call('PATCH', `software/releases/${release.id}`, s.superToken, {}),
      400,
      SOFTWARE_MESSAGES.noChanges,
    );
    expectError(
      await call('PATCH', `software/releases/${release.id}`, s.superToken, { version: ' ' }),
      400,
      SOFTWARE_MESSAGES.versionRequired,
    );
    expectError(
      await call('POST', `software/releases/${release.id}/file/presigned_upload`, s.superToken, {
        filename: 'page.html',
        contentType: 'text/html',
      }),
      400,
      SOFTWARE_MESSAGES.contentType,
    );
    expectError(
      await call('POST', `software/releases/${release.id}/file/confirm`, s.superToken, {}),
      400,
      SOFTWARE_MESSAGES.s3KeyRequired,
    );
  });

  it('refuses every software call to other staff (403) and to visitors and strangers (401)', async () => {
    const channel = await createChannel({ name: `Guarded ${s.tag}` });
    const release = await createRelease();
    const calls: [Method, string, object?][] = [
      ['POST', 'software/channels', { name: 'Mine' }],
      ['GET', 'software/channels'],
      ['GET', `software/channels/${channel.id}`],
      ['PATCH', `software/channels/${channel.id}`, { name: 'Mine' }],
      ['DELETE', `software/channels/${channel.id}`],
      ['POST', 'software/releases', { version: `9.9.9-${s.tag}` }],
      ['GET', 'software/releases'],
      ['GET', `software/releases/${release.id}`],
      ['PATCH', `software/releases/${release.id}`, { release_notes: 'x' }],
      ['DELETE', `software/releases/${release.id}`],
      ['POST', `software/releases/${release.id}/file/presigned_upload`, { filename: 'a.bin' }],
      [
        'POST',
        `software/releases/${release.id}/file/confirm`,
        { s3_key: `software/releases/${release.id}/00000000-0000-0000-0000-000000000000.bin` },
      ],
    ];
    for (const [method, url, body] of calls) {
      for (const token of [s.orgAdmin, s.orgMember, s.outsider]) {
        expectError(await call(method, url, token, body), 403, SOFTWARE_MESSAGES.onlyAdmins);
      }
      expect((await call(method, url, s.visitor, body)).statusCode).toBe(401);
      expect((await call(method, url, undefined, body)).statusCode).toBe(401);
    }
    // Nothing was changed by the refused calls; product admins may do everything.
    expect(
      (await call('GET', `software/channels/${channel.id}`, s.productAdminToken)).json(),
    ).toEqual(channel);
    expect(
      (
        await call('PATCH', `software/releases/${release.id}`, s.productAdminToken, {
          release_notes: 'By the product admin',
        })
      ).json(),
    ).toMatchObject({ release_notes: 'By the product admin' });
    expect(
      (await call('POST', 'software/channels', s.productAdminToken, { name: `PA ${s.tag}` }))
        .statusCode,
    ).toBe(201);
  });
});
