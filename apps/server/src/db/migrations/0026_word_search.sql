-- The wall's and the staff media views' search finds words, not substrings (db/media-search.ts):
-- each of the caption, the owner's name, the organization's name and the booth's name is
-- searched for all the words typed, the last also as the start of a word. The trigram indexes
-- of migrations 0014 and 0015 made a search for a phrase of common words read every captioned
-- item's entry (4.4 ms for "caption 12" at a million media); a word's GIN entry lists only the
-- items holding it (docs/benchmarks.md, "Word search"). The 'simple' configuration: no stemming
-- and no stop words (names and captions in any language), lower-cased.
CREATE INDEX media_wall_caption_words_idx ON media USING gin (to_tsvector('simple', caption))
  WHERE is_public AND is_uploaded AND hidden_from_wall_at IS NULL;
--> statement-breakpoint
CREATE INDEX media_caption_words_idx ON media USING gin (to_tsvector('simple', caption))
  WHERE is_uploaded;
--> statement-breakpoint
CREATE INDEX users_name_words_idx ON users USING gin (to_tsvector('simple', name));
--> statement-breakpoint
CREATE INDEX organizations_name_words_idx ON organizations USING gin (to_tsvector('simple', name));
--> statement-breakpoint
CREATE INDEX devices_name_words_idx ON devices USING gin (to_tsvector('simple', name));
--> statement-breakpoint
DROP INDEX media_wall_caption_trgm_idx;
--> statement-breakpoint
DROP INDEX media_caption_trgm_idx;
--> statement-breakpoint
-- The media whose caption, owner's name, organization's name or booth's name holds every word of
-- `words` (a to_tsquery text, db/media-search.ts wordQuery), once each: on the wall (`on_wall`)
-- or among the uploaded items (the staff media views, which narrow the result further). A
-- function so that its statement is planned once per connection and its plan kept whatever the
-- words (plan_cache_mode): planned for each search, the four lookups cost more to plan (0.9 ms
-- at a million media) than to run (0.5 ms). Its estimates cannot know the words, and an
-- organization's or booth's name that matches stands for all of its items, so parallel workers
-- (tens of milliseconds to start) and a hash of that many rows (megabytes allocated and freed
-- per search) are ruled out: duplicates are removed by sorting the few rows found.
CREATE FUNCTION media_matching(words text, on_wall boolean)
RETURNS TABLE (id integer, created_at timestamptz)
LANGUAGE plpgsql STABLE
SET plan_cache_mode = force_generic_plan
SET max_parallel_workers_per_gather = 0
SET enable_hashagg = off
AS $$
DECLARE
  q tsquery := to_tsquery('simple', words);
BEGIN
  IF on_wall THEN
    RETURN QUERY SELECT DISTINCT x.id, x.created_at FROM (
      SELECT m.id, m.created_at FROM media m
        WHERE m.is_public AND m.is_uploaded AND m.hidden_from_wall_at IS NULL
          AND to_tsvector('simple', m.caption) @@ q
      UNION ALL SELECT m.id, m.created_at FROM media m JOIN users u ON u.id = m.user_id
        WHERE m.is_public AND m.is_uploaded AND m.hidden_from_wall_at IS NULL
          AND to_tsvector('simple', u.name) @@ q
      UNION ALL SELECT m.id, m.created_at FROM media m JOIN organizations o ON o.id = m.org_id
        WHERE m.is_public AND m.is_uploaded AND m.hidden_from_wall_at IS NULL
          AND to_tsvector('simple', o.name) @@ q
      UNION ALL SELECT m.id, m.created_at FROM media m JOIN devices d ON d.id = m.device_id
        WHERE m.is_public AND m.is_uploaded AND m.hidden_from_wall_at IS NULL
          AND to_tsvector('simple', d.name) @@ q) x;
  ELSE
    RETURN QUERY SELECT DISTINCT x.id, x.created_at FROM (
      SELECT m.id, m.created_at FROM media m
        WHERE m.is_uploaded AND to_tsvector('simple', m.caption) @@ q
      UNION ALL SELECT m.id, m.created_at FROM media m JOIN users u ON u.id = m.user_id
        WHERE m.is_uploaded AND to_tsvector('simple', u.name) @@ q
      UNION ALL SELECT m.id, m.created_at FROM media m JOIN organizations o ON o.id = m.org_id
        WHERE m.is_uploaded AND to_tsvector('simple', o.name) @@ q
      UNION ALL SELECT m.id, m.created_at FROM media m JOIN devices d ON d.id = m.device_id
        WHERE m.is_uploaded AND to_tsvector('simple', d.name) @@ q) x;
  END IF;
END
$$;
