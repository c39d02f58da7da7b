import { describe, expect, it } from 'vitest';
import {
  boothNote,
  countsSummary,
  ROLLOUT_TEXT,
  rolloutIsLive,
  rolloutProgress,
  shownBoothState,
  shownCounts,
  startBlockedReason,
  waveProgress,
} from './rollout-model';

const counts = { pending: 0, updating: 0, updated: 0, failed: 0, skipped: 0 };

describe('rollout model', () => {
  it('keeps reloading while the rollout runs, is paused or still has booths updating', () => {
    expect(rolloutIsLive(null)).toBe(false);
    expect(rolloutIsLive({ state: 'running', counts })).toBe(true);
    expect(rolloutIsLive({ state: 'paused', counts })).toBe(true);
    expect(rolloutIsLive({ state: 'completed', counts })).toBe(false);
    expect(rolloutIsLive({ state: 'stopped', counts: { ...counts, updating: 1 } })).toBe(true);
    expect(rolloutIsLive({ state: 'cancelled', counts: { ...counts, pending: 3 } })).toBe(false);
  });

  it('says why a rollout cannot start', () => {
    const base = { canManage: true, releaseVersion: '2.0.0', rollout: null };
    expect(startBlockedReason(base)).toBeNull();
    expect(startBlockedReason({ ...base, canManage: false })).toBe(ROLLOUT_TEXT.onlyAdmins);
    expect(startBlockedReason({ ...base, releaseVersion: null })).toBe(ROLLOUT_TEXT.noRelease);
    expect(startBlockedReason({ ...base, rollout: { state: 'running' } })).toBe(
      ROLLOUT_TEXT.active,
    );
    expect(startBlockedReason({ ...base, rollout: { state: 'paused' } })).toBe(ROLLOUT_TEXT.active);
    expect(startBlockedReason({ ...base, rollout: { state: 'stopped' } })).toBeNull();
    expect(startBlockedReason({ ...base, rollout: { state: 'completed' } })).toBeNull();
  });

  it('tells the wave and the counts', () => {
    expect(waveProgress({ state: 'running', current_wave: 2, wave_count: 3 })).toBe('Wave 2 of 3');
    expect(waveProgress({ state: 'completed', current_wave: 3, wave_count: 3 })).toBe(
      'All 3 waves done',
    );
    expect(countsSummary({ ...counts, updated: 4, updating: 1, failed: 1 })).toBe(
      '6 booths: 4 updated, 1 updating, 1 failed',
    );
    expect(countsSummary({ ...counts, pending: 1 })).toBe('1 booth: 1 pending');
    expect(countsSummary(counts)).toBe('0 booths');
  });

  it('explains a waiting booth and keeps the error of a failed one', () => {
    expect(boothNote({ state: 'pending', last_error: null, device_status: 'offline' })).toBe(
      'Waiting: the booth is offline.',
    );
    expect(boothNote({ state: 'pending', last_error: null, device_status: 'processing' })).toBe(
      'Waiting: the booth is busy (processing).',
    );
    expect(boothNote({ state: 'pending', last_error: null, device_status: 'idle' })).toBeNull();
    expect(boothNote({ state: 'failed', last_error: 'checksum', device_status: 'idle' })).toBe(
      'checksum',
    );
    expect(
      boothNote({ state: 'updated', last_error: 'old note', device_status: 'idle' }),
    ).toBeNull();
  });

  it('fills the bar only as far as booths are done: empty with none done', () => {
    expect(rolloutProgress({ ...counts, pending: 1 })).toEqual({
      done: 0,
      total: 1,
      text: '0 of 1 booth done',
      parts: [],
    });
    expect(rolloutProgress({ ...counts, updating: 1 }).parts).toEqual([]);
    expect(rolloutProgress({ ...counts, skipped: 1 }).text).toBe('0 of 1 booth done');
    expect(rolloutProgress({ ...counts, updated: 1, failed: 1, pending: 2 })).toEqual({
      done: 2,
      total: 4,
      text: '2 of 4 booths done',
      parts: [
        { state: 'updated', percent: 25 },
        { state: 'failed', percent: 25 },
      ],
    });
  });

  it('never shows a booth of a cancelled or stopped rollout as waiting', () => {
    const offline = { state: 'pending' as const, last_error: null, device_status: 'offline' };
    expect(boothNote(offline, 'cancelled')).toBe(
      'The rollout was cancelled before this booth was updated.',
    );
    expect(boothNote(offline, 'stopped')).toBe(
      'The rollout stopped before this booth was updated.',
    );
    expect(shownBoothState('pending', 'cancelled')).toBe('skipped');
    expect(shownBoothState('pending', 'paused')).toBe('pending');
    expect(shownBoothState('updating', 'cancelled')).toBe('updating');
    expect(countsSummary({ ...counts, skipped: 1 })).toBe('1 booth: 1 not updated');
    expect(shownCounts({ ...counts, pending: 2, skipped: 1 }, 'stopped')).toEqual({
      ...counts,
      skipped: 3,
    });
    expect(shownCounts({ ...counts, pending: 2 }, 'running')).toEqual({ ...counts, pending: 2 });
  });
});
