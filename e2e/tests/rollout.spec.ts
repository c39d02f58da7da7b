import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { startBooth, type TestBooth } from './booths';
import { signInSeededStaff, STAFF_PHONE, staffApi, uniqueTag } from './support';

/*
 * Staged rollout (issue 11): a super user links a release with a real file to a fresh channel
 * whose booths this test runs itself (the real booth agent, which downloads, checks size and
 * SHA-256 and installs), presses "Roll out {version}", confirms, and sees every booth reach
 * "Updated" with the new version without reloading the page.
 */

const booths: TestBooth[] = [];
test.afterEach(async () => {
  for (const booth of booths.splice(0)) await booth.agent.stop();
});

test(
  'a super user rolls a release out to a channel and sees each booth update live',
  { tag: '@flow' },
  async ({ page, request, baseURL }) => {
    test.setTimeout(90_000);
    const api = await staffApi(request);
    const tag = uniqueTag();
    const version = `3.0.0-${tag}`;

    // A release with a file the agent can really install, linked to a fresh channel.
    const release = await api.call<{ id: number }>('post', 'software/releases', { version });
    const presigned = await api.call<{ upload_url: string; s3_key: string }>(
      'post',
      `software/releases/${release.id}/file/presigned_upload`,
      { filename: 'flashbooth-agent.bin' },
    );
    const put = await request.put(presigned.upload_url, {
      data: randomBytes(32 * 1024),
      headers: { 'content-type': 'application/octet-stream' },
    });
    expect(put.status()).toBe(204);
    await api.call('post', `software/releases/${release.id}/file/confirm`, {
      s3_key: presigned.s3_key,
    });
    const channel = await api.call<{ id: number }>('post', 'software/channels', {
      name: `Rollout ${tag}`,
      release_id: release.id,
    });

    // Two booths of the test's own, on that channel, running the real agent.
    const orgId = await api.demoOrgId();
    for (const name of [`Canary ${tag}`, `Lobby ${tag}`]) {
      const registered = await api.createBooth(name, orgId);
      await api.call('patch', `devices/${registered.id}`, { software_channel_id: channel.id });
      booths.push(
        await startBooth(registered, baseURL!, {
          releasesDir: mkdtempSync(path.join(os.tmpdir(), 'flashbooth-e2e-releases-')),
        }),
      );
    }

    await signInSeededStaff(page, STAFF_PHONE, `/enterprise/software/channels/${channel.id}`);
    const panel = page.getByRole('region', { name: /Staged Rollout/ });
    await expect(panel.getByText(/^No rollout yet\./)).toBeVisible();

    await panel.getByRole('button', { name: `Roll out ${version}` }).click();
    const dialog = page.getByRole('dialog', { name: `Roll out ${version}` });
    await expect(dialog).toContainText('one booth first, then a quarter of the rest');
    await dialog.getByRole('button', { name: 'Roll out', exact: true }).click();
    await expect(dialog).toBeHidden();

    // Live: no reload from here on.
    await expect(panel.getByText(`Rollout of ${version} started.`)).toBeVisible();
    await expect(panel.getByTestId('wave-1')).toBeVisible();
    await expect(panel.getByTestId('wave-2')).toBeVisible();
    await expect(panel.getByTestId('rollout-state')).toHaveText('Completed', { timeout: 45_000 });
    for (const booth of booths) {
      const row = panel.getByTestId(`rollout-booth-${booth.id}`);
      await expect(row.getByTestId('booth-state')).toHaveText('Updated');
      await expect(row.getByTestId('booth-version')).toHaveText(version);
      expect(booth.agent.softwareVersion).toBe(version);
      expect(booth.errors).toEqual([]);
    }
    await expect(panel.getByTestId('rollout-counts')).toHaveText('2 booths: 2 updated');
    // Finished: a new rollout may start again (the booths would answer up to date).
    await expect(panel.getByRole('button', { name: `Roll out ${version}` })).toBeEnabled();
  },
);
