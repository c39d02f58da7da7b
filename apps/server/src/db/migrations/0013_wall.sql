-- The public wall (issue 13): likes with an exact counter, comments, moderation and its log.
-- A moderator's hide keeps the item in its owner's My Media; the wall leaves it out.
ALTER TABLE media ADD COLUMN likes_count integer NOT NULL DEFAULT 0;
--> statement-breakpoint
ALTER TABLE media ADD CONSTRAINT media_likes_count_check CHECK (likes_count >= 0);
--> statement-breakpoint
ALTER TABLE media ADD COLUMN hidden_from_wall_at timestamptz;
--> statement-breakpoint
ALTER TABLE media ADD COLUMN hidden_from_wall_by integer REFERENCES users (id) ON DELETE SET NULL;
--> statement-breakpoint
-- The wall's pages: uploaded public items not hidden, newest first (a partial index, about a
-- tenth of the table), so the first page reads 10 index entries and a deep page skips entries.
CREATE INDEX media_wall_idx ON media (created_at DESC, id DESC)
  WHERE is_public AND is_uploaded AND hidden_from_wall_at IS NULL;
--> statement-breakpoint
-- One like per visitor and item (the primary key makes liking twice one like).
CREATE TABLE media_likes (
  media_id integer NOT NULL REFERENCES media (id) ON DELETE CASCADE,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (media_id, user_id)
);
--> statement-breakpoint
CREATE INDEX media_likes_user_idx ON media_likes (user_id);
--> statement-breakpoint
-- media.likes_count follows media_likes in the statement that changes it, whatever changes it
-- (a like, an unlike, a visitor's account deleted with its likes): the media row's lock orders
-- concurrent likes of one item, so the count stays exact.
CREATE FUNCTION media_likes_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    UPDATE media SET likes_count = likes_count + 1 WHERE id = NEW.media_id;
    RETURN NEW;
  END IF;
  UPDATE media SET likes_count = likes_count - 1 WHERE id = OLD.media_id;
  RETURN OLD;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER media_likes_count_trigger AFTER INSERT OR DELETE ON media_likes
  FOR EACH ROW EXECUTE FUNCTION media_likes_count();
--> statement-breakpoint
CREATE TABLE media_comments (
  id serial PRIMARY KEY,
  media_id integer NOT NULL REFERENCES media (id) ON DELETE CASCADE,
  user_id integer NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  comment_text text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  CONSTRAINT media_comments_text_check CHECK (char_length(comment_text) BETWEEN 1 AND 500)
);
--> statement-breakpoint
-- An item's comments newest first.
CREATE INDEX media_comments_media_idx ON media_comments (media_id, created_at DESC, id DESC);
--> statement-breakpoint
CREATE INDEX media_comments_user_idx ON media_comments (user_id);
--> statement-breakpoint
-- Every moderation action with who took it. Ids are kept as plain numbers (no foreign keys) so
-- the record outlives the item, the comment and the account; a deleted comment's text is kept.
CREATE TABLE moderation_log (
  id bigserial PRIMARY KEY,
  actor_id integer NOT NULL,
  action text NOT NULL CHECK (action IN ('hide_media', 'show_media', 'delete_comment')),
  media_id integer NOT NULL,
  comment_id integer,
  comment_text text,
  created_at timestamptz NOT NULL DEFAULT now()
);
--> statement-breakpoint
CREATE INDEX moderation_log_media_idx ON moderation_log (media_id, created_at DESC);
