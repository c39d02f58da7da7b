import type { ModerationLogEntry } from '@flashbooth/contracts';
import { describe, expect, it } from 'vitest';
import {
  MODERATION_LOG_MESSAGES,
  moderationLogLine,
  moderationLogRange,
} from './moderation-log-model';

const entry: ModerationLogEntry = {
  id: 1,
  action: 'hide_media',
  media_id: 12,
  comment_id: null,
  actor_id: 3,
  actor_name: 'Asha Admin',
  created_at: '2025-05-14T10:20:30',
};

describe('moderation log model', () => {
  it('says who did what to which item, and when in UTC', () => {
    expect(moderationLogLine(entry)).toEqual({
      text: 'Asha Admin: hid from the wall item #12',
      when: '14/05/2025 10:20',
    });
    expect(moderationLogLine({ ...entry, action: 'show_media' }).text).toBe(
      'Asha Admin: showed on the wall again item #12',
    );
    expect(moderationLogLine({ ...entry, action: 'delete_comment', comment_id: 5 }).text).toBe(
      'Asha Admin: deleted a comment on item #12',
    );
  });

  it('names a moderator whose account is gone as a former staff member', () => {
    expect(moderationLogLine({ ...entry, actor_name: null }).text).toBe(
      `${MODERATION_LOG_MESSAGES.formerStaff}: hid from the wall item #12`,
    );
  });

  it('says which entries are shown', () => {
    expect(moderationLogRange(10, 10, 34)).toBe('Entries 11–20 of 34');
    expect(moderationLogRange(30, 4, 34)).toBe('Entries 31–34 of 34');
    expect(moderationLogRange(0, 0, 0)).toBe('');
  });
});
