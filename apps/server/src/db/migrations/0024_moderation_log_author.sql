-- A comment a moderator deleted is its author's words: the log records whose they were, so
-- erasing the author's account, or the item the comment was on, clears the text while the record
-- of the moderation (who, what, when) stays. Entries from before this column have no known author,
-- and nothing reads their text: it goes now.
ALTER TABLE moderation_log ADD COLUMN comment_author_id integer;
--> statement-breakpoint
UPDATE moderation_log SET comment_text = NULL WHERE comment_text IS NOT NULL;
--> statement-breakpoint
CREATE INDEX moderation_log_comment_author_idx ON moderation_log (comment_author_id)
  WHERE comment_text IS NOT NULL;
