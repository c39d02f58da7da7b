-- The wall at a million media (issue 13, docs/benchmarks.md): an exact total kept by trigger, and
-- trigram indexes for its search. pg_trgm is a trusted extension on PostgreSQL (no superuser
-- needed) and ships with PGlite, which loads it in db/client.ts.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
-- How many media are on the wall (public, uploaded, not hidden): the wall's total_count without
-- a search, one row read instead of counting a tenth of the media table on every request.
CREATE TABLE wall_stats (
  id smallint PRIMARY KEY,
  media_count integer NOT NULL,
  CONSTRAINT wall_stats_id_check CHECK (id = 1),
  CONSTRAINT wall_stats_media_count_check CHECK (media_count >= 0)
);
--> statement-breakpoint
INSERT INTO wall_stats (id, media_count)
SELECT 1, count(*) FROM media WHERE is_public AND is_uploaded AND hidden_from_wall_at IS NULL;
--> statement-breakpoint
-- Kept exact by the statement that moves an item on or off the wall (insert, delete, a change of
-- is_public, is_uploaded or hidden_from_wall_at), in its transaction: the row's lock orders
-- concurrent changes and each adds its own +1 or -1 to the committed value.
CREATE FUNCTION wall_stats_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE wall_stats
  SET media_count = media_count + CASE
    WHEN TG_OP = 'INSERT' THEN 1
    WHEN TG_OP = 'DELETE' THEN -1
    WHEN NEW.is_public AND NEW.is_uploaded AND NEW.hidden_from_wall_at IS NULL THEN 1
    ELSE -1
  END
  WHERE id = 1;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER wall_stats_insert_trigger AFTER INSERT ON media FOR EACH ROW
  WHEN (NEW.is_public AND NEW.is_uploaded AND NEW.hidden_from_wall_at IS NULL)
  EXECUTE FUNCTION wall_stats_count();
--> statement-breakpoint
CREATE TRIGGER wall_stats_delete_trigger AFTER DELETE ON media FOR EACH ROW
  WHEN (OLD.is_public AND OLD.is_uploaded AND OLD.hidden_from_wall_at IS NULL)
  EXECUTE FUNCTION wall_stats_count();
--> statement-breakpoint
CREATE TRIGGER wall_stats_update_trigger
  AFTER UPDATE OF is_public, is_uploaded, hidden_from_wall_at ON media FOR EACH ROW
  WHEN ((OLD.is_public AND OLD.is_uploaded AND OLD.hidden_from_wall_at IS NULL)
    IS DISTINCT FROM (NEW.is_public AND NEW.is_uploaded AND NEW.hidden_from_wall_at IS NULL))
  EXECUTE FUNCTION wall_stats_count();
--> statement-breakpoint
-- The wall's search (ILIKE '%text%' on caption, user, organization and booth names): trigram
-- indexes, the caption's only over the wall's items.
CREATE INDEX media_wall_caption_trgm_idx ON media USING gin (caption gin_trgm_ops)
  WHERE is_public AND is_uploaded AND hidden_from_wall_at IS NULL;
--> statement-breakpoint
CREATE INDEX users_name_trgm_idx ON users USING gin (name gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX organizations_name_trgm_idx ON organizations USING gin (name gin_trgm_ops);
--> statement-breakpoint
CREATE INDEX devices_name_trgm_idx ON devices USING gin (name gin_trgm_ops);
