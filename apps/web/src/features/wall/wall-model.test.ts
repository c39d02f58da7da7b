import { describe, expect, it } from 'vitest';
import {
  WALL_MESSAGES,
  displayName,
  likeLabel,
  likeToggle,
  mediaWhere,
  pageAfterDelete,
  toggledLike,
} from './wall-model';

describe('likes', () => {
  it('liking adds one and marks it liked; unliking takes one away', () => {
    expect(toggledLike({ is_liked_by_caller: false, likes_count: 4 })).toEqual({
      is_liked_by_caller: true,
      likes_count: 5,
    });
    expect(toggledLike({ is_liked_by_caller: true, likes_count: 5 })).toEqual({
      is_liked_by_caller: false,
      likes_count: 4,
    });
  });

  it('never counts below zero', () => {
    expect(toggledLike({ is_liked_by_caller: true, likes_count: 0 }).likes_count).toBe(0);
  });

  it('shows the change at once, takes the server’s count, and reverts to the state before', () => {
    const before = { is_liked_by_caller: false, likes_count: 2 };
    const toggle = likeToggle(before);
    expect(toggle.optimistic).toEqual({ is_liked_by_caller: true, likes_count: 3 });
    // Someone else liked it meanwhile: the server's count wins.
    expect(toggle.settled({ is_liked_by_caller: true, likes_count: 7 })).toEqual({
      is_liked_by_caller: true,
      likes_count: 7,
    });
    expect(toggle.reverted()).toEqual(before);
  });

  it('names the button with its count', () => {
    expect(likeLabel(0)).toBe('Like, 0 likes');
    expect(likeLabel(1)).toBe('Like, 1 like');
    expect(likeLabel(12)).toBe('Like, 12 likes');
  });
});

describe('names and places', () => {
  it('falls back to "User" for a missing or blank name', () => {
    expect(displayName('Asha')).toBe('Asha');
    expect(displayName(null)).toBe('User');
    expect(displayName(undefined)).toBe('User');
    expect(displayName('   ')).toBe('User');
  });

  it('shows organization and booth, either alone, or Photobooth', () => {
    expect(mediaWhere({ org_name: 'Demo', device_name: 'Lobby' })).toBe('Demo · Lobby');
    expect(mediaWhere({ org_name: 'Demo', device_name: null })).toBe('Demo');
    expect(mediaWhere({ org_name: null, device_name: 'Lobby' })).toBe('Lobby');
    expect(mediaWhere({ org_name: null, device_name: null })).toBe('Photobooth');
  });
});

describe('comment paging', () => {
  it('goes back a page when the last comment of a later page is deleted', () => {
    expect(pageAfterDelete(3, 1)).toBe(2);
    expect(pageAfterDelete(3, 2)).toBe(3);
    expect(pageAfterDelete(1, 1)).toBe(1);
  });
});

describe('texts', () => {
  it('uses the spec’s wall messages', () => {
    expect(WALL_MESSAGES.empty).toBe('No public media found.');
    expect(WALL_MESSAGES.likeFailed).toBe('Failed to toggle like. Please try again.');
    expect(WALL_MESSAGES.commentAdded).toBe('Comment added!');
  });
});
