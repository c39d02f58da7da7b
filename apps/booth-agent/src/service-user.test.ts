import { describe, expect, it } from 'vitest';
import { lookUpUser, type ProcessIds, runAsServiceUser } from './service-user.js';

function fakeProcess(uid: number) {
  const calls: string[] = [];
  const proc: ProcessIds = {
    getuid: () => uid,
    initgroups: (user, group) => calls.push(`initgroups ${user} ${group}`),
    setgid: (id) => calls.push(`setgid ${id}`),
    setuid: (id) => calls.push(`setuid ${id}`),
    env: { HOME: '/root', USER: 'root' },
  };
  return { proc, calls };
}

const flashbooth = { name: 'flashbooth', uid: 998, gid: 997, home: '/var/lib/flashbooth-booth' };

describe('runAsServiceUser', () => {
  it('as root, takes the service user’s groups, then its group, then its user', () => {
    const { proc, calls } = fakeProcess(0);
    const said = runAsServiceUser('flashbooth', proc, (name) =>
      name === 'flashbooth' ? flashbooth : undefined,
    );
    expect(said).toBe("Running as flashbooth, the service's user (dropped from root).");
    // The user last: once it is not root, the group could no longer change.
    expect(calls).toEqual(['initgroups flashbooth 997', 'setgid 997', 'setuid 998']);
    expect(proc.env).toMatchObject({ HOME: '/var/lib/flashbooth-booth', USER: 'flashbooth' });
  });

  it('as root without the user, stays root and says so', () => {
    const { proc, calls } = fakeProcess(0);
    expect(runAsServiceUser('flashbooth', proc, () => undefined)).toMatch(
      /^Running as root: there is no user flashbooth here \(install.sh makes it\)/,
    );
    expect(calls).toEqual([]);
  });

  it('as another user, changes nothing', () => {
    const { proc, calls } = fakeProcess(1000);
    expect(runAsServiceUser('flashbooth', proc, () => flashbooth)).toMatch(/^Running as /);
    expect(calls).toEqual([]);
  });

  it('reads a passwd entry through getent', () => {
    expect(lookUpUser('root')).toMatchObject({ name: 'root', uid: 0, gid: 0 });
    expect(lookUpUser('no-such-user-flashbooth-test')).toBeUndefined();
  });
});
