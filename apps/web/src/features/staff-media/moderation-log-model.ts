import type { ModerationLogEntry } from '@flashbooth/contracts';
import { formatUtcTimestamp } from '@/lib/format-date';

/** Entries per page of the moderation log. */
export const MODERATION_LOG_PAGE_SIZE = 10;

export const MODERATION_LOG_MESSAGES = {
  title: 'Moderation log',
  intro: 'Who hid or showed which item on the wall, or deleted a comment, and when (UTC).',
  empty: 'No moderation yet: nothing of this organization has been hidden or deleted.',
  loadFailed: 'Failed to load the moderation log. Please try again.',
  formerStaff: 'A former staff member',
} as const;

const ACTIONS: Record<ModerationLogEntry['action'], string> = {
  hide_media: 'Hid from the wall',
  show_media: 'Showed on the wall again',
  delete_comment: 'Deleted a comment on',
};

/** One entry as a line: "Asha Admin hid from the wall item #12" and its time. */
export function moderationLogLine(entry: ModerationLogEntry): { text: string; when: string } {
  const who = entry.actor_name ?? MODERATION_LOG_MESSAGES.formerStaff;
  const what = ACTIONS[entry.action];
  return {
    text: `${who}: ${what.charAt(0).toLowerCase()}${what.slice(1)} item #${entry.media_id}`,
    when: formatUtcTimestamp(entry.created_at),
  };
}

/** "Entries 11–20 of 34", for the pager. */
export function moderationLogRange(offset: number, shown: number, total: number): string {
  if (total === 0) return '';
  return `Entries ${offset + 1}–${offset + shown} of ${total}`;
}
